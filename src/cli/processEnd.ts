/**
 * How a finished command's process ends. Left to itself, Node ends a process by tearing everything down in order: it
 * stops the grammar worker and frees its heap and WASM memory, then frees the main thread's heap page by page and
 * its certificate store, before the kernel, which frees the whole address space at once anyway, ends the process.
 * A command that has nothing left to run once its action returned (analyze: its records written, its files closed)
 * asks to end at once instead: `process.exit` after the 'exit' handlers (the code cache is written there), once
 * what it wrote has left the streams. A command that keeps serving (serve, proxy) never asks.
 */
let endAtOnce = false;

/** Called by a command whose run is over when its action returns. */
export function endWhenDone(): void {
  endAtOnce = true;
}

/**
 * Sets the exit status and, when the command asked (endWhenDone), ends the process now, once standard output holds
 * nothing unwritten (it always has been written to). Standard error is only asked where it may be asynchronous: on
 * Linux writes to files, pipes and terminals are synchronous, and asking would create the stream (and load `net` for
 * a pipe) in a run that never wrote to it. Where a stream still holds bytes the process ends as Node ends it.
 */
export function endProcess(code: number): void {
  process.exitCode = code;
  if (!endAtOnce || process.stdout.writableLength > 0) return;
  if (process.platform !== 'linux' && process.stderr.writableLength > 0) return;
  process.exit(code);
}
