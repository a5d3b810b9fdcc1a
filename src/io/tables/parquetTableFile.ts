/**
 * One finding table as a Parquet file (records.parquet or findings.parquet), written with hyparquet-writer (pure
 * JavaScript, Snappy built in: the CLI and a platform-neutral .vsix share it) a row group at a time as rows come.
 * A row group ends once its rows hold ROW_GROUP_BYTES of values (or ROW_GROUP_ROWS rows), counted row by row
 * whatever chunks the rows came in: a run gives the same bytes on one thread or many. Groups of about a megabyte,
 * not 100,000 rows: the run's tables are then encoded while the records are analysed (parquetTables.ts), and the
 * last, partial group is all that is left to encode at the end.
 */
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { TABLES_SCHEMA_VERSION, rowCount, type Cell, type ColumnSpec, type Columns } from '../../core/tables/findingTables.ts';

/**
 * Values per row group, in bytes as the writer counts them before encoding (a string's length, 4 per int32, nothing
 * for null): ~13,000 rows of records.parquet, ~6,000 of findings.parquet. Engines read such groups well (DuckDB
 * writes 122,880 rows and reads from 2,048 up; a group's footer entry is ~3 KB beside a megabyte).
 */
export const ROW_GROUP_BYTES = 1 << 20;

/** Rows per row group at most, however small the rows. */
export const ROW_GROUP_ROWS = 100_000;

/**
 * Min/max statistics, which let engines skip row groups, for the numbers and the strings queries filter on
 * (few distinct values); none for messages and ids, where they cost the writer a comparison per value for nothing.
 */
const FILTERED_STRINGS = new Set(['file', 'kind', 'code', 'severity', 'where', 'format', 'model', 'importer', 'meta_source', 'parser']);
const withStatistics = (c: ColumnSpec) => c.type !== 'STRING' || FILTERED_STRINGS.has(c.name);

/**
 * Line numbers rise by one or a few from row to row within a file: delta encoding stores them in a few bits each
 * (plain, then Snappy, kept ~3 bytes a row in groups of a megabyte; the bench corpus's records.parquet went from 0.74
 * to 0.32 MB, for the same CPU).
 */
const DELTA_ENCODED = new Set(['line', 'last_line']);

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

/** What a value counts towards its row group (hyparquet-writer's own estimate of a value's size). */
const cellBytes = (v: Cell) => (typeof v === 'string' ? v.length : v === null ? 0 : 4);

export class ParquetTableFile {
  private readonly writer: ParquetWriter;
  /** The rows of the row group being gathered: per column, the chunks' arrays as they came. */
  private pending: Cell[][][];
  private pendingRows = 0;
  private pendingBytes = 0;
  rows = 0;

  constructor(
    path: string,
    private readonly specs: readonly ColumnSpec[],
    toolVersion: string,
    private readonly groupBytes = ROW_GROUP_BYTES,
  ) {
    this.writer = new ParquetWriter({
      writer: fileWriter(path),
      schema: schemaOf(specs),
      kvMetadata: [{ key: 'toolscope.tables.version', value: String(TABLES_SCHEMA_VERSION) }],
      createdBy: `toolscope version ${toolVersion}`,
    });
    this.pending = specs.map(() => []);
  }

  append(columns: Columns): void {
    const n = rowCount(columns);
    const sources = this.specs.map((c) => columns[c.name] as Cell[]);
    let from = 0;
    for (let row = 0; row < n; row++) {
      for (const source of sources) this.pendingBytes += cellBytes(source[row] as Cell);
      if (this.pendingBytes >= this.groupBytes || this.pendingRows + row + 1 - from >= ROW_GROUP_ROWS) {
        this.take(sources, from, row + 1, n);
        from = row + 1;
        this.flush();
      }
    }
    if (from < n) this.take(sources, from, n, n);
  }

  /** Rows `from` to `to` of a chunk of `n` into the pending group: a whole chunk as it is, part of one sliced. */
  private take(sources: Cell[][], from: number, to: number, n: number): void {
    sources.forEach((source, i) => (this.pending[i] as Cell[][]).push(from === 0 && to === n ? source : source.slice(from, to)));
    this.pendingRows += to - from;
    this.rows += to - from;
  }

  private flush(): void {
    const n = this.pendingRows;
    if (n === 0) return;
    // The writer awaits nothing here: its file writer is synchronous.
    void this.writer.write({
      columnData: this.specs.map((c, i) => {
        const parts = this.pending[i] as Cell[][];
        return {
          name: c.name,
          data: parts.length === 1 ? (parts[0] as Cell[]) : ([] as Cell[]).concat(...parts),
          statistics: withStatistics(c),
          ...(DELTA_ENCODED.has(c.name) ? { encoding: 'DELTA_BINARY_PACKED' as const } : {}),
        };
      }),
      rowGroupSize: n,
    });
    this.pending = this.specs.map(() => []);
    this.pendingRows = 0;
    this.pendingBytes = 0;
  }

  finish(): void {
    this.flush();
    void this.writer.finish();
  }
}
