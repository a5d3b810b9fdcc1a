/**
 * The rows of a Parquet file, a slice of a row group at a time (hyparquet): what an exported table (Langfuse's default
 * export since July 2026, LangSmith's bulk export, a Phoenix spans dataframe) holds, as plain JSON-like objects. Only
 * one slice's rows are held at once (parquetSlices), so a file of any size, and a row group of any size, reads in
 * bounded memory. Values become
 * what a JSON export would hold: 64-bit integers numbers (text when unsafe), timestamps ISO text, bytes UTF-8 text.
 * Every codec Parquet names is read: uncompressed, Snappy, ZSTD, LZ4 (Hadoop's framing) and LZ4_RAW from
 * hyparquet-compressors (pure JS, its Snappy a WebAssembly module inlined in the package: nothing is fetched), gzip and
 * Brotli from Node's zlib; a page that does not inflate is an error naming the file. `line` is the row's 1-based
 * ordinal in the file (a table has no lines: docs/trace-format.md).
 */
import type { AsyncBuffer, ColumnData, Compressors, FileMetaData, SchemaTree } from 'hyparquet';

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

/**
 * Rows `start`…`start + count` of a Parquet file, decoded together (a slice of one row group: parquetSlices), as a
 * list of values per column (names: in the file's order).
 */
export interface ColumnSlice {
  /** 0-based row number of the slice's first row in the file. */
  start: number;
  count: number;
  names: string[];
  values: unknown[][];
}

/** A slice's rows as objects, their keys in the slice's column order. */
export function sliceRows({ count, names, values }: ColumnSlice): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c] as string] = (values[c] as unknown[])[i];
    rows[i] = row;
  }
  return rows;
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

/**
 * Rows `start`…`end` (0-based, end exclusive) as a list of values per column (hyparquet's column chunks, clipped to
 * the rows: a page that begins before `start` is decoded whole), cells converted as JSON holds them; `columns`: only
 * those (every column when undefined), in the file's order, as hyparquet's row objects hold them.
 */
