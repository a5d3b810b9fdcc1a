import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importText } from '../../../src/core/trace/importText.ts';
import { TraceIndex } from '../../../src/io/trace/traceIndex.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { CHAT_COMPLETION } from './traceFixtures.ts';

let dir = '';
let counter = 0;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-multiline-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(content: string): Promise<string> {
  const path = join(dir, `m${counter++}.json`);
  await writeFile(path, content);
  return path;
}

const PRETTY = JSON.stringify(CHAT_COMPLETION, null, 2);
const prettyLines = PRETTY.split('\n').length;

test('a pretty-printed record is one entry: line is its first line, lastLine its last; the same at any chunk size and in importText', async () => {
  const text =
    [JSON.stringify({ toolscope: 1, id: 'before' }), PRETTY, '', JSON.stringify({ toolscope: 1, id: 'after' })].join('\n') + '\n';
  const expected = importText(text);
  assert.deepEqual(expected.errors, []);
  assert.deepEqual(
    expected.records.map((r) => [r.record.id, r.line, r.lastLine, r.source]),
    [
      ['before', 1, 1, 'native'],
      [CHAT_COMPLETION.id, 2, 1 + prettyLines, 'chat-completion'],
      ['after', 3 + prettyLines, 3 + prettyLines, 'native'],
    ],
  );
  const path = await file(text);
  for (const chunkSize of [1, 3, 17, undefined]) {
    const got = await loadAll(path, { chunkSize });
    assert.deepEqual(got.records, expected.records, `chunk ${chunkSize}`);
    assert.deepEqual(got.errors, expected.errors);
  }
  const index = await TraceIndex.open(path);
  assert.equal(index.count, 3);
  assert.deepEqual([index.entry(1).line, index.entry(1).lastLine], [2, 1 + prettyLines]);
  await index.close();
});

test('indented JSONL lines stay records of their own; a bad indented line is an error for that line only', () => {
  const text = ['{"toolscope":1,"id":"a"}', '  {"toolscope":1,"id":"b"}', '  oops', '\t{"toolscope":1,"id":"c"}'].join('\n');
  const got = importText(text);
  assert.deepEqual(
    got.records.map((r) => [r.record.id, r.line, r.lastLine]),
    [
      ['a', 1, 1],
      ['b', 2, 2],
      ['c', 4, 4],
    ],
  );
  assert.deepEqual(
    got.errors.map((e) => e.line),
    [3],
  );
  assert.match(got.errors[0]?.message ?? '', /^line 3: invalid JSON/);
});

test('a pretty-printed object that does not parse is one error naming its span; the next record loads', () => {
  const broken = PRETTY.replace('"choices"', 'choices');
  const got = importText(`${broken}\n{"toolscope":1,"id":"next"}\n`);
  assert.deepEqual(
    got.records.map((r) => r.record.id),
    ['next'],
  );
  assert.equal(got.errors.length, 1);
  assert.match(got.errors[0]?.message ?? '', new RegExp(`^line 1: lines 1–${prettyLines} do not make one JSON value`));
});

test('a pretty-printed record still being written: incomplete, then read whole after refresh', async () => {
  const cut = PRETTY.lastIndexOf('\n');
  const path = await file(PRETTY.slice(0, cut)); // the writer stopped before the closing brace
  const index = await TraceIndex.open(path);
  const first = await index.read(0);
  assert.deepEqual(first.records, []);
  assert.match(first.errors[0]?.message ?? '', /^line 1 is incomplete/);
  await appendFile(path, PRETTY.slice(cut) + '\n');
  const refreshed = await index.refresh();
  assert.equal(refreshed.count, 1);
  const whole = await index.read(0);
  assert.deepEqual(whole.errors, []);
  assert.deepEqual([whole.records[0]?.line, whole.records[0]?.lastLine], [1, prettyLines]);
  await index.close();
});
