/**
 * `analyze` over many files on every core: whole files go to worker threads (analyzeWorker.ts: one Analyzer each,
 * with its own grammar-engine worker), and this thread writes their results in file order — byte for byte what one
 * thread writes — and merges their summaries. Used where it pays: two or more files and, unless `--jobs` says how
 * many threads, at least PARALLEL_MIN_BYTES of them (starting a thread costs about as much as a small trace).
 * Standard input, `--junit` and `--sarif` stay on one thread.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { STDIN_NAME } from './stdinTrace.ts';
import type { AnalyzeCommandOptions } from './analyzeFile.ts';
import { ANALYZE_WORKER, type AnalyzeWorkerData, type AnalyzeWorkerResult } from './analyzeWorkerProtocol.ts';

/** Below this much input the files are analysed on this thread. */
export const PARALLEL_MIN_BYTES = 8_000_000;

export interface ParallelFileResult extends AnalyzeWorkerResult {
  bytes: number;
}

export async function fileSize(file: string): Promise<number> {
  if (file === STDIN_NAME) return 0;
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/** How many threads to analyse `files` with (1: this one). */
export async function parallelThreads(files: readonly string[], jobs: number | undefined): Promise<number> {
  const wanted = jobs ?? availableParallelism();
  if (wanted <= 1 || files.length < 2 || files.includes(STDIN_NAME)) return 1;
  if (jobs === undefined) {
    const sizes = await Promise.all(files.map(fileSize));
    if (sizes.reduce((a, b) => a + b, 0) < PARALLEL_MIN_BYTES) return 1;
  }
  return Math.min(wanted, files.length);
}

/** Bundled: this bundle (cli-main.js) is also the worker; from source (tsx): main.ts with tsx's CommonJS hooks. */
function spawnWorker(data: AnalyzeWorkerData): Worker {
  if (__filename.endsWith('.ts')) {
    const main = join(dirname(__filename), 'main.ts');
    return new Worker(`require('tsx/cjs'); require(${JSON.stringify(main)});`, { eval: true, workerData: data });
  }
  return new Worker(__filename, { workerData: data });
}

/**
 * Analyses `files` on `threads` worker threads, one file at a time each, and calls `onResult` for every file in
 * file order. A thread that dies (out of memory, a crash) fails the run with the file it was on.
 */
export function analyzeInParallel(
  files: readonly string[],
  options: AnalyzeCommandOptions,
  threads: number,
  isTTY: boolean,
  onResult: (r: ParallelFileResult) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sizes = new Map<number, number>();
    const finished = new Map<number, ParallelFileResult>();
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
      w.postMessage({ index, file: files[index] });
    };
    const data: AnalyzeWorkerData = { kind: ANALYZE_WORKER, options, isTTY };
    for (let i = 0; i < threads; i++) {
      const w = spawnWorker(data);
      workers.push(w);
      w.on('message', (r: AnalyzeWorkerResult) => {
        if (failed) return;
        finished.set(r.index, { ...r, bytes: sizes.get(r.index) ?? 0 });
        // Written in file order: a file finished early waits for the ones before it.
        for (let next = finished.get(nextOut); next; next = finished.get(nextOut)) {
          finished.delete(nextOut);
          nextOut++;
          onResult(next);
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
