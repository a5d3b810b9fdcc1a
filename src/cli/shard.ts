/**
 * `analyze --shard I/N`: this machine's share of the input, so that N machines of any batch system (a Kubernetes
 * Indexed Job, a CI matrix, Spark) cover a corpus once. A file goes whole to the shard its path hashes to (FNV-1a
 * over the path as named, separators as `/`); a big file (SHARD_SPLIT_BYTES or more) is shared by every shard, each
 * taking the records that start in its N-th of the file's bytes. Both depend on the path, the file and N alone —
 * never on `--jobs` or the cores — so the shards' outputs put together are the whole run's, nothing lost or repeated.
 */
import { posix } from 'node:path';
import { InputError } from './inputError.ts';
import { STDIN_NAME } from './stdinTrace.ts';
import { fileSize } from './fileSize.ts';
import { mayBeInspectLog } from '../io/trace/inspectLogReader.ts';
import { mayBeTableFile } from '../io/trace/tableTrace.ts';
import type { ByteWindow } from '../io/trace/traceRanges.ts';

/** A file this size or bigger is shared by all shards by its bytes rather than given whole to one. */
export const SHARD_SPLIT_BYTES = 8 * 1024 * 1024;

/** This run's shard: `index` of `count` (0-based here; the command line counts from 1). */
export interface Shard {
  index: number;
  count: number;
}

/** A file of this shard's share, whole or a window of its bytes. */
export interface SharedFile {
  file: string;
  window?: ByteWindow;
}

/** `--shard I/N`, with 1 ≤ I ≤ N. */
export function parseShard(value: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const i = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(n) || n < 1 || i < 1 || i > n)
    throw new InputError(`--shard takes I/N, this machine's share of N (1 ≤ I ≤ N, e.g. 2/8), got "${value}"`);
  return { index: i - 1, count: n };
}

/** FNV-1a (32 bits) of the path's UTF-8, with Windows separators as `/` and `./` and `..` resolved. */
export function pathHash(path: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(posix.normalize(path.replaceAll('\\', '/')))) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The shard a whole file goes to. */
export function shardOfPath(path: string, count: number): number {
  return pathHash(path) % count;
}

/** The bytes of a file of `size` that shard `index` of `count` takes: its N-th, the last one to the file's end. */
export function shardWindow(size: number, { index, count }: Shard): ByteWindow {
  const at = (k: number) => (k >= count ? Number.MAX_SAFE_INTEGER : Math.floor((k * size) / count));
  return { start: at(index), end: at(index + 1) };
}

/**
 * This shard's share of `files`, in their order; `splitBytes` is SHARD_SPLIT_BYTES but for tests. Standard input
 * is refused: it has no stable name or line numbers to share out.
 */
export async function shareOf(files: readonly string[], shard: Shard, splitBytes = SHARD_SPLIT_BYTES): Promise<SharedFile[]> {
  if (files.includes(STDIN_NAME))
    throw new InputError(
      '--shard shares out files by their paths, and standard input (-) has no stable name or line numbers: write it to a file and name that',
    );
  const out: SharedFile[] = [];
  for (const file of files) {
    const size = await fileSize(file);
    // An Inspect log is one document, read whole: it is never cut.
    if (shard.count > 1 && size >= splitBytes && !mayBeInspectLog(file) && !mayBeTableFile(file))
      out.push({ file, window: shardWindow(size, shard) });
    else if (shardOfPath(file, shard.count) === shard.index) out.push({ file });
  }
  return out;
}
