/**
 * A gate the grammar worker waits at, between its own boot and loading the engine, for a short run's V8 flags (WASM
 * on the baseline compiler). Flags are the process's, and changing them changes the flag hash V8 checks every code
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

/** The same flags at V8's defaults (Node 20): what a code cache written at the end of a short run is made under. */
export const DEFAULT_RUN_FLAGS = '--wasm-tier-up --wasm-dynamic-tiering --no-wasm-lazy-validation';

/** What the starting thread hands the worker (as its workerData): one cell, set when the worker may go on. */
export interface BootGate {
  bootGate: SharedArrayBuffer;
}

const CLEARED = 0;

export function newBootGate(): BootGate {
  return { bootGate: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) };
}

/** The starting thread, once the flags may change: lets the worker set them and go on. */
export function release(gate: BootGate): void {
  const cells = new Int32Array(gate.bootGate);
  Atomics.store(cells, CLEARED, 1);
  Atomics.notify(cells, CLEARED);
}

/**
 * The worker, once booted: waits until it is let go (or `timeoutMs` passed), then sets SHORT_RUN_FLAGS; a worker
 * started without a gate goes on at once and sets nothing. True when it set them.
 */
export function passBootGate(workerData: unknown, timeoutMs: number): boolean {
  const buffer = (workerData as Partial<BootGate> | null)?.bootGate;
  if (!(buffer instanceof SharedArrayBuffer)) return false;
  Atomics.wait(new Int32Array(buffer), CLEARED, 0, timeoutMs);
  setFlagsFromString(SHORT_RUN_FLAGS);
  return true;
}
