/**
 * One big trace file cut into ranges of whole entries, so that its records can be analysed on several threads: the
 * file is indexed once where the work is planned (traceIndex.ts), each range carries its entries (byte offsets,
 * line numbers, kinds) as plain data, and whoever analyses a range reads and imports only those. A cut falls between
 * entries, never inside one, so a multi-line record or an SSE block stays whole, and reading the ranges one after
 * another gives exactly the records and errors — with the same line numbers — that reading the whole file gives.
 */
import { open } from 'node:fs/promises';
import type { TraceItem } from '../../core/trace/importers/importResult.ts';
import { BATCH_BYTES, TraceIndex, batchItems, readFully, type TraceEntry } from './traceIndex.ts';

/** Consecutive entries of one file (plain data: it crosses threads). */
export interface TraceRange {
  path: string;
  entries: TraceEntry[];
  /** The range's share of the file, in bytes (blank lines between entries included): the ranges add up to the file. */
  bytes: number;
}

/** Bytes indexed at a time: the first ranges go out while the rest of the file is being indexed. */
const INDEX_STEP = 16 * 1024 * 1024;

/**
 * The first `size` bytes of the file at `path` in consecutive ranges of about `targetBytes` each (an entry larger
 * than that is a range of its own). The file is indexed INDEX_STEP bytes at a time, the next step while the ranges
 * of the last one are taken, so the first range is ready long before a big file is indexed; a range is made only
 * once its entries are final, so the ranges are those of the file indexed at once.
 */
export async function* indexedRanges(path: string, size: number, targetBytes: number, step = INDEX_STEP): AsyncGenerator<TraceRange> {
  const index = await TraceIndex.open(path, { limit: step });
  let scanning: Promise<void> | null = null;
  try {
    let from = 0;
    let rangeStart = 0;
    let before = -1;
    for (;;) {
      const indexed = index.size;
      // Indexed as far as planned, or the last step found the file's end early (it shrank): every entry is final.
      const done = indexed >= size || indexed === before;
      before = indexed;
      const final = done ? index.count : Math.max(0, index.count - 2);
      // The entries before `final` no longer change while the next step is indexed.
      scanning = done ? null : index.indexTo(Math.min(size, indexed + step));
      // Handled now, thrown where it is awaited: a read that fails while a range is out must not go unhandled.
      scanning?.catch(() => undefined);
      while (from < final) {
        const base = index.byteRange(from).start;
        let to = from + 1;
        while (to < final && index.byteRange(to).end - base <= targetBytes) to++;
        // Still room in this range, and more entries may come to fill it.
        if (to === final && !done) break;
        const entries: TraceEntry[] = [];
        for (let i = from; i < to; i++) entries.push(index.entry(i));
        const rangeEnd = to < index.count ? index.byteRange(to).start : indexed;
        yield { path, entries, bytes: rangeEnd - rangeStart };
        from = to;
        rangeStart = rangeEnd;
      }
      if (done) return;
      await scanning;
    }
  } finally {
    await scanning?.catch(() => undefined);
    await index.close();
  }
}

/** The records and errors of a range in file order, read in batches of up to BATCH_BYTES. */
export async function* readTraceRange(range: TraceRange): AsyncGenerator<TraceItem> {
  const { entries } = range;
  const handle = await open(range.path, 'r');
  try {
    for (let i = 0; i < entries.length;) {
      const first = entries[i] as TraceEntry;
      let j = i + 1;
      while (j < entries.length && (entries[j] as TraceEntry).end - first.start <= BATCH_BYTES) j++;
      const bytes = Buffer.allocUnsafe((entries[j - 1] as TraceEntry).end - first.start);
      const got = await readFully(handle, bytes, first.start);
      yield* batchItems({ entries: entries.slice(i, j), bytes, got });
      i = j;
    }
  } finally {
    await handle.close();
  }
}

/** Part of a file by byte offset: the entries that start at or after `start` and before `end` (`analyze --shard`). */
export interface ByteWindow {
  start: number;
  end: number;
}

/**
 * `indexedRanges` kept to the entries that start inside `window`: whoever holds the window gets each of those
 * entries once, whole, and no other (an entry belongs to the window its first byte is in). Indexing stops at the
 * window's end. A range's `bytes` count only its entries that are kept.
 */
export async function* windowRanges(path: string, size: number, targetBytes: number, window: ByteWindow): AsyncGenerator<TraceRange> {
  for await (const range of indexedRanges(path, size, targetBytes)) {
    const entries = range.entries.filter((e) => e.start >= window.start && e.start < window.end);
    if (entries.length === range.entries.length) yield range;
    else if (entries.length > 0) yield { path, entries, bytes: entries.reduce((n, e) => n + e.end - e.start, 0) };
    if ((range.entries.at(-1)?.start ?? 0) >= window.end) return;
  }
}
