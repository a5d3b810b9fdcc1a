/**
 * A gate the grammar worker waits at, between its own boot and loading the engine, until the thread that started it
 * lets it go. The launcher sets V8 flags at run time (WASM on the baseline compiler for short runs), and that changes
 * the flag hash Node's built-in code cache is checked against: a worker that boots after the change compiles every
 * Node internal of its bootstrap from source, measured ~18 ms more before its first line. So the launcher holds the
 * worker here: it waits until the worker has booted, sets the flags, then lets the worker load the engine (whose WASM
 * is compiled under those flags). Both sides give up waiting after a time limit rather than hang.
 */
/** The flags the launcher sets behind the gate for a short run: WASM on V8's baseline compiler only. */
export const SHORT_RUN_FLAGS = '--no-wasm-tier-up --no-wasm-dynamic-tiering';

/** The same flags at V8's defaults (Node 20): what a code cache written at the end of a short run is made under. */
export const DEFAULT_RUN_FLAGS = '--wasm-tier-up --wasm-dynamic-tiering';

/** What the starting thread hands the worker (as its workerData): [booted, released]. */
export interface BootGate {
  bootGate: SharedArrayBuffer;
}

const BOOTED = 0;
const RELEASED = 1;

export function newBootGate(): BootGate {
  return { bootGate: new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT) };
}

/** The starting thread: blocks until the worker has booted (true) or `timeoutMs` passed (false). */
export function awaitBoot(gate: BootGate, timeoutMs: number): boolean {
  return Atomics.wait(new Int32Array(gate.bootGate), BOOTED, 0, timeoutMs) !== 'timed-out';
}

/** The starting thread: lets the worker go on. */
export function release(gate: BootGate): void {
  const cells = new Int32Array(gate.bootGate);
  Atomics.store(cells, RELEASED, 1);
  Atomics.notify(cells, RELEASED);
}

/** The worker, first thing: says it has booted and waits to be let go; a worker started without a gate goes on. */
export function passBootGate(workerData: unknown, timeoutMs: number): void {
  const buffer = (workerData as Partial<BootGate> | null)?.bootGate;
  if (!(buffer instanceof SharedArrayBuffer)) return;
  const cells = new Int32Array(buffer);
  Atomics.store(cells, BOOTED, 1);
  Atomics.notify(cells, BOOTED);
  Atomics.wait(cells, RELEASED, 0, timeoutMs);
}
