/**
 * Parquet's codec `LZ4` as Hadoop and parquet-mr write it (each page one or more frames: a 4-byte big-endian
 * uncompressed length, a 4-byte big-endian compressed length, an LZ4 block), read through the reader `analyze` and the
 * editor use (parquetRows.ts, hyparquet-compressors' LZ4). DuckDB, which writes the other codecs in
 * exportImporters.test.ts, writes `lz4` as LZ4_RAW, so these pages come from parquet-mr itself (the Apache Parquet
 * project's test files, test/fixtures/parquet-testing/README.md) and, for a Langfuse export, from hyparquet-writer with
 * the framing put around the pages here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetWriteFile } from 'hyparquet-writer';
import { parquetFile, parquetRows, type TableRow } from '../../../src/io/trace/parquetRows.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));

async function rowsOf(path: string): Promise<TableRow[]> {
  const rows: TableRow[] = [];
  for await (const row of parquetRows(path)) rows.push(row);
  return rows;
}

async function codecsOf(path: string): Promise<string[]> {
  const { metadata } = await parquetFile(path);
  return [...new Set(metadata.row_groups.flatMap((g) => g.columns.map((c) => String(c.meta_data?.codec))))];
}

test('parquet-mr’s LZ4 pages (Hadoop framing, one frame a page) read as the rows parquet-tools printed', async () => {
  const path = join(fixtures, 'parquet-testing/hadoop_lz4_compressed.parquet');
  assert.deepEqual(await codecsOf(path), ['LZ4']);
  // The rows apache/parquet-testing's commit d914f9d289488c7db1759d7a88a4a1b8f062c7dd prints for these values.
  assert.deepEqual(await rowsOf(path), [
    { line: 1, row: { c0: 1593604800, c1: 'abc', v11: 42 } },
    { line: 2, row: { c0: 1593604800, c1: 'def', v11: 7.7 } },
    { line: 3, row: { c0: 1593604801, c1: 'abc', v11: 42.125 } },
    { line: 4, row: { c0: 1593604801, c1: 'def', v11: 7.7 } },
  ]);
});

test('parquet-mr’s LZ4 page of three Hadoop frames: all 10,000 values, the footer’s min and max among them', async () => {
  const path = join(fixtures, 'parquet-testing/hadoop_lz4_compressed_larger.parquet');
  assert.deepEqual(await codecsOf(path), ['LZ4']);
  const values = (await rowsOf(path)).map((r) => r.row.a as string);
  assert.equal(values.length, 10_000);
  assert.equal(new Set(values).size, 10_000);
  for (const v of values) assert.match(v, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // The statistics parquet-tools printed in apache/parquet-testing's commit e31fe1a02c9e9f271e4bfb8002d403c52f1ef8eb.
  const sorted = [...values].sort();
  assert.equal(sorted[0], '00087de7-10df-4979-94cf-79279f9745ce');
  assert.equal(sorted.at(-1), 'ffffe6a0-e0c0-4e65-a9d4-f7f4c176aea2');
});

/** An LZ4 block of literals only (valid LZ4: a block's last sequence is literals, and here it is the only one). */
function literalBlock(bytes: Uint8Array): Uint8Array {
  const header: number[] = [];
  if (bytes.length < 15) header.push(bytes.length << 4);
  else {
    header.push(0xf0);
    let rest = bytes.length - 15;
    for (; rest >= 255; rest -= 255) header.push(255);
    header.push(rest);
  }
  const out = new Uint8Array(header.length + bytes.length);
  out.set(header);
  out.set(bytes, header.length);
  return out;
}

/** Hadoop's framing of a page: frames of at most `frameSize` inflated bytes, each with its two big-endian lengths. */
function hadoopLz4(page: Uint8Array, frameSize = 200): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let at = 0; at < page.length; at += frameSize) {
    const raw = page.subarray(at, at + frameSize);
    const block = literalBlock(raw);
    const frame = new Uint8Array(8 + block.length);
    const view = new DataView(frame.buffer);
    view.setUint32(0, raw.length);
    view.setUint32(4, block.length);
    frame.set(block, 8);
    frames.push(frame);
  }
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

test('a Langfuse export whose pages are Hadoop-framed LZ4 (many frames a page) gives the JSONL export’s records', async () => {
  const jsonl = join(fixtures, 'langfuse/observations_v2.jsonl');
  const lines = (await readFile(jsonl, 'utf8')).trim().split('\n');
  const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const names = Object.keys(objects[0] ?? {});
  // As the blob export's Parquet holds them: text columns, objects as JSON text, nulls as nulls.
  const cell = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-lz4-hadoop-'));
  try {
    const path = join(dir, 'observations.parquet');
    parquetWriteFile({
      filename: path,
      columnData: names.map((name) => ({ name, data: objects.map((o) => cell(o[name])), type: 'STRING' as const })),
      codec: 'LZ4',
      compressors: { LZ4: (page: Uint8Array) => hadoopLz4(page) },
      rowGroupSize: 2,
    });
    assert.deepEqual(await codecsOf(path), ['LZ4']);
    const want = await loadAll(jsonl);
    const got = await loadAll(path);
    assert.equal(got.records.length, 3);
    assert.deepEqual(
      got.records.map((r) => r.record),
      want.records.map((r) => r.record),
    );
    assert.deepEqual(got.errors, want.errors);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
