/**
 * One range of a big file's entries (traceRanges.ts) read entry by entry, under the numbers the entries have in the
 * whole file: a report's worker builds the range's part of the report from it as a trace session does from the
 * whole file's TraceIndex, so the keys, entries and line numbers are the whole file's. It does not follow the file.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { ReadResult } from '../../core/trace/importers/importResult.ts';
import { readEntry, type RefreshResult, type TraceEntry } from './traceIndex.ts';
import type { TraceRange } from './traceRanges.ts';

export class RangeIndex {
  private constructor(
    private readonly handle: FileHandle,
    private readonly entries: readonly TraceEntry[],
    /** The whole file's number of the range's first entry. */
    readonly first: number,
  ) {}

  static async open(range: TraceRange): Promise<RangeIndex> {
    return new RangeIndex(await open(range.path, 'r'), range.entries, range.entries[0]?.index ?? 0);
  }

  /** One past the range's last entry (entries before `first` are not in the range). */
  get count(): number {
    return this.first + this.entries.length;
  }

  line(i: number): number {
    return this.entry(i).line;
  }

  read(i: number): Promise<ReadResult> {
    return readEntry(this.handle, this.entry(i));
  }

  /** The range is what was indexed when it was cut: nothing changes. */
  refresh(): Promise<RefreshResult> {
    return Promise.resolve({ firstChanged: this.count, count: this.count, reset: false });
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  private entry(i: number): TraceEntry {
    const entry = this.entries[i - this.first];
    if (!entry) throw new RangeError(`entry ${i} is not in the range (${this.first}..${this.count - 1})`);
    return entry;
  }
}
