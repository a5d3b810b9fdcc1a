/**
 * Work on many files over worker threads, answered in file order: whole files go to the threads, one at a time
 * each, and `onResult` sees every file's answer in the order of `files`, whichever thread finished first — so the
 * output is what one thread writes. A thread that dies (out of memory, a crash) fails the run with the file it was
 * on. `analyze` and `report` over many files stand on it (parallelAnalyze.ts, parallelReport.ts); the CLI bundle is
 * its own worker (main.ts starts the worker's side by the `kind` of its data).
 */
import { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileSize } from './fileSize.ts';

/** What a worker is sent for each file. */
export interface FileJob {
  index: number;
  file: string;
}

/** Bundled: this bundle (cli-main.js) is also the worker; from source (tsx): main.ts with tsx's CommonJS hooks. */
function spawnWorker(data: { kind: string }): Worker {
  if (__filename.endsWith('.ts')) {
    const main = join(dirname(__filename), 'main.ts');
    return new Worker(`require('tsx/cjs'); require(${JSON.stringify(main)});`, { eval: true, workerData: data });
  }
  return new Worker(__filename, { workerData: data });
}

export function inFileOrder<R extends { index: number }>(
  files: readonly string[],
  workerData: { kind: string },
  threads: number,
  onResult: (r: R & { bytes: number }) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sizes = new Map<number, number>();
    const finished = new Map<number, R & { bytes: number }>();
    const workers: Worker[] = [];
    const onFile = new Map<Worker, number>();
    let nextIn = 0;
    let nextOut = 0;
    let failed = false;
    const stopAll = () => {
      for (const w of workers) void w.terminate();
    };
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      stopAll();
      reject(err);
    };
    const feed = (w: Worker) => {
      if (nextIn >= files.length) {
        onFile.delete(w);
        return;
      }
      const index = nextIn++;
      onFile.set(w, index);
      void fileSize(files[index] as string).then((size) => sizes.set(index, size));
      const job: FileJob = { index, file: files[index] as string };
      w.postMessage(job);
    };
    for (let i = 0; i < threads; i++) {
      const w = spawnWorker(workerData);
      workers.push(w);
      w.on('message', (r: R) => {
        if (failed) return;
        finished.set(r.index, { ...r, bytes: sizes.get(r.index) ?? 0 });
        // In file order: a file finished early waits for the ones before it.
        try {
          for (let next = finished.get(nextOut); next; next = finished.get(nextOut)) {
            finished.delete(nextOut);
            nextOut++;
            onResult(next);
          }
        } catch (err) {
          fail(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        if (nextOut === files.length) {
          stopAll();
          resolve();
        } else {
          feed(w);
        }
      });
      w.on('error', (err) => fail(new Error(`a worker thread failed on ${files[onFile.get(w) ?? -1] ?? 'its file'}: ${err.message}`)));
      w.on('exit', (code) => {
        if (onFile.has(w) && nextOut < files.length)
          fail(new Error(`a worker thread stopped (exit code ${code}) on ${files[onFile.get(w) as number]}`));
      });
      feed(w);
    }
  });
}
