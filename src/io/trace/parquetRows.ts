/**
 * The rows of a Parquet file, one row group at a time (hyparquet): what an exported table (Langfuse's default export
 * since July 2026, LangSmith's bulk export, a Phoenix spans dataframe) holds, as plain JSON-like objects. Only one row
 * group's rows are held at once, so a file of any size reads in the memory of its largest row group. Values become
 * what a JSON export would hold: 64-bit integers numbers (text when unsafe), timestamps ISO text, bytes UTF-8 text.
 * Every codec Parquet names is read: uncompressed, Snappy, ZSTD, LZ4 (Hadoop's framing) and LZ4_RAW from
 * hyparquet-compressors (pure JS, its Snappy a WebAssembly module inlined in the package: nothing is fetched), gzip and
 * Brotli from Node's zlib; a page that does not inflate is an error naming the file. `line` is the row's 1-based
 * ordinal in the file (a table has no lines: docs/trace-format.md).
 */
import type { AsyncBuffer, Compressors, FileMetaData, SchemaTree } from 'hyparquet';

export interface TableRow {
  /** 1-based row number in the file (for Parquet) or the line the row starts on (for CSV). */
  line: number;
  row: Record<string, unknown>;
}

let compressors: Compressors | undefined;

/** hyparquet-compressors' codecs, loaded with the first Parquet file read; zlib's native gzip and Brotli over theirs. */
async function parquetCompressors(): Promise<Compressors> {
  if (!compressors) {
    const { compressors: all } = await import('hyparquet-compressors');
    // zlib loaded here, with the first Parquet file, not when the trace readers load (every `analyze` start).
    const { brotliDecompressSync, gunzipSync } = process.getBuiltinModule('node:zlib');
    compressors = {
      ...all,
      GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)),
      BROTLI: (input: Uint8Array) => new Uint8Array(brotliDecompressSync(input)),
    };
  }
  return compressors;
}

/** A cell as JSON would hold it. */
export function jsonCell(value: unknown): unknown {
  // Most cells are text: returned before the checks for what needs converting.
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  if (Array.isArray(value)) return value.map(jsonCell);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = jsonCell(v);
    return out;
  }
  return value;
}

export async function parquetFile(path: string): Promise<{ file: AsyncBuffer; metadata: FileMetaData }> {
  const { asyncBufferFromFile, parquetMetadataAsync } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  return { file, metadata: await parquetMetadataAsync(file) };
}

/** Rows `start`…`end` (0-based, end exclusive) as objects; `columns`: only those (every column when undefined). */
export async function parquetRowRange(
  file: AsyncBuffer,
  metadata: FileMetaData,
  start: number,
  end: number,
  columns?: string[],
): Promise<Record<string, unknown>[]> {
  const { parquetReadObjects } = await import('hyparquet');
  const rows = await parquetReadObjects({
    file,
    metadata,
    rowStart: start,
    rowEnd: end,
    ...(columns ? { columns } : {}),
    compressors: await parquetCompressors(),
  });
  // The rows are hyparquet's fresh objects: their cells are converted in place rather than copied, and only in the
  // columns whose cells may need it (text, booleans, doubles and 32-bit integers already are what JSON holds).
  const converted = (await parquetColumns(metadata)).filter((c) => !c.plain && (!columns || columns.includes(c.name))).map((c) => c.name);
  if (converted.length > 0) for (const row of rows) for (const key of converted) if (key in row) row[key] = jsonCell(row[key]);
  return rows;
}

/** Whether hyparquet reads a column's cells as JSON holds them already (no jsonCell needed). */
function plainColumn(column: SchemaTree): boolean {
  const { type, converted_type: converted, logical_type: logical } = column.element;
  if (column.children.length > 0) return false;
  if (type === 'BOOLEAN' || type === 'FLOAT' || type === 'DOUBLE') return true;
  if (type === 'INT32') return converted === undefined && logical === undefined;
  // Text (hyparquet decodes UTF-8), and JSON (JSON.parse's values).
  if (type === 'BYTE_ARRAY') return converted === 'UTF8' || converted === 'JSON' || logical?.type === 'STRING' || logical?.type === 'JSON';
  return false;
}

/** The file's top-level columns: name, and whether its cells need no conversion. */
async function parquetColumns(metadata: FileMetaData): Promise<{ name: string; plain: boolean }[]> {
  const { parquetSchema } = await import('hyparquet');
  return parquetSchema(metadata).children.map((c) => ({ name: c.element.name, plain: plainColumn(c) }));
}

/** The file's top-level column names, in the file's order. */
export async function parquetColumnNames(metadata: FileMetaData): Promise<string[]> {
  return (await parquetColumns(metadata)).map((c) => c.name);
}

/**
 * Every row of the file in order, a row group at a time. `pickColumns`: given the file's column names, the ones the
 * caller reads (undefined: all); the others are never decoded, and a row holds only those.
 */
export async function* parquetRows(path: string, pickColumns?: (columns: string[]) => string[] | undefined): AsyncGenerator<TableRow> {
  const { file, metadata } = await parquetFile(path);
  const columns = pickColumns?.(await parquetColumnNames(metadata));
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    const rows = await parquetRowRange(file, metadata, start, end, columns);
    for (let i = 0; i < rows.length; i++) yield { line: start + i + 1, row: rows[i] as Record<string, unknown> };
    start = end;
  }
}
