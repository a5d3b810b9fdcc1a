/**
 * `toolscope`'s entry point (dist/cli.js), kept tiny so the first milliseconds go to what the command needs:
 * for `analyze` (unless --no-guided) the grammar-engine worker is started before anything else, so its thread and
 * xgrammar's WASM module start while this thread loads the CLI bundle (dist/cli-main.js, through V8's code cache:
 * codeCache.ts) and reads the traces. A short run's V8 flags are set by the worker once it has booted and this thread
 * has checked its bundle's code cache (workerBootGate.ts).
 * Everything else is main.ts.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { prestartGuidedWorker } from '../io/guided/guidedWorkerStart.ts';
import { compileWithCodeCache, requireWithCodeCache } from '../io/cache/codeCache.ts';
import { DEFAULT_RUN_FLAGS, longRunFlags, newBootGate, release, shortRunFlags, type BootGate } from './workerBootGate.ts';
import { startupMark } from '../core/util/startupMarks.ts';

/**
 * Built-ins every analyze start loads that the bundle loads when it runs (its modules' imports and the command's):
 * loaded before the flags, while Node's own code cache applies to them (the flags change the hash it is checked against, and what loads after them is
 * compiled from source). Not child_process (commander's, only for executable subcommands, is loaded on use:
 * scripts/build.mjs), readline or zlib (Parquet input loads it): with the net and dgram child_process pulls in, they
 * were ~5 % of the main thread's CPU on a short run, loaded for nothing.
 */
const PRELOADED = ['node:fs/promises', 'node:perf_hooks', 'node:process'];

/** Below this much named input a run is short: WASM stays on V8's baseline compiler (see below). */
const SHORT_RUN_BYTES = 4_000_000;

/** The paths named are files of less than SHORT_RUN_BYTES together (no directory, no standard input). */
function shortRun(paths: readonly string[]): boolean {
  let bytes = 0;
  for (const path of paths) {
    if (path === '-') return false;
    try {
      const info = statSync(path);
      if (info.isDirectory()) return false;
      bytes += info.size;
    } catch {
      // Not a path (an option's value): nothing to read.
    }
  }
  return bytes < SHORT_RUN_BYTES;
}

/** The command's process: the grammar worker first, then the CLI's bundle, then the command. */
function launch(): void {
  startupMark('launcher');
  const args = process.argv.slice(2);
  const load = createRequire(__filename);
  /**
   * Set for a short run and a long one on this thread alone: the worker sets the V8 flags once it has booted and this
   * thread has checked its bundle's cache.
   */
  let gate: BootGate | null = null;
  if (
    (args[0] === 'analyze' || args[0] === 'report') &&
    !args.includes('--no-guided') &&
    !args.includes('--help') &&
    !args.includes('-h')
  ) {
    // V8 moves hot WASM functions to its optimising compiler in the background, and the process waits for those
    // compilations before it ends: measured, a short run ended ~100 ms after its last record, for code it no longer
    // needed. Long runs keep the optimised code (it pays back on thousands of records).
    // Set by the worker once it has booted (workerBootGate.ts): flags changed at run time cost its bootstrap ~18 ms.
    // A long run on this thread alone: xgrammar's grammar compiler is not optimised for its one compile (workerBootGate.ts).
    const long = longRunFlags(args, availableParallelism());
    if (shortRun(args.slice(1).filter((a) => a === '-' || !a.startsWith('-')))) {
      gate = newBootGate(shortRunFlags(availableParallelism()));
      prestartGuidedWorker(join(__dirname, 'guidedWorker.js'), undefined, gate);
    } else if (long) {
      gate = newBootGate(long);
      prestartGuidedWorker(join(__dirname, 'guidedWorker.js'), undefined, gate);
    } else prestartGuidedWorker(join(__dirname, 'guidedWorker.js'));
  }
  // The bundle is compiled while the worker boots, before any flag is set: its code cache is V8's under the default
  // flags, and it is written under them too (the flags are put back at exit first), so every run reads the same cache.
  const run = compileWithCodeCache(
    join(__dirname, 'cli-main.js'),
    '',
    gate
      ? (save) =>
          process.once('exit', () => {
            setFlagsFromString(DEFAULT_RUN_FLAGS);
            save();
          })
      : undefined,
  );
  if (gate) {
    // The worker is let go before the bundle runs, not after: it sets the flags and loads its engine and WASM while
    // this thread builds the bundle's modules (~25 ms of CPU) and reads the trace, and this thread never waits for it.
    // Only the cache check above needs the default flags, and the built-ins the bundle's modules load, loaded here.
    try {
      for (const id of PRELOADED) load(id);
    } finally {
      release(gate);
    }
  }
  const cli = run() as { runCli(): void };
  startupMark('bundle-loaded');
  cli.runCli();
}

/**
 * A file thread of `analyze` or `report` (fileWorkerPool.ts) starts here too, for the same code cache: loading the
 * bundle runs the thread's job (main.ts). Only the main thread writes the cache.
 */
function loadInFileThread(): void {
  requireWithCodeCache(join(__dirname, 'cli-main.js'), '', () => undefined);
}

if (isMainThread) launch();
else loadInFileThread();
