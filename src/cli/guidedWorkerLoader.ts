/**
 * The grammar-engine worker's entry in the CLI's build (dist/guidedWorker.js): it loads the engine's own bundle
 * (dist/guidedWorker-engine.js, built from src/io/guided/engineWorker.ts) through V8's code cache, as the launcher
 * loads the CLI's. A short `analyze` waits for the what-if, so compiling that 1.3 MB bundle is on its critical path.
 * A worker is ended, not exited, when the process exits: the cache is written once the worker has run its warm-up and
 * its first job (the functions they ran are compiled by then), before it sends that job's answer, not on exit. The
 * extension's package keeps the engine itself as guidedWorker.js.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { requireWithCodeCache } from '../io/cache/codeCache.ts';
import { passBootGate } from './workerBootGate.ts';

/**
 * Built-ins the engine's bundle loads (besides those this file does), and node:crypto, which the code cache's modules
 * load on first use (src/io/cache/sha256.ts): after the boot gate it would be compiled from source.
 */
const ENGINE_BUILTINS = ['node:crypto', 'node:perf_hooks', 'node:url'];

/** How long the worker waits at the boot gate before it goes on anyway. */
const GATE_WAIT_MS = 2000;

/** The warm-up's answer and the first job's. */
const ANSWERS_BEFORE_SAVING = 2;

// A short run's worker sets V8's flags once it has booted and the launcher has let it go, before the engine (and its
// WASM) loads. The built-ins the engine loads come first, while Node's own code cache still applies to them (see
// workerBootGate.ts). The engine's code cache is kept per set of flags (codeCache.ts).
for (const id of ENGINE_BUILTINS) createRequire(__filename)(id);
const flagged = passBootGate(workerData, GATE_WAIT_MS);
requireWithCodeCache(join(__dirname, 'guidedWorker-engine.js'), flagged ?? '', (save) => {
  const port = parentPort;
  if (!port) return;
  const post = port.postMessage.bind(port);
  let answers = 0;
  port.postMessage = (value: unknown, transfer?: Parameters<typeof post>[1]) => {
    // Written before the answer goes, not after: a run of one record ends as soon as it has its answer, and ended
    // this thread before a save queued behind the answer ran (measured: a 20-call run never wrote it, and every run
    // compiled the engine from source). Only a run that finds no cache pays for writing one.
    if (++answers >= ANSWERS_BEFORE_SAVING) {
      port.postMessage = post;
      save();
    }
    post(value, transfer);
  };
});
