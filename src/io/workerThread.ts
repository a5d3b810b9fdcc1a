/**
 * Starting a worker thread of our own code, bundled or from source: a bundle runs its file as is; from source (tsx:
 * tests, scripts) the module is loaded with tsx's CommonJS hooks, and its ESM hooks for the `import()`s it makes
 * (workers get no loader hooks of their own). `analyze`'s and `report`'s file workers, the Parquet encoder and the
 * trace editor's list workers start this way. A thread doing background work can lower its own scheduling priority.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorker(file: string, options: WorkerOptions = {}): Worker {
  if (!file.endsWith('.ts')) return new Worker(file, options);
  return new Worker(`require('tsx/cjs'); import('tsx/esm/api').then((tsx) => { tsx.register(); require(${JSON.stringify(file)}); });`, {
    ...options,
    eval: true,
  });
}

/** The nice value of background threads: they get the CPU when threads of normal priority leave it. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's OS scheduling priority to `nice` (Linux: the nice value is a per-thread attribute, set
 * on the thread's own id, read from /proc/thread-self). Threads this thread starts afterwards (a worker's own worker
 * threads) inherit it. Elsewhere, or when the system refuses, nothing changes. Returns the thread's nice value after,
 * or null when it could not be read or set. Call it only after the process's libuv thread pool exists (any file read by the
 * main thread): threads a niced thread creates, that pool's included, would inherit the lower priority.
 */
export function lowerThreadPriority(nice = BACKGROUND_NICE): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // "<pid>/task/<tid>"
    const tid = Number(/\/task\/(\d+)$/u.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (!Number.isInteger(tid) || tid <= 0) return null;
    // Never raised: a thread already lower (the whole process started with `nice`) stays so.
    const now = getPriority(tid);
    if (now < nice) setPriority(tid, nice);
    return Math.max(now, nice);
  } catch {
    return null;
  }
}
