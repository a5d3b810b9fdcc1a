/**
 * `-` as a trace path: standard input, copied to a private temporary file first, because the trace reader
 * indexes files by byte offset and reads records on demand. The copy lives in a fresh directory under the
 * system's temp dir (mode 0700) and is removed when the analysis ends — or when the process ends first: Ctrl-C
 * (SIGINT, SIGTERM, SIGHUP) and a reader closing the pipe (`| head`: EPIPE ends the run with process.exit) left it
 * behind, a copy of a trace in the temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The name a trace read from standard input is reported under (`file` in `--json`). */
export const STDIN_NAME = '-';

export interface SpooledInput {
  path: string;
  dispose(): Promise<void>;
}

/** Copies not yet removed: the process removes them on its way out. */
const live = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/** Removes the copies, then dies of the signal as it would have (status 128 + n for the shell). */
function onSignal(signal: NodeJS.Signals): void {
  removeLive();
  unhook();
  process.kill(process.pid, signal);
}

function hook(): void {
  process.on('exit', removeLive);
  for (const s of SIGNALS) process.on(s, onSignal);
}

function unhook(): void {
  process.off('exit', removeLive);
  for (const s of SIGNALS) process.off(s, onSignal);
}

export async function spoolInput(input: NodeJS.ReadableStream): Promise<SpooledInput> {
  // Hooked, made and recorded in one synchronous step: a signal handled between an async mkdtemp and the
  // continuation that records its folder left the folder behind (seen once in CI).
  if (live.size === 0) hook();
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'toolscope-stdin-'));
  } catch (err) {
    if (live.size === 0) unhook();
    throw err;
  }
  live.add(dir);
  const path = join(dir, 'stdin.trace');
  const dispose = async () => {
    await rm(dir, { recursive: true, force: true });
    live.delete(dir);
    if (live.size === 0) unhook();
  };
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      for await (const chunk of input) await handle.write(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
    } finally {
      await handle.close();
    }
  } catch (err) {
    await dispose();
    throw err;
  }
  return { path, dispose };
}
