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
 * A nested column chunk (a list, a map) inflating to at most a slice's bytes / WHOLE_CHUNK_PART is decoded whole,
 * once per row group: hyparquet decodes a whole page to read a slice's rows from it, and such a chunk is one page or
 * a few, which every slice would otherwise decode again.
 */
const WHOLE_CHUNK_PART = 4;

/** Whether a top-level column holds one value a row, no lists: its pages can be read one at a time (PageCursor). */
function isFlat(column: SchemaTree): boolean {
  return column.children.length === 0 && column.element.repetition_type !== 'REPEATED';
}

type HyparquetColumn = typeof import('hyparquet/src/column.js');
type ColumnDecoder = Parameters<HyparquetColumn['readPage']>[2];
type DecodedArray = NonNullable<Parameters<HyparquetColumn['readPage']>[3]>;

/**
 * One flat column of a row group read a page at a time, each page inflated and decoded once: its values for rows
 * `start`…`end` of the group (0-based), the page last decoded. `next` decodes the following page.
 */
class PageCursor {
  start = 0;
  end = 0;
  values: unknown[] = [];
  private dictionary: DecodedArray | undefined;
  private readonly reader: { view: DataView; offset: number };

  constructor(
    private readonly hyparquet: HyparquetColumn,
    private readonly convert: (data: DecodedArray, decoder: ColumnDecoder) => DecodedArray,
    private readonly decoder: ColumnDecoder,
    chunk: ArrayBuffer,
    private readonly plain: boolean,
  ) {
    this.reader = { view: new DataView(chunk), offset: 0 };
  }

  /** The next data page's values (a dictionary page before it kept for the pages after); false past the chunk's end. */
  next(): boolean {
    const { reader, decoder, hyparquet } = this;
    while (reader.offset < reader.view.byteLength - 1) {
      const header = hyparquet.parquetHeader(reader);
      if (header.type === 'DICTIONARY_PAGE') {
        const { data } = hyparquet.readPage(reader, header, decoder, undefined, undefined, 0);
        if (data) this.dictionary = this.convert(data, decoder);
        continue;
      }
      const { data } = hyparquet.readPage(reader, header, decoder, this.dictionary, undefined, 0);
      if (!data || data.length === 0) continue;
      const values: unknown[] = Array.isArray(data) ? (data as unknown[]) : Array.from(data as ArrayLike<unknown>);
      if (!this.plain) for (let i = 0; i < values.length; i++) values[i] = jsonCell(values[i]);
      this.values = values;
      this.start = this.end;
      this.end += values.length;
      return true;
    }
    return false;
  }
}

/** What pagedRowGroup reads a file's row groups with (parquetSlices). */
interface PagedFile {
  hyparquet: HyparquetColumn;
  convert: (data: DecodedArray, decoder: ColumnDecoder) => DecodedArray;
  parsers: ColumnDecoder['parsers'];
  compressors: Compressors;
  buffer: AsyncBuffer;
  metadata: FileMetaData;
  schema: SchemaTree;
  /** The columns read, in the file's order. */
  picked: SchemaTree[];
  /** Of them, the flat ones' names. */
  flat: ReadonlySet<string>;
}

/**
 * A row group's rows (the group's first row is row `start` of the file): its flat columns a page at a time
 * (PageCursor), each slice the rows up to the nearest end of a column's current page; its nested columns (all small
 * here: parquetSlices) decoded whole.
 */
