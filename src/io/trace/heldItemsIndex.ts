/**
 * A trace read whole when opened, as a trace session's index: its entries (records and errors, in line order) held
 * in memory, nothing followed afterwards. Inspect logs (inspectLogIndex.ts) and tables (tableIndex.ts) are such
 * traces; a JSON Lines trace is read by byte offset instead (traceIndex.ts).
 */
import type { ReadResult, TraceItem } from '../../core/trace/importers/importResult.ts';
import type { RefreshResult } from './traceIndex.ts';

export class HeldItemsIndex {
  /** `what`: the trace in the words of the out-of-range error ("the log", "the table"). */
  protected constructor(
    private readonly items: readonly TraceItem[],
    private readonly what: string,
  ) {}

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
    if (!item) throw new RangeError(`entry ${i} is not in ${this.what} (0..${this.count - 1})`);
    return item;
  }
}
