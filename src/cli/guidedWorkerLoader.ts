/**
 * The grammar-engine worker's entry in the CLI's build (dist/guidedWorker.js): it loads the engine's own bundle
 * (dist/guidedWorker-engine.js, built from src/core/guided/engineWorker.ts) through V8's code cache, as the launcher
 * loads the CLI's. A short `analyze` waits for the what-if, so compiling that 1.3 MB bundle is on its critical path.
 * A worker is ended, not exited, when the process exits: the cache is written once the worker has answered its
 * warm-up and its first job (the functions they ran are compiled by then), not on exit. The extension's package
 * keeps the engine itself as guidedWorker.js.
 */
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { requireWithCodeCache } from './codeCache.ts';

/** The warm-up's answer and the first job's. */
const ANSWERS_BEFORE_SAVING = 2;

requireWithCodeCache(join(__dirname, 'guidedWorker-engine.js'), (save) => {
  const port = parentPort;
  if (!port) return;
  const post = port.postMessage.bind(port);
  let answers = 0;
  port.postMessage = (value: unknown, transfer?: Parameters<typeof post>[1]) => {
    post(value, transfer);
    if (++answers < ANSWERS_BEFORE_SAVING) return;
    port.postMessage = post;
    setImmediate(save);
  };
});
