/**
 * A table trace (Parquet, CSV: tableTrace.ts) as a trace session's index, for the editor and `report`: one entry per
 * model call or row error, numbered by the row's `line`. A table is not read by byte offset, so its entries are held
 * in memory, at most MAX_TABLE_ENTRIES of them (a bound on the extension host's memory: a row holds a whole
 * request); a larger table shows its first entries and one error saying where it stopped — `toolscope analyze`
 * reads every row. Like an Inspect log it is read once when opened, not followed.
 */
import { itemsInLineOrder, type TraceItem } from '../../core/trace/importers/importResult.ts';
import { HeldItemsIndex } from './heldItemsIndex.ts';
import { readTableItems, tableFileKind } from './tableTrace.ts';

export const MAX_TABLE_ENTRIES = 20_000;

export class TableIndex extends HeldItemsIndex {
  private constructor(items: readonly TraceItem[]) {
    super(items, 'the table');
  }

  /** The table's index, or null when the file is no table (by its name: .parquet, .csv). */
  static async open(path: string, maxEntries = MAX_TABLE_ENTRIES): Promise<TableIndex | null> {
    const kind = tableFileKind(path);
    if (kind === null) return null;
    const items: TraceItem[] = [];
    for await (const item of readTableItems(path, kind)) {
      if (items.length >= maxEntries) {
        const line = item.kind === 'record' ? item.loaded.line : item.error.line;
        items.push({
          kind: 'error',
          error: {
            line,
            message: `line ${line}: the editor holds the first ${maxEntries} model calls of a table; this row and the ones after it are not shown (toolscope analyze reads them all)`,
          },
        });
        break;
      }
      items.push(item);
    }
    return new TableIndex(
      itemsInLineOrder({
        records: items.flatMap((i) => (i.kind === 'record' ? [i.loaded] : [])),
        errors: items.flatMap((i) => (i.kind === 'error' ? [i.error] : [])),
      }),
    );
  }
}
