/**
 * An Inspect log (inspectLogReader.ts) as a trace session's index: one entry per model event, a record or an error,
 * numbered by the event's ordinal as its "line". A log is one document, read whole when opened; it is not followed.
 * So `report` (and the editor) show an Inspect log's records as `analyze` does (the report said "0 records").
 */
import { itemsInLineOrder, type ReadResult, type TraceItem } from '../../core/trace/importers/importResult.ts';
import { readInspectLogFile } from './inspectLogReader.ts';
import type { RefreshResult } from './traceIndex.ts';

export class InspectLogIndex {
  private constructor(private readonly items: readonly TraceItem[]) {}

  /** The log's index, or null when the file is not an Inspect log (it is then read line by line). */
  static async open(path: string): Promise<InspectLogIndex | null> {
    const read = await readInspectLogFile(path);
    return read === null ? null : new InspectLogIndex(itemsInLineOrder(read));
  }

  get count(): number {
    return this.items.length;
  }

  line(i: number): number {
    const item = this.item(i);
    return item.kind === 'record' ? item.loaded.line : item.error.line;
  }

  read(i: number): Promise<ReadResult> {
    const item = this.item(i);
    return Promise.resolve(item.kind === 'record' ? { records: [item.loaded], errors: [] } : { records: [], errors: [item.error] });
  }

  refresh(): Promise<RefreshResult> {
    return Promise.resolve({ firstChanged: this.count, count: this.count, reset: false });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private item(i: number): TraceItem {
    const item = this.items[i];
    if (!item) throw new RangeError(`entry ${i} is not in the log (0..${this.count - 1})`);
    return item;
  }
}
