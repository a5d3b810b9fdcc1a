/**
 * An Inspect log (inspectLogReader.ts) as a trace session's index: one entry per model event, a record or an error,
 * numbered by the event's ordinal as its "line". A log is one document, read whole when opened; it is not followed.
 * So `report` (and the editor) show an Inspect log's records as `analyze` does (the report said "0 records").
 */
import { itemsInLineOrder, type TraceItem } from '../../core/trace/importers/importResult.ts';
import { HeldItemsIndex } from './heldItemsIndex.ts';
import { readInspectLogFile } from './inspectLogReader.ts';

export class InspectLogIndex extends HeldItemsIndex {
  private constructor(items: readonly TraceItem[]) {
    super(items, 'the log');
  }

  /** The log's index, or null when the file is not an Inspect log (it is then read line by line). */
  static async open(path: string): Promise<InspectLogIndex | null> {
    const read = await readInspectLogFile(path);
    return read === null ? null : new InspectLogIndex(itemsInLineOrder(read));
  }
}
