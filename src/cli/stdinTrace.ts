/**
 * `-` as a trace path: standard input, copied to a private temporary file first, because the trace reader
 * indexes files by byte offset and reads records on demand. The copy lives in a fresh directory under the
 * system's temp dir (mode 0700) and is removed when the analysis ends.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The name a trace read from standard input is reported under (`file` in `--json`). */
export const STDIN_NAME = '-';

export interface SpooledInput {
  path: string;
  dispose(): Promise<void>;
}

export async function spoolInput(input: NodeJS.ReadableStream): Promise<SpooledInput> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-stdin-'));
  const path = join(dir, 'stdin.trace');
  const dispose = () => rm(dir, { recursive: true, force: true });
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
