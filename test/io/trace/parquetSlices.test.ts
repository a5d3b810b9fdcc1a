/**
 * A Parquet row group read a slice of rows at a time (parquetRows.ts: parquetSlices): flat columns a page at a time,
 * each page decoded once (a slice never straddles a page); nested columns whole once per group when small, else a
 * slice of rows at a time. The rows must be the ones hyparquet reads from the whole file at once (cells converted as
 * JSON holds them), in order, whatever the slicing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects, readOffsetIndex } from 'hyparquet';
import { parquetWriteFile } from 'hyparquet-writer';
import { jsonCell, parquetFile, parquetSlices, sliceRows, type ColumnSlice } from '../../../src/io/trace/parquetRows.ts';
import { exportRowColumns } from '../../../src/core/trace/importers/exportRow.ts';
import { writeLangfuseObservations } from '../../../bench/langfuseParquet.ts';

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-parquet-slices-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What hyparquet reads from the whole file at once, as JSON holds it (the reader's rows before slicing). */
async function wholeRows(path: string, columns?: string[]): Promise<Record<string, unknown>[]> {
  const { file, metadata } = await parquetFile(path);
  const rows = await parquetReadObjects({ file, metadata, ...(columns ? { columns } : {}) });
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, jsonCell(v)])));
}

/** The first row (in the file) of each page of a column, from the offset index hyparquet-writer writes. */
async function pageStarts(path: string, column: string): Promise<number[]> {
  const { file, metadata } = await parquetFile(path);
  const starts: number[] = [];
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const chunk = group.columns.find((c) => c.meta_data?.path_in_schema[0] === column);
    const at = Number(chunk?.offset_index_offset);
    const bytes = await file.slice(at, at + (chunk?.offset_index_length ?? 0));
    for (const page of readOffsetIndex({ view: new DataView(bytes), offset: 0 }).page_locations)
      starts.push(groupStart + Number(page.first_row_index));
    groupStart += Number(group.num_rows);
  }
  return starts;
}

async function slicesOf(path: string, sliceBytes: number, pick?: (c: string[]) => string[] | undefined): Promise<ColumnSlice[]> {
  const slices: ColumnSlice[] = [];
  for await (const slice of parquetSlices(path, pick, sliceBytes)) slices.push(slice);
  return slices;
}

test('a row group of 5,000 rows in small pages read in slices: the whole file’s rows, in order, every cell type', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'typed.parquet');
    const n = 5000;
    const text = (i: number) => `row ${i}: ${'x'.repeat(i % 97)}`;
    parquetWriteFile({
      filename: path,
      columnData: [
        { name: 'id', type: 'STRING', data: Array.from({ length: n }, (_, i) => `id-${i}`) },
        { name: 'big', type: 'INT64', data: Array.from({ length: n }, (_, i) => BigInt(i) * 1_000_000_007n) },
        { name: 'huge', type: 'INT64', data: Array.from({ length: n }, (_, i) => (i % 2 ? 2n ** 62n + BigInt(i) : null)) },
        { name: 'ratio', type: 'DOUBLE', data: Array.from({ length: n }, (_, i) => i / 7) },
        { name: 'ok', type: 'BOOLEAN', data: Array.from({ length: n }, (_, i) => i % 3 === 0) },
        { name: 'maybe', type: 'STRING', data: Array.from({ length: n }, (_, i) => (i % 5 ? text(i) : null)) },
        { name: 'doc', type: 'JSON', data: Array.from({ length: n }, (_, i) => ({ i, tags: ['a', i % 4] })) },
        { name: 'body', type: 'STRING', data: Array.from({ length: n }, (_, i) => text(i).repeat(4)) },
      ],
      rowGroupSize: n,
      pageSize: 4096,
    });
    const want = await wholeRows(path);
    assert.equal(want.length, n);
    for (const sliceBytes of [20_000, 100_000, 1_000_000, 1e9]) {
      const slices = await slicesOf(path, sliceBytes);
      if (sliceBytes < 1e6) assert.ok(slices.length > 3, `${slices.length} slices of ${sliceBytes} bytes`);
      // Contiguous, in order, every row once.
      let next = 0;
      for (const s of slices) {
        assert.equal(s.start, next);
        next += s.count;
      }
      assert.equal(next, n);
      assert.deepEqual(
        slices.flatMap((s) => sliceRows(s)),
        want,
        `${sliceBytes} bytes a slice`,
      );
    }
  });
});

