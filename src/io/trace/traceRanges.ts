/**
 * One big trace file cut into ranges of whole entries, so that its records can be analysed on several threads: the
 * file is indexed once where the work is planned (traceIndex.ts), each range carries its entries (byte offsets,
 * line numbers, kinds) as plain data, and whoever analyses a range reads and imports only those. A cut falls between
 * entries, never inside one, so a multi-line record or an SSE block stays whole, and reading the ranges one after
 * another gives exactly the records and errors — with the same line numbers — that reading the whole file gives.
 */
import { open } from 'node:fs/promises';
import { itemsInLineOrder, type TraceItem } from '../../core/trace/importers/importResult.ts';
import { BATCH_BYTES, importEntryBytes, readFully, shrunk, type TraceEntry, type TraceIndex } from './traceIndex.ts';

/** Consecutive entries of one file (plain data: it crosses threads). */
export interface TraceRange {
  path: string;
  entries: TraceEntry[];
  /** The range's share of the file, in bytes (blank lines between entries included): the ranges add up to the file. */
  bytes: number;
}

/**
 * The index's entries in consecutive ranges of about `targetBytes` each (an entry larger than that is a range of
 * its own); made one at a time, so only the ranges in use are held as objects.
 */
export function* cutRanges(index: TraceIndex, targetBytes: number): Generator<TraceRange> {
  let from = 0;
  let rangeStart = 0;
  while (from < index.count) {
    const base = index.byteRange(from).start;
    let to = from + 1;
    while (to < index.count && index.byteRange(to).end - base <= targetBytes) to++;
    const entries: TraceEntry[] = [];
    for (let i = from; i < to; i++) entries.push(index.entry(i));
    const rangeEnd = to < index.count ? index.byteRange(to).start : index.size;
    yield { path: index.path, entries, bytes: rangeEnd - rangeStart };
    from = to;
    rangeStart = rangeEnd;
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
      for (let k = i; k < j; k++) {
        const e = entries[k] as TraceEntry;
        const base = e.start - first.start;
        yield* itemsInLineOrder(e.end - first.start > got ? shrunk(e) : importEntryBytes(bytes.subarray(base, e.end - first.start), e));
      }
      i = j;
    }
  } finally {
    await handle.close();
  }
}
