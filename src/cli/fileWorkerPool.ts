/**
 * Work over worker threads, answered in order: jobs (whole files, or ranges of a big file's records) go to the
 * threads one at a time each, and `onResult` sees every job's answer in the order of the jobs, whichever thread
 * finished first — so the output is what one thread writes. Jobs are drawn from their source only as threads are
 * free and at most `window` ahead of the oldest unanswered one, so a big file's answers are held a few at a time,
 * not all. A thread that dies (out of memory, a crash) fails the run with the job it was on. `analyze` and `report`
 * stand on it (parallelAnalyze.ts, parallelReport.ts); the CLI bundle is its own worker (main.ts starts the
 * worker's side by the `kind` of its data).
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../io/workerThread.ts';
import { dirname, join } from 'node:path';

/** A job of the pool: `index` counts 0, 1, 2… in the order the answers are wanted; `what` names it in errors. */
export interface PoolJob {
  index: number;
  what: string;
  /** The message posted to the worker. */
  message: unknown;
}

/**
 * Bundled: this bundle (cli-main.js) is also the worker, started through the launcher beside it (cli.js), which loads
 * it with the main thread's code cache (compiling it cost each thread ~0.1 s of CPU); from source (tsx): main.ts with
 * tsx's CommonJS hooks, and its ESM hooks for the `import()` that loads the report worker.
 */
function spawnWorker(data: { kind: string }): Worker {
  const here = dirname(__filename);
  return startWorker(join(here, __filename.endsWith('.ts') ? 'main.ts' : 'cli.js'), { workerData: data });
}

/**
 * Runs `jobs` on `threads` worker threads and calls `onResult` for each answer in job order (awaited: an answer
 * is not taken before the one ahead of it has been handled). Every thread is started first, so they load while
 * the jobs' source prepares the first jobs.
 */
export async function inJobOrder<J extends PoolJob, R extends { index: number }>(
  jobs: AsyncIterable<J> | Iterable<J>,
  workerData: { kind: string },
  threads: number,
  onResult: (r: R, job: J) => void | Promise<void>,
  window = threads * 2,
): Promise<void> {
  const workers = Array.from({ length: threads }, () => spawnWorker(workerData));
  const source = Symbol.asyncIterator in jobs ? jobs[Symbol.asyncIterator]() : jobs[Symbol.iterator]();
  const idle = [...workers];
  const onJob = new Map<Worker, J>();
  const sent = new Map<number, J>();
  const answered = new Map<number, R>();
  let nextIn = 0;
  let nextOut = 0;
  let exhausted = false;
  let closing = false;
  // What the loop below waits on: an answer, or the failure that ends the run.
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  for (const w of workers) {
    w.on('message', (r: R) => {
      answered.set(r.index, r);
      onJob.delete(w);
      idle.push(w);
      signal();
    });
    w.on('error', (err) => {
      failure ??= new Error(`a worker thread failed on ${onJob.get(w)?.what ?? 'its job'}: ${err.message}`);
      signal();
    });
    w.on('exit', (code) => {
      // Threads end only when the run does: any other exit, even between jobs, ends the run.
      if (closing) return;
      const job = onJob.get(w);
      failure ??= new Error(`a worker thread stopped (exit code ${code})${job ? ` on ${job.what}` : ''}`);
      signal();
    });
  }
  try {
    for (;;) {
      if (failure) throw failure;
      while (!exhausted && idle.length > 0 && nextIn - nextOut < window) {
        const next = await source.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const job = next.value;
        const w = idle.pop() as Worker;
        onJob.set(w, job);
        sent.set(job.index, job);
        nextIn++;
        w.postMessage(job.message);
      }
      // In job order: an answer that came early waits for the ones before it.
      for (let r = answered.get(nextOut); r; r = answered.get(nextOut)) {
        answered.delete(nextOut);
        const job = sent.get(nextOut) as J;
        sent.delete(nextOut);
        nextOut++;
        await onResult(r, job);
      }
      if (failure) throw failure;
      if (exhausted && nextOut === nextIn) return;
      if (answered.has(nextOut) || (!exhausted && idle.length > 0 && nextIn - nextOut < window)) continue;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    closing = true;
    await source.return?.();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