export async function parquetColumnRange(
  file: AsyncBuffer,
  metadata: FileMetaData,
  start: number,
  end: number,
  columns?: string[],
): Promise<ColumnSlice> {
  const { parquetRead } = await import('hyparquet');
  const all = await parquetColumns(metadata);
  const read = columns ? all.filter((c) => columns.includes(c.name)) : all;
  const chunks = new Map<string, ColumnData[]>(read.map((c) => [c.name, []]));
  await parquetRead({
    file,
    metadata,
    rowStart: start,
    rowEnd: end,
    ...(columns ? { columns } : {}),
    compressors: await parquetCompressors(),
    onChunk: (chunk) => chunks.get(chunk.columnName)?.push(chunk),
  });
  const count = end - start;
  const values = read.map(({ name, plain }) => {
    const out: unknown[] = new Array(count);
    for (const { columnData, rowStart, rowEnd } of chunks.get(name) ?? []) {
      const last = Math.min(end, rowEnd);
      for (let r = Math.max(start, rowStart); r < last; r++) out[r - start] = columnData[r - rowStart];
    }
    // Text, booleans, doubles and 32-bit integers already are what JSON holds.
    if (!plain) for (let i = 0; i < count; i++) out[i] = jsonCell(out[i]);
    return out;
  });
  return { start, count, names: read.map((c) => c.name), values };
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

/** About how many bytes of inflated pages (of the columns read) one slice of a row group holds (see parquetSlices). */
export const SLICE_BYTES = 16 * 1024 * 1024;

/**
 * The file's AsyncBuffer with each byte range kept once read, until `clear`: the slices of one row group ask for the
 * same column chunks (hyparquet reads a chunk whole and skips the pages before a slice's first row without inflating
 * them), which are then read from the file once per row group, not once per slice.
 */
function rowGroupBuffer(file: AsyncBuffer): { buffer: AsyncBuffer; clear: () => void } {
  const kept = new Map<string, ReturnType<AsyncBuffer['slice']>>();
  const buffer: AsyncBuffer = {
    byteLength: file.byteLength,
    slice(start, end) {
      const key = `${start}:${end ?? ''}`;
      let got = kept.get(key);
      if (got === undefined) kept.set(key, (got = file.slice(start, end)));
      return got;
    },
  };
  return { buffer, clear: () => kept.clear() };
}

/**
 * A column chunk inflating to at most a slice's bytes / WHOLE_CHUNK_PART is decoded whole, once per row group:
 * hyparquet decodes a whole page to read a slice's rows from it, and such a chunk is one page or a few (ids,
 * timestamps, levels, a dictionary's indices), which every slice would otherwise decode again.
 */
const WHOLE_CHUNK_PART = 4;

/**
 * The rows of the columns `pickColumns` picks from the file's (every column when it is undefined or picks
 * undefined) in slices of about SLICE_BYTES of inflated pages, in file order: a row group of any size (ClickHouse, which writes Langfuse's Parquet exports, closes one at 128 MiB or a
 * million rows) is never decoded whole. Its large column chunks (the request and response text) are decoded a slice
 * of rows at a time — hyparquet skips the pages before a slice without inflating them — and its small ones whole
 * (WHOLE_CHUNK_PART), so memory is bounded by a slice's rows, the small columns' cells and the row group's
 * compressed chunks. A slice's rows are sized from the row group's column chunk metadata.
 */
export async function* parquetSlices(
  path: string,
  pickColumns?: (columns: string[]) => string[] | undefined,
  sliceBytes = SLICE_BYTES,
): AsyncGenerator<ColumnSlice> {
  const { file, metadata } = await parquetFile(path);
  const all = await parquetColumnNames(metadata);
  const columns = pickColumns?.(all);
  const names = all.filter((name) => !columns || columns.includes(name));
  const { buffer, clear } = rowGroupBuffer(file);
  let start = 0;
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    const inflated = new Map<string, number>();
    for (const c of group.columns) {
      const name = c.meta_data?.path_in_schema[0] ?? '';
      inflated.set(name, (inflated.get(name) ?? 0) + Number(c.meta_data?.total_uncompressed_size ?? 0));
    }
    const whole = names.filter((name) => (inflated.get(name) ?? 0) <= sliceBytes / WHOLE_CHUNK_PART);
    const sliced = names.filter((name) => (inflated.get(name) ?? 0) > sliceBytes / WHOLE_CHUNK_PART);
    const slicedBytes = sliced.reduce((sum, name) => sum + (inflated.get(name) ?? 0), 0);
    const step = Math.max(1, Math.min(rows, Math.floor((sliceBytes * rows) / Math.max(1, slicedBytes))));
    const wholeGroup = whole.length > 0 ? await parquetColumnRange(buffer, metadata, start, start + rows, whole) : null;
    for (let s = 0; s < rows; s += step) {
      const end = Math.min(rows, s + step);
      const part = sliced.length > 0 ? await parquetColumnRange(buffer, metadata, start + s, start + end, sliced) : null;
      const values = names.map((name) => {
        const w = wholeGroup?.names.indexOf(name) ?? -1;
        if (w >= 0) return (wholeGroup?.values[w] as unknown[]).slice(s, end);
        return part?.values[part.names.indexOf(name)] as unknown[];
      });
      yield { start: start + s, count: end - s, names, values };
    }
    clear();
    start += rows;
  }
}

/**
 * Every row of the file in order, a slice of a row group at a time (parquetSlices). `pickColumns`: given the file's
 * column names, the ones the caller reads (undefined: all); the others are never decoded, and a row holds only those.
 */
export async function* parquetRows(path: string, pickColumns?: (columns: string[]) => string[] | undefined): AsyncGenerator<TableRow> {
  for await (const slice of parquetSlices(path, pickColumns)) {
    const rows = sliceRows(slice);
    for (let i = 0; i < rows.length; i++) yield { line: slice.start + i + 1, row: rows[i] as Record<string, unknown> };
  }
}
