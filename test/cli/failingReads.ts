/**
 * A read error part-way through a file (an EIO from a failing disk), injected: every `FileHandle#read` at or past a
 * byte position fails as the disk would. In process with `failReadsFrom`; in the built CLI by preloading this module
 * (`--require`, with tsx's CommonJS hooks: they load TypeScript in worker threads too) with TOOLSCOPE_TEST_FAIL_READS_AT set (`failingReadsEnv`).
 */
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

type Read = (buffer: Uint8Array, offset: number, length: number, position: number) => Promise<unknown>;
const VAR = 'TOOLSCOPE_TEST_FAIL_READS_AT';

/** Makes reads at or past `position` fail with EIO until the returned function is called. */
export async function failReadsFrom(position: number): Promise<() => void> {
  const handle = await open(fileURLToPath(import.meta.url), 'r');
  const proto = Object.getPrototypeOf(handle) as { read: Read };
  await handle.close();
  const read = proto.read;
  proto.read = function (this: unknown, buffer, offset, length, at) {
    if (typeof at === 'number' && at >= position) {
      return Promise.reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', errno: -5, syscall: 'read' }));
    }
    return read.call(this, buffer, offset, length, at);
  };
  return () => {
    proto.read = read;
  };
}

/** The environment that makes the built CLI's reads at or past `position` fail. */
export function failingReadsEnv(position: number): Record<string, string> {
  return { NODE_OPTIONS: `--require tsx/cjs --require ${fileURLToPath(import.meta.url)}`, [VAR]: String(position) };
}

// Preloaded: in place long before the CLI has indexed as far as the position (opening and closing one file). On
// the main thread only, where big files are indexed: the workers' own reads (a range, the eval panel's look at the
// file's start) go through, so the failure met is the indexing's.
if (process.env[VAR] && isMainThread) void failReadsFrom(Number(process.env[VAR]));
