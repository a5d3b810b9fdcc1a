/**
 * A gate the grammar worker waits at, between its own boot and loading the engine, for a short run's V8 flags (WASM
 * on the baseline compiler) or a one-thread long run's (LONG_RUN_FLAGS). Flags are the process's, and changing them changes the flag hash V8 checks every code
 * cache against, Node's built-in one included:
 * - a worker that boots after the change compiles every Node internal of its bootstrap from source (~18 ms more
 *   before its first line), so the worker sets them itself, once it has booted;
 * - the launcher's thread must have checked its bundle's code cache (made under the default flags) and loaded the
 *   built-ins its bundle needs before they change, so the worker waits here until the launcher says it has.
 * The launcher never waits for the worker: it goes on building the CLI's modules while the worker sets the flags and
 * loads the engine (whose WASM is then compiled under them). The worker gives up waiting after a time limit (and sets
 * the flags then) rather than hang.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * The flags the worker sets behind the gate for a short run: WASM on V8's baseline compiler only, and each WASM
 * function validated when it is first compiled instead of the whole module up front. V8 compiles xgrammar's functions
 * lazily anyway (Node 20's default) but validated all 0.7 MB of them before instantiating: ~4 ms of the worker's CPU
 * on the short run's longest path, measured (WebAssembly.Module of dist/xgrammar.wasm, 12 alternated pairs: 11.5 ms
 * of CPU median against 7.1). The module is the build's own file beside the bundle; a function that did not validate
 * would throw when called, inside the job that called it, which the engine answers as a failed what-if.
 */
export const SHORT_RUN_FLAGS = '--no-wasm-tier-up --no-wasm-dynamic-tiering --wasm-lazy-validation';

/**
 * Added where the machine has 2 cores or fewer: a JavaScript function is handed to the optimising compiler (TurboFan)
 * only after 8 times the usual work. The main thread and the grammar worker keep both cores busy through a short
 * run, and TurboFan compiles on V8's helper threads, which then take turns with them, for code that runs once: on
 * 1000 calls those threads spent 108 ms of CPU, 41 with this flag (the main thread 191 -> 210, the worker 174 -> 189,
 * the process 471 -> 444; medians of 6 runs, load 14-15, NODE_EXTRA_CA_CERTS unset); the whole process's CPU
 * alternated with V8's default, 11 pairs at load 13-15: 0.91x. TurboFan turned off altogether saved as much in all
 * but slowed the worker, the run's longest path, twice as much (174 -> 210 ms). With more cores the helper threads
 * have cores of their own, and the default is kept.
 */
export const FEW_CORES_FLAGS = '--interrupt-budget=540672';

/**
 * The flag the worker sets behind the gate for a long run on one analysing thread: a WASM function is handed to V8's
 * optimising compiler after 100 times the usual work (V8's "tiering budget", about the bytes of it run). xgrammar's
 * grammar compiler runs a few big functions hard, once per tool set, and by the default budget they were optimised
 * for nothing after it: over the 20 MB bench corpus (one tool set) function 223 of the module (42 kB of WASM) took
 * 390–430 ms of a helper thread to optimise and was never sampled running afterwards, nor were 519, 1130, 736, 275;
 * the matcher's hot functions (241, 487, 105, …) still reach the optimising compiler within the first records. Over
 * that corpus V8's helper threads spent 1.13 s of CPU instead of 1.41 (medians of 11 runs each, load 5–11), the
 * grammar worker 0.91 instead of 0.96. Set only where no thread starts after it (the flags are the process's, and a
 * thread booted under other flags than its code cache's compiles from source): see launcher.ts.
 */
export const LONG_RUN_FLAGS = '--wasm-tiering-budget=180000000';

/** The most cores at which FEW_CORES_FLAGS are added. */
const FEW_CORES = 2;

/** The flags for a short run on a machine of `cores` cores. */
export function shortRunFlags(cores: number): string {
  return cores <= FEW_CORES ? `${SHORT_RUN_FLAGS} ${FEW_CORES_FLAGS}` : SHORT_RUN_FLAGS;
}

/**
 * The flags for a long run (`args` are the command's): LONG_RUN_FLAGS where it is analysed on the starting thread
 * alone (`--jobs 1`, or a machine of one core), else null. A run on file threads sets none: the flags are the
 * process's, and each file thread, booted after they changed, would compile Node's internals and the CLI's bundle
 * from source (its code cache is the default flags').
 */
export function longRunFlags(args: readonly string[], cores: number): string | null {
  let jobs: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--jobs') jobs = args[++i];
    else if (arg.startsWith('--jobs=')) jobs = arg.slice('--jobs='.length);
  }
  return cores <= 1 || jobs === '1' ? LONG_RUN_FLAGS : null;
}

/**
 * Every flag of shortRunFlags and LONG_RUN_FLAGS at V8's defaults (Node 20): what a code cache written at the end of a
 * gated run is made under.
 */
export const DEFAULT_RUN_FLAGS =
  '--wasm-tier-up --wasm-dynamic-tiering --no-wasm-lazy-validation --interrupt-budget=67584 --wasm-tiering-budget=1800000';

/**
 * What the starting thread hands the worker (as its workerData): one cell, set when the worker may go on, and the
 * flags it then sets (shortRunFlags or LONG_RUN_FLAGS).
 */
export interface BootGate {
  bootGate: SharedArrayBuffer;
  flags: string;
}

const CLEARED = 0;

export function newBootGate(flags = SHORT_RUN_FLAGS): BootGate {
  return { bootGate: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT), flags };
}

/** The starting thread, once the flags may change: lets the worker set them and go on. */
export function release(gate: BootGate): void {
  const cells = new Int32Array(gate.bootGate);
  Atomics.store(cells, CLEARED, 1);
  Atomics.notify(cells, CLEARED);
}

/**
 * The worker, once booted: waits until it is let go (or `timeoutMs` passed), then sets the gate's flags (only flags
 * shortRunFlags or LONG_RUN_FLAGS: anything else is SHORT_RUN_FLAGS); a worker started without a gate goes on at once and sets
 * nothing. The flags it set, or null.
 */
export function passBootGate(workerData: unknown, timeoutMs: number): string | null {
  const gate = workerData as Partial<BootGate> | null;
  const buffer = gate?.bootGate;
  if (!(buffer instanceof SharedArrayBuffer)) return null;
  Atomics.wait(new Int32Array(buffer), CLEARED, 0, timeoutMs);
  const flags = gate?.flags === shortRunFlags(FEW_CORES) || gate?.flags === LONG_RUN_FLAGS ? gate.flags : SHORT_RUN_FLAGS;
  setFlagsFromString(flags);
  return flags;
}
