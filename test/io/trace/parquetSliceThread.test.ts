/**
 * A large Parquet file's slices decoded on a thread of their own (parquetSliceThread.ts): the slices, cells and
 * errors must be the ones parquetSlices reads on the calling thread — text sent as UTF-8 bytes and decoded there as
 * hyparquet decodes it (non-ASCII, a byte order mark, bytes that are no UTF-8), nulls, numbers, JSON — and when the
 * thread fails (it cannot start; a page that does not inflate) the calling thread reads on from where it stopped:
 * the same rows, then the same error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { parquetFile, parquetSlices, sliceRows, type ColumnSlice } from '../../../src/io/trace/parquetRows.ts';
import { parquetSlicesOnThread } from '../../../src/io/trace/parquetSliceThread.ts';
import { exportRowColumns } from '../../../src/core/trace/importers/exportRow.ts';
import { writeLangfuseObservations } from '../../../bench/langfuseParquet.ts';

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-parquet-thread-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The slices a reader yields, then the message of the error it threw (null: none). */
async function read(slices: AsyncGenerator<ColumnSlice>): Promise<{ slices: ColumnSlice[]; error: string | null }> {
  const got: ColumnSlice[] = [];
  try {
    for await (const s of slices) got.push(s);
  } catch (err) {
    return { slices: got, error: err instanceof Error ? err.message : String(err) };
  }
  return { slices: got, error: null };
}

const enc = new TextEncoder();

/** 6,000 rows in 3 row groups of small pages: text (ASCII, non-ASCII, a BOM, bytes that are no UTF-8), nulls, numbers, JSON. */
function writeTyped(path: string): void {
  const n = 6000;
  const text = (i: number) => `row ${i}: ${'x'.repeat(i % 97)}`;
  // UTF-8 text hyparquet decodes with TextDecoder: U+FFFD for bytes that are no UTF-8, a leading BOM dropped.
  const odd = [
    enc.encode('plain'),
    enc.encode('\u00e9t\u00e9 \u2014 \u6771\u4eac \ud83d\ude00'),
    new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]),
    new Uint8Array([0x61, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x62]),
    new Uint8Array([]),
  ];
  parquetWriteFile({
    filename: path,
    columnData: [
      { name: 'id', data: Array.from({ length: n }, (_, i) => `id-${i}`) },
      { name: 'big', data: Array.from({ length: n }, (_, i) => BigInt(i) * 1_000_000_007n) },
      { name: 'ratio', data: Array.from({ length: n }, (_, i) => i / 7) },
      { name: 'maybe', data: Array.from({ length: n }, (_, i) => (i % 5 ? `${text(i)} \u00b0C` : null)) },
      { name: 'doc', data: Array.from({ length: n }, (_, i) => ({ i, tags: ['a', i % 4] })) },
      { name: 'odd', data: Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : odd[i % odd.length])) },
      { name: 'body', data: Array.from({ length: n }, (_, i) => text(i).repeat(4)) },
    ],
    // `odd` as text (UTF8), as an exporter that wrote these bytes would have declared it.
    schema: [
      { name: 'root', num_children: 7 },
      { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'big', type: 'INT64', repetition_type: 'OPTIONAL' },
      { name: 'ratio', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
      { name: 'maybe', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'doc', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' },
      { name: 'odd', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'body', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    ],
    rowGroupSize: n / 3,
    pageSize: 4096,
  });
}

test('slices decoded on the thread are the calling thread’s: every cell type, text that is not ASCII or not UTF-8', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'typed.parquet');
    writeTyped(path);
    const here = await read(parquetSlices(path, undefined, 60_000));
    assert.equal(here.error, null);
    assert.ok(here.slices.length > 6, `${here.slices.length} slices`);
    const rows = here.slices.flatMap((s) => sliceRows(s));
    // The cells the test is about are there: text decoded with U+FFFD, the BOM dropped.
    assert.ok(rows.some((r) => r.odd === 'a\ufffd\ufffd(\ufffd\ufffd\ufffdb'));
    assert.ok(rows.some((r) => r.odd === 'hi'));
    assert.ok(rows.some((r) => r.odd === ''));
    assert.ok(rows.some((r) => r.odd === null));
    const there = await read(parquetSlicesOnThread(path, undefined, 60_000));
    assert.equal(there.error, null);
    assert.deepEqual(there.slices, here.slices);
  });
});

test('a Langfuse export’s slices on the thread, by the importer’s columns: the calling thread’s', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'observations.parquet');
    writeLangfuseObservations(path, 3000, 1000);
    const { metadata } = await parquetFile(path);
    const names = metadata.schema.slice(1).map((e) => e.name);
    const columns = exportRowColumns(names);
    assert.ok(columns && columns.length < names.length);
    const here = await read(parquetSlices(path, () => columns, 300_000));
    const there = await read(parquetSlicesOnThread(path, columns, 300_000));
    assert.ok(here.slices.length > 3, `${here.slices.length} slices`);
    assert.deepEqual(there, here);
  });
});

test('a thread that cannot start: the calling thread reads every slice', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'typed.parquet');
    writeTyped(path);
    const here = await read(parquetSlices(path, undefined, 60_000));
    const there = await read(parquetSlicesOnThread(path, undefined, 60_000, join(dir, 'no-such-worker.js')));
    assert.deepEqual(there, here);
  });
});

test('a page that does not inflate in the last row group: the rows before it, then the calling thread’s error', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'typed.parquet');
    writeTyped(path);
    const { metadata } = await parquetFile(path);
    // Garble the middle of the last row group's `body` chunk (Snappy): its pages no longer inflate.
    const last = metadata.row_groups[metadata.row_groups.length - 1];
    const body = last?.columns.find((c) => c.meta_data?.path_in_schema[0] === 'body')?.meta_data;
    assert.ok(body);
    const bytes = await readFile(path);
    const from = Number(body.data_page_offset) + 64;
    for (let i = from; i < from + Number(body.total_compressed_size) / 2; i++) bytes[i] = 0xff;
    await writeFile(path, bytes);
    const here = await read(parquetSlices(path, undefined, 60_000));
    assert.ok(here.error !== null, 'the garbled page fails the read');
    assert.ok(here.slices.length > 0);
    const there = await read(parquetSlicesOnThread(path, undefined, 60_000));
    assert.deepEqual(there, here);
  });
});
