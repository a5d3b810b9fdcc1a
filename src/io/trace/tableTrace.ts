/**
 * Traces that are tables, not lines: Parquet and CSV exports (Langfuse observations, LangSmith runs, Phoenix spans),
 * read row by row through the same importers as their JSONL lines (core/trace/importers/exportRow.ts). A row that
 * is no model call yields nothing; a row that cannot be read is an error on its `line` (Parquet: the row's 1-based
 * ordinal; CSV: the line it starts on); a table none of whose shapes Toolscope knows is one error, on line 1.
 */
import { guardedEntry } from '../../core/trace/importers/entryGuard.ts';
import { exportRowColumns, importExportRow } from '../../core/trace/importers/exportRow.ts';
import type { TraceItem } from '../../core/trace/importers/importResult.ts';
import { listKeys } from '../../core/trace/importers/jsonGuards.ts';
import { csvRows } from './csvRows.ts';
import { parquetRows, type TableRow } from './parquetRows.ts';

export type TableKind = 'parquet' | 'csv';

export function tableFileKind(path: string): TableKind | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.parquet')) return 'parquet';
  if (lower.endsWith('.csv')) return 'csv';
  return null;
}

export function mayBeTableFile(path: string): boolean {
  return tableFileKind(path) !== null;
}

const EXPECTED = 'a Langfuse observations export, LangSmith runs or Phoenix spans';

/** Every record and error of a table file, in row order. */
export async function* readTableItems(path: string, kind: TableKind): AsyncGenerator<TraceItem> {
  // Parquet is read by column: a Langfuse table's columns its importer never reads are not decoded.
  const rows: AsyncGenerator<TableRow> = kind === 'parquet' ? parquetRows(path, exportRowColumns) : csvRows(path);
  let recognised = false;
  try {
    for await (const { line, row } of rows) {
      const result = guardedEntry(line, () => {
        const read = importExportRow(row, line);
        if (read !== null) return read;
        const message = `line ${line}: not a row of ${EXPECTED} (columns: ${listKeys(row)})`;
        return { records: [], errors: [{ line, message }] };
      });
      const known = result.records.length > 0 || !result.errors.some((e) => e.message.includes('(columns: '));
      if (!recognised && !known) {
        // The first row already is no export we know: one error for the table, not one per row.
        yield {
          kind: 'error',
          error: { line, message: `${kind === 'parquet' ? 'Parquet' : 'CSV'} file: ${result.errors[0]?.message ?? ''}` },
        };
        return;
      }
      recognised = true;
      for (const loaded of result.records) yield { kind: 'record', loaded };
      for (const error of result.errors) yield { kind: 'error', error };
    }
  } catch (err) {
    yield {
      kind: 'error',
      error: {
        line: 1,
        message: `${kind === 'parquet' ? 'Parquet' : 'CSV'} file cannot be read: ${err instanceof Error ? err.message : String(err)}`,
      },
    };
  }
}
