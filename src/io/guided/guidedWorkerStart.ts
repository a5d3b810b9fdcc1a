/**
 * Starting the grammar-engine worker thread, possibly before the code that will use it has loaded: the CLI's
 * launcher (src/cli/launcher.ts) starts it first thing for `analyze`, so Node's worker bootstrap and xgrammar's
 * WASM start-up run while the main thread is still loading its bundle and reading the trace; GuidedEngine then
 * adopts that thread instead of starting its own. The launcher and the engine live in different bundles (two
 * copies of this module), so the started worker is handed over through a global slot.
 */
import { Worker } from 'node:worker_threads';

/** The worker's V8 heap limit unless the engine is told otherwise, MB. */
export const DEFAULT_WORKER_MEMORY_MB = 1024;

interface Prestarted {
  file: string;
  memoryMb: number;
  worker: Worker;
  /** It failed or exited before anyone adopted it. */
  dead: boolean;
}

const SLOT = Symbol.for('toolscope.prestartedGuidedWorker');
const slots = globalThis as unknown as Record<symbol, Prestarted | undefined>;

function spawn(file: string, memoryMb: number, workerData?: unknown): Worker {
  const limits = { resourceLimits: { maxOldGenerationSizeMb: memoryMb }, workerData };
  // From source (tests, scripts under tsx) the worker needs tsx's CommonJS hooks: workers get no loader hooks.
  return file.endsWith('.ts')
    ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { ...limits, eval: true })
    : new Worker(file, limits);
}

/**
 * Starts the worker now, for a GuidedEngine to adopt later. It does not keep the process alive, and a failure
 * before adoption is only noted (the engine then starts a fresh worker and reports what goes wrong with that one).
 * `workerData` is the worker's (the CLI's boot gate, src/cli/workerBootGate.ts).
 */
export function prestartGuidedWorker(file: string, memoryMb = DEFAULT_WORKER_MEMORY_MB, workerData?: unknown): void {
  if (slots[SLOT]) return;
  const worker = spawn(file, memoryMb, workerData);
  worker.unref();
  const entry: Prestarted = { file, memoryMb, worker, dead: false };
  worker.once('error', () => (entry.dead = true));
  worker.once('exit', () => (entry.dead = true));
  slots[SLOT] = entry;
}

/** A worker running `file` under `memoryMb`: the prestarted one when it matches and is alive, else a new one. */
export function startGuidedWorker(file: string, memoryMb: number): Worker {
  const entry = slots[SLOT];
  if (entry) {
    slots[SLOT] = undefined;
    if (entry.file === file && entry.memoryMb === memoryMb && !entry.dead) return entry.worker;
    if (!entry.dead) void entry.worker.terminate();
  }
  return spawn(file, memoryMb);
}

/**
 * The prestarted worker will not be adopted: the run went to file threads (`--jobs`), each with a grammar engine of
 * its own. It ends now instead of loading xgrammar's WASM beside them for nothing (a core's worth of it, measured,
 * on 2 cores while the file threads started). True once a worker was there and has ended.
 */
export async function discardPrestartedGuidedWorker(): Promise<boolean> {
  const entry = slots[SLOT];
  slots[SLOT] = undefined;
  if (!entry || entry.dead) return false;
  await entry.worker.terminate();
  return true;
}
