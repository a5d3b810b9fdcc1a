/**
 * A Parquet row group read a slice of rows at a time (parquetRows.ts: parquetSlices): the large column chunks a slice
 * of rows at a time, pages before the slice skipped, the small chunks whole once per group. The rows must be the ones
 * hyparquet reads from the whole file at once (cells converted as JSON holds them), in order, whatever the slicing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
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
    assert.ok(slices.length > 5, `${slices.length} slices`);
    assert.deepEqual(slices[0]?.names, columns);
    assert.deepEqual(
      slices.flatMap((s) => sliceRows(s)),
      want,
    );
  });
});