async function* pagedRowGroup(f: PagedFile, group: FileMetaData['row_groups'][number], start: number): AsyncGenerator<ColumnSlice> {
  const rows = Number(group.num_rows);
  const names = f.picked.map((c) => c.element.name);
  const nested = names.filter((name) => !f.flat.has(name));
  const wholeGroup = nested.length > 0 ? await parquetColumnRange(f.buffer, f.metadata, start, start + rows, nested) : null;
  const cursors = new Map<string, PageCursor>();
  for (const c of group.columns) {
    const meta = c.meta_data;
    const name = meta?.path_in_schema[0] ?? '';
    const column = f.picked.find((p) => p.element.name === name);
    if (!meta || !column || !f.flat.has(name)) continue;
    // Where hyparquet's own reader starts a column chunk (its plan.js).
    const from = Number(meta.dictionary_page_offset || meta.data_page_offset);
    const chunk = await f.buffer.slice(from, from + Number(meta.total_compressed_size));
    const decoder: ColumnDecoder = {
      pathInSchema: meta.path_in_schema,
      type: meta.type,
      element: column.element,
      schemaPath: [f.schema, column],
      codec: meta.codec,
      parsers: f.parsers,
      compressors: f.compressors,
    };
    cursors.set(name, new PageCursor(f.hyparquet, f.convert, decoder, chunk, plainColumn(column)));
  }
  let at = 0;
  while (at < rows) {
    let end = rows;
    for (const [name, cursor] of cursors) {
      while (cursor.end <= at)
        if (!cursor.next()) throw new Error(`Parquet column ${name} holds ${cursor.end} of its row group's ${rows} rows`);
      end = Math.min(end, cursor.end);
    }
    const values = names.map((name) => {
      const cursor = cursors.get(name);
      if (cursor) return cursor.values.slice(at - cursor.start, end - cursor.start);
      return (wholeGroup?.values[wholeGroup.names.indexOf(name)] as unknown[]).slice(at, end);
    });
    yield { start: start + at, count: end - at, names, values };
    at = end;
  }
}

/**
 * The rows of the columns `pickColumns` picks from the file's (every column when it is undefined or picks
 * undefined) in slices, in file order: a row group of any size (ClickHouse, which writes Langfuse's Parquet exports,
 * closes one at 128 MiB or a million rows) is never decoded whole. Its flat columns (a value a row: text, numbers,
 * JSON text — every column an export's importer reads) are read a page at a time, each page inflated and decoded
 * once (PageCursor): a slice is the rows up to the nearest end of a column's current page, so memory holds about a
 * page of each column, and the text of a slice's rows is dropped young (the garbage collector copied the 16 MB
 * slices it replaced, and pages straddling two slices were decoded twice). A nested column (a list, a map) is
 * decoded whole once per row group when small (WHOLE_CHUNK_PART), else — then for the group's every large column —
 * in slices of about `sliceBytes` of inflated pages, sized from the row group's column chunk metadata (hyparquet
 * skips the pages before a slice without inflating them).
 */
export async function* parquetSlices(
  path: string,
  pickColumns?: (columns: string[]) => string[] | undefined,
  sliceBytes = SLICE_BYTES,
): AsyncGenerator<ColumnSlice> {
  const { file, metadata } = await parquetFile(path);
  const { parquetSchema } = await import('hyparquet');
  const hyparquet = await import('hyparquet/src/column.js');
  const { convert, DEFAULT_PARSERS } = await import('hyparquet/src/convert.js');
  const compressors = await parquetCompressors();
  const schema = parquetSchema(metadata);
  const all = schema.children.map((c) => c.element.name);
  const columns = pickColumns?.(all);
  const picked = schema.children.filter((c) => !columns || columns.includes(c.element.name));
  const names = picked.map((c) => c.element.name);
  const flat = new Set(picked.filter(isFlat).map((c) => c.element.name));
  const { buffer, clear } = rowGroupBuffer(file);
  let start = 0;
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    const inflated = new Map<string, number>();
    for (const c of group.columns) {
      const name = c.meta_data?.path_in_schema[0] ?? '';
      inflated.set(name, (inflated.get(name) ?? 0) + Number(c.meta_data?.total_uncompressed_size ?? 0));
    }
    const large = (name: string) => (inflated.get(name) ?? 0) > sliceBytes / WHOLE_CHUNK_PART;
    if (rows > 0 && !names.some((name) => !flat.has(name) && large(name))) {
      yield* pagedRowGroup(
        { hyparquet, convert, parsers: DEFAULT_PARSERS, compressors, buffer, metadata, schema, picked, flat },
        group,
        start,
      );
    } else {
      const whole = names.filter((name) => !large(name));
      const sliced = names.filter(large);
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
