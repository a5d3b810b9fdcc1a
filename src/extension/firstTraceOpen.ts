/**
 * The session's first trace editor: what waits for it runs once its page is written. The extension's entry writes
 * its code cache a while after that, so the open's functions are in the cache: activation, on any JSON Lines file
 * opened as text, can come long before a trace is opened (or with none opened at all).
 */
let waiting: Array<() => void> | null = [];

/** Runs `callback` once the session's first trace editor has its page (at once if it has already). */
export function afterFirstTraceOpen(callback: () => void): void {
  if (waiting) waiting.push(callback);
  else callback();
}

/** A trace editor's page is written: the first one lets what waits for it run. */
export function traceOpened(): void {
  const callbacks = waiting;
  waiting = null;
  for (const callback of callbacks ?? []) callback();
}
