/**
 * One range of a big file's entries (traceRanges.ts), under the numbers the entries have in the whole file: a
 * report's worker builds the range's part of the report from it as a trace session does from the whole file's
 * TraceIndex, so the keys, entries and line numbers are the whole file's. The range's bytes are read once, when it
 * is opened (a range is at most a few MB): a session reads each entry twice (its row, then its view), and one
 * read per entry kept each worker waiting on the file system about a quarter of its time. It does not follow the file.
 */
import { open } from 'node:fs/promises';
import type { ReadResult } from '../../core/trace/importers/importResult.ts';
import { importEntryBytes, readFully, shrunk, type RefreshResult, type TraceEntry } from './traceIndex.ts';
import type { TraceRange } from './traceRanges.ts';

export class RangeIndex {
  private constructor(
    private readonly entries: readonly TraceEntry[],
    /** The range's bytes from its first entry's start, as far as the file still held them. */
    private readonly bytes: Buffer,
    /** The whole file's number of the range's first entry. */
    readonly first: number,
  ) {}

  static async open(range: TraceRange): Promise<RangeIndex> {
    const start = range.entries[0]?.start ?? 0;
    const end = range.entries.at(-1)?.end ?? start;
    const bytes = Buffer.allocUnsafe(end - start);
    const handle = await open(range.path, 'r');
    try {
      const got = await readFully(handle, bytes, start);
      return new RangeIndex(range.entries, bytes.subarray(0, got), range.entries[0]?.index ?? 0);
    } finally {
      await handle.close();
    }
  }

  /** One past the range's last entry (entries before `first` are not in the range). */
  get count(): number {
    return this.first + this.entries.length;
  }

  line(i: number): number {
    return this.entry(i).line;
  }

  read(i: number): Promise<ReadResult> {
    const entry = this.entry(i);
    const from = entry.start - (this.entries[0] as TraceEntry).start;
    const to = entry.end - (this.entries[0] as TraceEntry).start;
    // The file no longer holds all of the entry (it shrank after it was indexed).
    if (to > this.bytes.length) return Promise.resolve(shrunk(entry));
    return Promise.resolve(importEntryBytes(this.bytes.subarray(from, to), entry));
  }

  /** The range is what was indexed when it was cut: nothing changes. */
  refresh(): Promise<RefreshResult> {
    return Promise.resolve({ firstChanged: this.count, count: this.count, reset: false });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private entry(i: number): TraceEntry {
    const entry = this.entries[i - this.first];
    if (!entry) throw new RangeError(`entry ${i} is not in the range (${this.first}..${this.count - 1})`);
    return entry;
  }
}
