/**
 * Starting a worker thread of our own code, bundled or from source: a bundle runs its file as is; from source (tsx:
 * tests, scripts) the module is loaded with tsx's CommonJS hooks, and its ESM hooks for the `import()`s it makes
 * (workers get no loader hooks of their own). `analyze`'s and `report`'s file workers, the Parquet encoder and the
 * trace editor's list workers start this way.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorker(file: string, options: WorkerOptions = {}): Worker {
  if (!file.endsWith('.ts')) return new Worker(file, options);
  return new Worker(`require('tsx/cjs'); import('tsx/esm/api').then((tsx) => { tsx.register(); require(${JSON.stringify(file)}); });`, {
    ...options,
    eval: true,
  });
}
