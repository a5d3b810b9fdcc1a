/**
 * A large Parquet file's slices decoded on a thread of their own (parquetSliceWorker.ts) while this thread turns the
 * slice before into records: hyparquet's decoding (inflating pages, levels, text) was about half of the reading
 * thread's CPU time on a Langfuse export, the JSON cells and the records the other half, so the two overlap. Memory
 * stays bounded as the single-thread read's: the thread decodes one slice ahead at most (it waits to be asked), its
 * heap is capped (resourceLimits), and a slice's text crosses as bytes moved, not copied. The slices are the ones
 * parquetSlices reads on this thread, with the same cells (parquetSliceProtocol.ts says how text is decoded).
 *
 * Any failure of the thread (a page that does not inflate, the heap cap, a thread that cannot start) costs nothing
 * but time: this thread goes on from the first slice it has not had, with parquetSlices, and meets the same rows and
 * the same errors as a read without the thread.
 */
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workerThread.ts';
import { parquetColumnNames, parquetFile, parquetSlices, SLICE_BYTES, type ColumnSlice } from './parquetRows.ts';
import { unpackSlice, type FromSliceWorker, type SliceWorkerData, type ToSliceWorker } from './parquetSliceProtocol.ts';

/**
 * A slice's inflated bytes when decoded on the thread: half the single thread's (SLICE_BYTES), as two slices are
 * held at once, the one being read and the one decoded ahead (measured on the bench's export: peak RSS ~410 MB with
 * these, ~465 MB with 16 MiB slices; the reading thread's CPU time the same).
 */
export const THREAD_SLICE_BYTES = SLICE_BYTES / 2;

/**
 * The columns read must inflate to more than this for the thread to start: a smaller file is a slice or two, read
 * in about the time a thread takes to start.
 */
export const THREAD_MIN_BYTES = 2 * THREAD_SLICE_BYTES;

/**
 * The decoding thread's heap (MB): a slice's cells and hyparquet's garbage, the row group's small columns whole;
 * past it the thread fails (and this thread decodes the rest: see above). Its young generation is smaller than a
 * main thread's: what the thread makes is short-lived (measured: no slower, ~10 MB less peak RSS than 48 MB).
 */
const THREAD_OLD_MB = 128;
const THREAD_YOUNG_MB = 16;

/**
 * Bundled: dist/parquetSliceWorker.js beside this bundle (scripts/build.mjs); from source (tsx): the worker's module.
 */
function sliceWorkerFile(): string {
  return join(dirname(__filename), __filename.endsWith('.ts') ? 'parquetSliceWorker.ts' : 'parquetSliceWorker.js');
}

type Event = FromSliceWorker | { failed: true };

/**
 * The slices of `columns` (undefined: all) of the file, as parquetSlices reads them, decoded on a thread of their own;
 * on this thread from the first slice the other did not deliver, when it fails.
 */
export async function* parquetSlicesOnThread(
  path: string,
  columns: string[] | undefined,
  sliceBytes = THREAD_SLICE_BYTES,
  workerFile = sliceWorkerFile(),
): AsyncGenerator<ColumnSlice> {
  let next = 0;
  let worker: Worker | undefined;
  try {
    const workerData: SliceWorkerData = { path, columns: columns ?? null, sliceBytes };
    worker = startWorker(workerFile, {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_OLD_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_MB },
    });
  } catch {
    worker = undefined;
  }
  if (worker) {
    const events: Event[] = [];
    let wake: (() => void) | undefined;
    const push = (e: Event) => {
      events.push(e);
      wake?.();
    };
    worker.on('message', (m: FromSliceWorker) => push(m));
    worker.on('error', () => push({ failed: true }));
    worker.on('exit', () => push({ failed: true }));
    // The thread keeps the process alive only while this thread waits for it.
    worker.unref();
    try {
      for (;;) {
        if (events.length === 0) {
          worker.ref();
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          worker.unref();
        }
        const event = events.shift() as Event;
        if ('done' in event) return;
        if ('failed' in event) break;
        // The next slice is decoded while this one is read.
        worker.postMessage({ more: true } satisfies ToSliceWorker);
        const slice = unpackSlice(event.slice);
        next = slice.start + slice.count;
        yield slice;
      }
    } finally {
      void worker.terminate();
    }
  }
  yield* parquetSlices(path, () => columns, sliceBytes, next);
}

/**
 * The slices of the columns `pickColumns` picks (parquetSlices), decoded on a thread of their own when they inflate
 * to more than THREAD_MIN_BYTES (parquetSlicesOnThread), else on this thread.
 */
export async function* parquetSlicesAhead(
  path: string,
  pickColumns?: (columns: string[]) => string[] | undefined,
): AsyncGenerator<ColumnSlice> {
  const { metadata } = await parquetFile(path);
  const columns = pickColumns?.(await parquetColumnNames(metadata));
  let inflated = 0;
  for (const group of metadata.row_groups)
    for (const c of group.columns)
      if (!columns || columns.includes(c.meta_data?.path_in_schema[0] ?? '')) inflated += Number(c.meta_data?.total_uncompressed_size ?? 0);
  if (inflated > THREAD_MIN_BYTES) yield* parquetSlicesOnThread(path, columns);
  else yield* parquetSlices(path, () => columns);
}
