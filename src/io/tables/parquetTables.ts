/**
 * `analyze --parquet DIR`: the finding tables (core/tables/findingTables.ts) as DIR/records.parquet and
 * DIR/findings.parquet, written with hyparquet-writer (pure JavaScript, Snappy built in: the CLI and a
 * platform-neutral .vsix share it). Rows are written a row group at a time as they come, so memory holds one row
 * group per table, never the run; the groups fall every ROW_GROUP_ROWS rows whatever chunks the rows came in, so a
 * run gives the same bytes on one thread or many.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import {
  FINDING_COLUMNS,
  RECORD_COLUMNS,
  TABLES_SCHEMA_VERSION,
  rowCount,
  type Cell,
  type ColumnSpec,
  type Columns,
  type TableChunk,
} from '../../core/tables/findingTables.ts';

/** Rows per row group: big enough for engines to scan well, small enough to hold two in memory. */
export const ROW_GROUP_ROWS = 100_000;

/**
 * Min/max statistics, which let engines skip row groups, for the numbers and the strings queries filter on
 * (few distinct values); none for messages and ids, where they cost the writer a comparison per value for nothing.
 */
const FILTERED_STRINGS = new Set(['file', 'kind', 'code', 'severity', 'where', 'format', 'model', 'importer', 'meta_source', 'parser']);
const withStatistics = (c: ColumnSpec) => c.type !== 'STRING' || FILTERED_STRINGS.has(c.name);

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

function schemaOf(specs: readonly ColumnSpec[]): SchemaElement[] {
  return [
    { name: 'root', num_children: specs.length },
    ...specs.map((c): SchemaElement => ({
      name: c.name,
      ...(c.type === 'STRING' ? { type: 'BYTE_ARRAY', converted_type: 'UTF8' } : { type: 'INT32' }),
      repetition_type: c.nullable ? 'OPTIONAL' : 'REQUIRED',
    })),
  ];
}

/** One table's file, written a row group at a time. */
class TableFile {
  private readonly writer: ParquetWriter;
  /** The rows of the row group being gathered: per column, the chunks' arrays as they came. */
  private pending: Record<string, Cell[][]>;
  private pendingRows = 0;
  rows = 0;

  constructor(
    path: string,
    private readonly specs: readonly ColumnSpec[],
    toolVersion: string,
  ) {
    this.writer = new ParquetWriter({
      writer: fileWriter(path),
      schema: schemaOf(specs),
      kvMetadata: [{ key: 'toolscope.tables.version', value: String(TABLES_SCHEMA_VERSION) }],
      createdBy: `toolscope version ${toolVersion}`,
    });
    this.pending = Object.fromEntries(specs.map((c) => [c.name, []]));
  }

  append(columns: Columns): void {
    const n = rowCount(columns);
    for (let from = 0; from < n;) {
      const room = ROW_GROUP_ROWS - this.pendingRows;
      const to = Math.min(n, from + room);
      // Whole chunks are kept as they are (a row group is joined once, at its flush); a chunk that spans two groups is
      // sliced.
      for (const c of this.specs) {
        const source = columns[c.name] as Cell[];
        (this.pending[c.name] as Cell[][]).push(from === 0 && to === n ? source : source.slice(from, to));
      }
      this.pendingRows += to - from;
      this.rows += to - from;
      from = to;
      if (this.pendingRows >= ROW_GROUP_ROWS) this.flush();
    }
  }

  private flush(): void {
    const n = this.pendingRows;
    if (n === 0) return;
    // The writer awaits nothing here: its file writer is synchronous.
    void this.writer.write({
      columnData: this.specs.map((c) => {
        const parts = this.pending[c.name] as Cell[][];
        return {
          name: c.name,
          data: parts.length === 1 ? (parts[0] as Cell[]) : ([] as Cell[]).concat(...parts),
          statistics: withStatistics(c),
        };
      }),
      rowGroupSize: n,
    });
    this.pending = Object.fromEntries(this.specs.map((c) => [c.name, []]));
    this.pendingRows = 0;
  }

  finish(): void {
    this.flush();
    void this.writer.finish();
  }
}

/** What `close` reports: rows written to each file. */
export interface TablesWritten {
  dir: string;
  records: number;
  findings: number;
  /** Time spent writing (encoding, compressing, file writes), in ms. */
  writerMs: number;
}

/** records.parquet and findings.parquet in one folder (created if missing; files of the same name are replaced). */
export class ParquetTables {
  private constructor(
    private readonly dir: string,
    private readonly records: TableFile,
    private readonly findings: TableFile,
  ) {}

  static async create(dir: string, toolVersion: string): Promise<ParquetTables> {
    await mkdir(dir, { recursive: true });
    return new ParquetTables(
      dir,
      new TableFile(join(dir, 'records.parquet'), RECORD_COLUMNS, toolVersion),
      new TableFile(join(dir, 'findings.parquet'), FINDING_COLUMNS, toolVersion),
    );
  }

  private writerMs = 0;

  append(chunk: TableChunk): void {
    const t = performance.now();
    this.records.append(chunk.records);
    this.findings.append(chunk.findings);
    this.writerMs += performance.now() - t;
  }

  close(): TablesWritten {
    const t = performance.now();
    this.records.finish();
    this.findings.finish();
    this.writerMs += performance.now() - t;
    return { dir: this.dir, records: this.records.rows, findings: this.findings.rows, writerMs: this.writerMs };
  }
}
