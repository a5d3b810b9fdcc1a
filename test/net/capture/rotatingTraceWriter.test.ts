import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RotatingTraceWriter, rotatedPath } from '../../../src/net/capture/rotatingTraceWriter.ts';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-writer-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

test('rotated names: traces.jsonl, traces.2.jsonl, …', () => {
  assert.equal(rotatedPath('/x/traces.jsonl', 1), '/x/traces.jsonl');
  assert.equal(rotatedPath('/x/traces.jsonl', 3), '/x/traces.3.jsonl');
  assert.equal(rotatedPath('/x/log', 2), '/x/log.2');
});

test('500 concurrent appends of records of very different sizes: every line whole, none lost, in append order', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'sub', 'traces.jsonl');
    const writer = await RotatingTraceWriter.open({ path });
    const records = Array.from({ length: 500 }, (_, i) => ({
      toolscope: 1,
      id: `r${i}`,
      pad: 'x'.repeat((i * 7919) % 70_000),
      text: 'line\nbreak "quoted" \u2028',
    }));
    await Promise.all(records.map((r) => writer.append(r)));
    await writer.close();
    const got = lines(await readFile(path, 'utf8')).map((l) => JSON.parse(l) as { id: string });
    assert.deepEqual(
      got.map((r) => r.id),
      records.map((r) => r.id),
    );
    assert.equal(writer.recordsWritten, 500);
    await assert.rejects(writer.append({ id: 'late' }), /closed/);
  });
});

test('--max-size rotates before a file would pass the limit; a record never splits; a big record gets its own file', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'traces.jsonl');
    const rotations: string[] = [];
    const writer = await RotatingTraceWriter.open({ path, maxBytes: 1000, onRotate: (p) => rotations.push(p) });
    const small = (i: number) => ({ id: `s${i}`, pad: 'y'.repeat(180) });
    await Promise.all(Array.from({ length: 12 }, (_, i) => writer.append(small(i))));
    await writer.append({ id: 'big', pad: 'z'.repeat(3000) });
    await writer.append(small(99));
    await writer.close();
    const files = (await readdir(dir)).sort();
    assert.deepEqual(
      rotations,
      files
        .filter((f) => f !== 'traces.jsonl')
        .map((f) => join(dir, f))
        .sort((a, b) => Number(/\.(\d+)\.jsonl$/.exec(a)?.[1]) - Number(/\.(\d+)\.jsonl$/.exec(b)?.[1])),
    );
    const ids: string[] = [];
    for (let n = 1; n <= files.length; n++) {
      const p = rotatedPath(path, n);
      const text = await readFile(p, 'utf8');
      const recs = lines(text).map((l) => JSON.parse(l) as { id: string });
      ids.push(...recs.map((r) => r.id));
      if (recs.some((r) => r.id === 'big')) assert.equal(recs.length, 1, 'the big record is alone in its file');
      else assert.ok((await stat(p)).size <= 1000, `${p} stays under the limit`);
    }
    assert.deepEqual(ids, [...Array.from({ length: 12 }, (_, i) => `s${i}`), 'big', 's99']);
  });
});

test('an existing trace is appended to (a torn last line ended first); a full one is skipped for the next file', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'traces.jsonl');
    await writeFile(path, '{"toolscope":1,"id":"old"}\n{"toolscope":1,"id":"torn');
    const writer = await RotatingTraceWriter.open({ path });
    await writer.append({ toolscope: 1, id: 'new' });
    await writer.close();
    assert.deepEqual((await readFile(path, 'utf8')).split('\n'), [
      '{"toolscope":1,"id":"old"}',
      '{"toolscope":1,"id":"torn',
      '{"toolscope":1,"id":"new"}',
      '',
    ]);

    const full = await RotatingTraceWriter.open({ path, maxBytes: 50 });
    assert.equal(full.currentPath, rotatedPath(path, 2));
    await full.append({ id: 'next' });
    await full.close();
    assert.equal(await readFile(rotatedPath(path, 2), 'utf8'), '{"id":"next"}\n');
  });
});
