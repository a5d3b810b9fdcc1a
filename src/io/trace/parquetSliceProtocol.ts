/**
 * What the Parquet decoding thread (parquetSliceWorker.ts) and the reading thread (parquetSliceThread.ts) say to each
 * other, and how a slice's text crosses between them: a text column as one buffer of its cells' UTF-8 bytes (moved,
 * not copied), which the reader decodes as hyparquet would have (TextDecoder; ASCII as Latin-1, the same text), not
 * as strings cloned one by one. Any other column crosses as its values (structured clone: numbers, JSON values).
 */
import { Buffer, isAscii } from 'node:buffer';
import type { ColumnSlice } from './parquetRows.ts';

/** A column's cells: text as UTF-8 bytes and where each cell ends, or (any other column) the values themselves. */
export type SentColumn =
  | { values: unknown[] }
  | {
      bytes: Uint8Array;
      /** End of each cell's bytes in `bytes` (a cell starts where the one before it ends). */
      ends: Uint32Array;
      /** Per cell: 0 ASCII text, 1 other text, 2 null, 3 undefined. */
      kinds: Uint8Array;
    };

export interface SentSlice {
  start: number;
  count: number;
  names: string[];
  columns: SentColumn[];
}

export interface SliceWorkerData {
  path: string;
  /** The columns to read (null: all of them). */
  columns: string[] | null;
  sliceBytes: number;
}

/** The decoding thread sends a slice and waits for `more` before decoding the next: one slice ahead at most. */
export type FromSliceWorker = { slice: SentSlice } | { done: true };
export type ToSliceWorker = { more: true };

/** A cell's kind: text all ASCII, other text, null, undefined. */
const ASCII = 0;
const TEXT = 1;
const NULL = 2;
const UNDEFINED = 3;

/**
 * Cells that are UTF-8 bytes (hyparquet's text, left undecoded), null or undefined, in one buffer, each text cell
 * marked ASCII or not (checked here, on the decoding thread); a column with other cells as its values.
 */
export function packColumn(values: unknown[]): SentColumn {
  let total = 0;
  let text = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v instanceof Uint8Array) {
      total += v.length;
      text = true;
    } else if (v !== null && v !== undefined) return { values: values.map(decodedCell) };
  }
  if (!text) return { values };
  const bytes = new Uint8Array(total);
  const ends = new Uint32Array(values.length);
  const kinds = new Uint8Array(values.length);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v instanceof Uint8Array) {
      bytes.set(v, at);
      at += v.length;
      kinds[i] = isAscii(v) ? ASCII : TEXT;
    } else kinds[i] = v === null ? NULL : UNDEFINED;
    ends[i] = at;
  }
  return { bytes, ends, kinds };
}

const decoder = new TextDecoder();

/** A cell of a column that is not all text: bytes decoded as hyparquet decodes text. */
function decodedCell(v: unknown): unknown {
  return v instanceof Uint8Array ? decoder.decode(v) : v;
}

/**
 * A sent column's cells, text decoded as hyparquet decodes it (TextDecoder); an ASCII cell copied as Latin-1, the
 * same text without validating or a view per cell.
 */
export function unpackColumn(column: SentColumn): unknown[] {
  if ('values' in column) return column.values;
  const { bytes, ends, kinds } = column;
  const out: unknown[] = new Array(kinds.length);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  for (let i = 0; i < kinds.length; i++) {
    const end = ends[i] as number;
    const kind = kinds[i];
    out[i] =
      kind === ASCII
        ? buffer.toString('latin1', start, end)
        : kind === TEXT
          ? decoder.decode(bytes.subarray(start, end))
          : kind === NULL
            ? null
            : undefined;
    start = end;
  }
  return out;
}

export function packSlice({ start, count, names, values }: ColumnSlice): { slice: SentSlice; transfer: ArrayBuffer[] } {
  const columns = values.map(packColumn);
  const transfer: ArrayBuffer[] = [];
  for (const c of columns)
    if (!('values' in c)) transfer.push(c.bytes.buffer as ArrayBuffer, c.ends.buffer as ArrayBuffer, c.kinds.buffer as ArrayBuffer);
  return { slice: { start, count, names, columns }, transfer };
}

export function unpackSlice({ start, count, names, columns }: SentSlice): ColumnSlice {
  return { start, count, names, values: columns.map(unpackColumn) };
}
