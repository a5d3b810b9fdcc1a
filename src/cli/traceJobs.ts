/**
 * How `analyze` and `report` spread their input over worker threads: whole files, and a big file cut into ranges of
 * its records (traceRanges.ts), so one 1 GB trace uses every core as a directory does. The range size is aimed at about
 * RANGES_PER_THREAD ranges per thread (the threads finish close together), within MIN_RANGE_BYTES (a range costs a
 * message and an open: not worth it for less) and MAX_RANGE_BYTES (a range's output is held until its turn to be
 * written, so ranges bound the memory a big file takes). A file is cut when it holds SPLIT_RANGES ranges or more:
 * a directory of files of ordinary size is spread by file, without indexing each one first. Standard input and
 * files that may be Inspect logs (one JSON document, read whole) are never cut.
 */
import { availableParallelism } from 'node:os';
import { STDIN_NAME } from './stdinTrace.ts';
import { fileSize } from './fileSize.ts';
import { mayBeInspectLog } from '../io/trace/inspectLogReader.ts';
import { mayBeTableFile } from '../io/trace/tableTrace.ts';
import { indexedRanges, windowRanges, type ByteWindow, type TraceRange } from '../io/trace/traceRanges.ts';
import type { PoolJob } from './fileWorkerPool.ts';

/** Below this much input (unless `--jobs` says how many threads) everything is done on this thread. */
export const PARALLEL_MIN_BYTES = 8_000_000;
export const MIN_RANGE_BYTES = 64 * 1024;
export const MAX_RANGE_BYTES = 8 * 1024 * 1024;
const RANGES_PER_THREAD = 8;
const SPLIT_RANGES = 4;

/** What a worker is sent: a whole file, or one range of a big file's records (`first`: the range that names the file). */
export type TraceJobMessage = { index: number; file: string; window?: ByteWindow } | { index: number; range: TraceRange; first: boolean };

/** A job as the main thread sees it: what the worker is sent, and what progress counts when it is answered. */
export interface TraceJob extends PoolJob {
  message: TraceJobMessage;
  bytes: number;
  /** The job ends its file (a whole file, or a file's last range). */
  endsFile: boolean;
  /**
   * Reading the file failed after this range, while it was being indexed (a failing disk): why. The file ends here
   * for the run, as one thread's reading stops where it fails.
   */
  readError?: string;
}

/** The size of the ranges big files are cut into, for `totalBytes` of input on `threads` threads. */
export function rangeBytesFor(totalBytes: number, threads: number): number {
  return Math.min(MAX_RANGE_BYTES, Math.max(MIN_RANGE_BYTES, Math.floor(totalBytes / (threads * RANGES_PER_THREAD))));
}

/** Whether a file of `size` bytes is cut into ranges of `rangeBytes`. */
export function isCut(file: string, size: number, rangeBytes: number): boolean {
  return file !== STDIN_NAME && !mayBeInspectLog(file) && !mayBeTableFile(file) && size >= SPLIT_RANGES * rangeBytes;
}

/** How many threads to analyse `files` (or build their report) with (1: this one): never more than there are jobs to share. */
export async function traceThreads(files: readonly string[], jobs: number | undefined): Promise<number> {
  const wanted = jobs ?? availableParallelism();
  if (wanted <= 1 || files.includes(STDIN_NAME)) return 1;
  const sizes = await Promise.all(files.map(fileSize));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (jobs === undefined && total < PARALLEL_MIN_BYTES) return 1;
  const rangeBytes = rangeBytesFor(total, wanted);
  let count = 0;
  for (const [i, file] of files.entries()) {
    const size = sizes[i] as number;
    count += isCut(file, size, rangeBytes) ? Math.ceil(size / rangeBytes) : 1;
  }
  return Math.min(wanted, count);
}

/**
 * The jobs for `files` on `threads` threads, in output order. A file that is cut is indexed here a piece at a time
 * as its ranges are taken (traceRanges.ts), while the threads work on what came before.
 */
export async function* traceJobs(
  files: readonly string[],
  threads: number,
  windows: ReadonlyMap<string, ByteWindow> = new Map(),
): AsyncGenerator<TraceJob> {
  const sizes = await Promise.all(files.map(fileSize));
  const rangeBytes = rangeBytesFor(
    sizes.reduce((a, b) => a + b, 0),
    threads,
  );
  let index = 0;
  for (const [i, file] of files.entries()) {
    const size = sizes[i] as number;
    // `--shard`: only the records that start in this window of the file's bytes (shard.ts).
    const window = windows.get(file);
    const cut = isCut(file, size, rangeBytes);
    const ranges = cut
      ? await firstRange(window ? windowRanges(file, size, rangeBytes, window) : indexedRanges(file, size, rangeBytes))
      : null;
    // Not cut, empty, or not readable here: the whole file (or window) is one job (its worker says why it cannot be read).
    if (!ranges?.first) {
      const message = window ? { index, file, window } : { index, file };
      yield { index, what: file, message, bytes: window && cut ? 0 : size, endsFile: true };
      index++;
      continue;
    }
    let first = true;
    const job = (range: TraceRange, endsFile: boolean): TraceJob => {
      const lines = `lines ${range.entries[0]?.line}–${range.entries.at(-1)?.lastLine}`;
      const made: TraceJob = { index, what: `${file} (${lines})`, message: { index, range, first }, bytes: range.bytes, endsFile };
      index++;
      first = false;
      return made;
    };
    // One range ahead, to know which one is the file's last.
    let held = ranges.first;
    let readError: string | undefined;
    try {
      for await (const range of ranges.rest) {
        yield job(held, false);
        held = range;
      }
    } catch (err) {
      // The ranges already out are whole: they are kept, and the file is reported as unreadable after them.
      readError = err instanceof Error ? err.message : String(err);
    }
    yield { ...job(held, true), readError };
  }
}

/** A file's first range and the rest to come; null when it cannot be opened here (no first: an empty file). */
async function firstRange(
  ranges: AsyncGenerator<TraceRange>,
): Promise<{ first: TraceRange | undefined; rest: AsyncGenerator<TraceRange> } | null> {
  try {
    const next = await ranges.next();
    return { first: next.done ? undefined : next.value, rest: ranges };
  } catch {
    return null;
  }
}