test('a Langfuse export in one row group, read by the importer’s columns in slices: the whole file’s rows', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'observations.parquet');
    writeLangfuseObservations(path, 2000, 2000);
    const { metadata } = await parquetFile(path);
    assert.equal(metadata.row_groups.length, 1);
    const columns = exportRowColumns(Object.keys((await wholeRows(path))[0] ?? {})) ?? [];
    const want = await wholeRows(path, columns);
    const slices = await slicesOf(path, 200_000, exportRowColumns);
    const inputPages = (await pageStarts(path, 'input')).length;
    assert.ok(inputPages > 2 && slices.length >= inputPages, `${slices.length} slices, ${inputPages} pages of input`);
    assert.deepEqual(slices[0]?.names, columns);
    assert.deepEqual(
      slices.flatMap((s) => sliceRows(s)),
      want,
    );
  });
});

test('flat columns are read a page at a time: no slice straddles a page of any column, so each page is decoded once', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'pages.parquet');
    const n = 6000;
    // Pages of different row counts in each column (long text, short text, numbers), in two row groups.
    parquetWriteFile({
      filename: path,
      columnData: [
        { name: 'id', type: 'STRING', data: Array.from({ length: n }, (_, i) => `id-${i}`) },
        { name: 'body', type: 'STRING', data: Array.from({ length: n }, (_, i) => `${i}: ${'y'.repeat(50 + (i % 300))}`) },
        { name: 'score', type: 'DOUBLE', data: Array.from({ length: n }, (_, i) => i / 3) },
      ],
      rowGroupSize: [3500, 2500],
      pageSize: 8192,
    });
    const want = await wholeRows(path);
    const pages = await Promise.all(['id', 'body', 'score'].map((c) => pageStarts(path, c)));
    assert.ok(
      pages.every((p) => p.length > 4),
      'several pages in each column',
    );
    for (const sliceBytes of [20_000, 1e9]) {
      const slices = await slicesOf(path, sliceBytes);
      assert.deepEqual(
        slices.flatMap((s) => sliceRows(s)),
        want,
      );
      for (const s of slices)
        for (const starts of pages) {
          const page = starts.findLast((p) => p <= s.start) ?? 0;
          const next = starts.find((p) => p > s.start) ?? n;
          assert.ok(
            s.start + s.count <= next && s.start >= page,
            `rows ${s.start}…${s.start + s.count} straddle a page starting at ${next}`,
          );
        }
    }
  });
});

test('a nested column (a list) beside flat ones: the whole file’s rows, small (whole a group) or large (sliced)', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'nested.parquet');
    const n = 3000;
    parquetWriteFile({
      filename: path,
      columnData: [
        { name: 'id', data: Array.from({ length: n }, (_, i) => `id-${i}`) },
        {
          name: 'tags',
          data: Array.from({ length: n }, (_, i) => (i % 7 ? Array.from({ length: i % 4 }, (_, k) => `tag ${i}-${k}`) : null)),
        },
        { name: 'body', data: Array.from({ length: n }, (_, i) => `${i}: ${'z'.repeat(i % 200)}`) },
      ],
      schema: [
        { name: 'root', num_children: 3 },
        { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
        { name: 'body', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      ],
      rowGroupSize: 2000,
      pageSize: 4096,
    });
    const want = await wholeRows(path);
    assert.ok(Array.isArray(want[1]?.tags));
    // 1e9: the list is small, decoded whole beside the paged flat columns; 8,000: it is large, every column sliced.
    for (const sliceBytes of [1e9, 8_000])
      assert.deepEqual(
        (await slicesOf(path, sliceBytes)).flatMap((s) => sliceRows(s)),
        want,
        `${sliceBytes} bytes a slice`,
      );
  });
});
