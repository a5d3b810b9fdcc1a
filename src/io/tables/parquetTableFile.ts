/**
 * One finding table as a Parquet file (records.parquet or findings.parquet), written with hyparquet-writer (pure
 * JavaScript, Snappy built in: the CLI and a platform-neutral .vsix share it) a row group at a time as rows come.
 * A row group ends once its rows hold ROW_GROUP_BYTES of values (or ROW_GROUP_ROWS rows), counted row by row
 * whatever chunks the rows came in: a run gives the same bytes on one thread or many. Groups of about a megabyte,
 * not 100,000 rows: the run's tables are then encoded while the records are analysed (parquetTables.ts), and the
 * last, partial group is all that is left to encode at the end.
 */
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { TABLES_SCHEMA_VERSION, unpackInto, type Cell, type ColumnSpec, type PackedTable } from '../../core/tables/findingTables.ts';

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

/**
 * What each row of a packed table counts towards its row group: per value, hyparquet-writer's own estimate of its
 * size (a string's length, 4 per int32, nothing for null), summed column by column (a string's length is looked up
 * once per distinct string).
 */
function rowBytes(table: PackedTable): Float64Array {
  const bytes = new Float64Array(table.rows);
  for (const column of table.columns) {
    if ('codes' in column) {
      const lengths = column.strings.map((s) => s.length);
      const { codes } = column;
      for (let row = 0; row < codes.length; row++) {
        const code = codes[row] as number;
        if (code >= 0) bytes[row] = (bytes[row] as number) + (lengths[code] as number);
      }
    } else {
      const { numbers } = column;
      for (let row = 0; row < numbers.length; row++) if (numbers[row] === numbers[row]) bytes[row] = (bytes[row] as number) + 4;
    }
  }
  return bytes;
}

/** Rows `from` to `to` of a table, waiting in the row group being gathered. */
interface Segment {
  table: PackedTable;
  from: number;
  to: number;
}

export class ParquetTableFile {
  private readonly writer: ParquetWriter;
  /** The rows of the row group being gathered: segments of the tables as they came. */
  private pending: Segment[] = [];
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
  }

  append(table: PackedTable): void {
    const n = table.rows;
    const bytes = rowBytes(table);
    let from = 0;
    for (let row = 0; row < n; row++) {
      this.pendingBytes += bytes[row] as number;
      if (this.pendingBytes >= this.groupBytes || this.pendingRows + row + 1 - from >= ROW_GROUP_ROWS) {
        this.take(table, from, row + 1);
        from = row + 1;
        this.flush();
      }
    }
    if (from < n) this.take(table, from, n);
  }

  private take(table: PackedTable, from: number, to: number): void {
    this.pending.push({ table, from, to });
    this.pendingRows += to - from;
    this.rows += to - from;
  }

  private flush(): void {
    const n = this.pendingRows;
    if (n === 0) return;
    // The writer awaits nothing here: its file writer is synchronous.
    void this.writer.write({
      columnData: this.specs.map((c, i) => {
        const data = new Array<Cell>(n);
        let at = 0;
        for (const { table, from, to } of this.pending) {
          unpackInto(table.columns[i] as PackedTable['columns'][number], from, to, data, at);
          at += to - from;
        }
        return {
          name: c.name,
          data,
          statistics: withStatistics(c),
          ...(DELTA_ENCODED.has(c.name) ? { encoding: 'DELTA_BINARY_PACKED' as const } : {}),
        };
      }),
      rowGroupSize: n,
    });
    this.pending = [];
    this.pendingRows = 0;
    this.pendingBytes = 0;
  }

  finish(): void {
    this.flush();
    void this.writer.finish();
  }
}
