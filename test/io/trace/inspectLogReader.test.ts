/** Inspect AI logs (.json and .eval): model events with raw exchanges become records, with their calls and findings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { Analyzer } from '../../../src/core/analysis.ts';
import { readTraceItems } from '../../../src/io/trace/traceIndex.ts';
import type { TraceItem } from '../../../src/core/trace/importers/importResult.ts';
import { MAX_EVAL_ENTRY_BYTES } from '../../../src/io/trace/inspectLogReader.ts';
import { storedEntry, zipArchive, type ZipEntry } from './zipArchive.ts';

const fixture = fileURLToPath(new URL('../../fixtures/inspect/log_read_sample.reduced.json', import.meta.url));

async function items(path: string): Promise<TraceItem[]> {
  const out: TraceItem[] = [];
  for await (const item of readTraceItems(path)) out.push(item);
  return out;
}

function check(all: TraceItem[]): void {
  const records = all.flatMap((i) => (i.kind === 'record' ? [i.loaded] : []));
  const errors = all.flatMap((i) => (i.kind === 'error' ? [i.error] : []));
  assert.deepEqual(
    records.map((r) => r.record.id),
    ['1/1/1', '1/1/2'],
  );
  assert.equal(records[0]?.source, 'inspect-log');
  // attachment:// strings resolved into the request's messages
  assert.match(String(records[0]?.record.request?.messages?.[0]?.content), /only respond with exactly "Yes" or "No"/);
  assert.equal(records[0]?.record.request?.tools, undefined, 'Inspect writes tools: null when none were offered');
  assert.deepEqual(
    errors.map((e) => e.line),
    [3],
  );
  assert.match(errors[0]?.message ?? '', /sample 1 epoch 1, model call 3 kept no raw request/);
  const analyzer = new Analyzer();
  const first = analyzer.analyze(records[0] as (typeof records)[number]);
  assert.equal(first.content, 'Yes\n');
  assert.deepEqual(first.calls, []);
  const second = analyzer.analyze(records[1] as (typeof records)[number]);
  assert.deepEqual(
    second.calls.map((c) => c.name),
    ['post_update'],
  );
  const violation = second.diagnostics.find((d) => d.kind === 'schema-violation');
  assert.ok(violation, JSON.stringify(second.diagnostics));
  assert.equal(violation.path, '$.audience');
}

test('a .json Inspect log opens with its model calls and findings', async () => {
  check(await items(fixture));
});

test('the same log as .eval (zip of header.json and samples/*.json) reads the same; a broken zip is one error', async () => {
  const log = JSON.parse(await readFile(fixture, 'utf8')) as { eval: unknown; samples: unknown[] };
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-inspect-'));
  try {
    const path = join(dir, 'run.eval');
    await writeFile(
      path,
      zipSync({
        'header.json': strToU8(JSON.stringify({ version: 2, eval: log.eval })),
        'samples/1_epoch_1.json': strToU8(JSON.stringify(log.samples[0])),
      }),
    );
    check(await items(path));
    const broken = join(dir, 'broken.eval');
    await writeFile(broken, 'not a zip');
    const got = await items(broken);
    assert.equal(got.length, 1);
    assert.equal(got[0]?.kind, 'error');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a .eval entry that cannot be read (bzip2, corrupt, too deep, over the size cap) is an error of its own; the other samples load', async () => {
  const log = JSON.parse(await readFile(fixture, 'utf8')) as { eval: unknown; samples: Array<Record<string, unknown>> };
  const sample = (id: string): string => JSON.stringify({ ...log.samples[0], id });
  const good = storedEntry('samples/1_epoch_1.json', sample('1'));
  const bzip2: ZipEntry = { ...storedEntry('samples/2_epoch_1.json', sample('2')), method: 12 };
  const corrupt: ZipEntry = {
    ...storedEntry('samples/3_epoch_1.json', sample('3')),
    method: 8,
    data: new Uint8Array([0xff, 0xff, 0xff, 0xff]),
  };
  // A model call whose raw request nests 5,000 levels deep: that call is one error; the sample's other calls load.
  const deepLog = structuredClone(log.samples[0]) as { events: Array<Record<string, unknown>> };
  const firstModel = deepLog.events.find((e) => e.event === 'model') as { call: { request: Record<string, unknown> } };
  firstModel.call.request.extra = 'DEEP';
  const deepText = JSON.stringify({ ...deepLog, id: '4' }).replace('"DEEP"', '['.repeat(5000) + ']'.repeat(5000));
  const deep = storedEntry('samples/4_epoch_1.json', deepText);
  const huge: ZipEntry = { ...storedEntry('samples/5_epoch_1.json', sample('5')), size: MAX_EVAL_ENTRY_BYTES + 1 };
  const last = storedEntry('samples/6_epoch_1.json', sample('6'));
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-inspect-'));
  try {
    const path = join(dir, 'hostile.eval');
    await writeFile(path, zipArchive([storedEntry('header.json', '{}'), good, bzip2, corrupt, deep, huge, last]));
    const got = await items(path);
    const records = got.flatMap((i) => (i.kind === 'record' ? [i.loaded.record.id] : []));
    const errors = got.flatMap((i) => (i.kind === 'error' ? [i.error.message] : []));
    assert.deepEqual(records, ['1/1/1', '1/1/2', '4/1/2', '6/1/1', '6/1/2']);
    assert.equal(errors.length, 7, errors.join('\n'));
    assert.match(errors[1] ?? '', /samples\/2_epoch_1\.json uses compression method 12 \(bzip2\)/);
    assert.match(errors[2] ?? '', /samples\/3_epoch_1\.json cannot be read/);
    assert.match(errors[3] ?? '', /sample 4 epoch 1, model call 1: the raw exchange nests deeper than 256 levels/);
    assert.match(errors[5] ?? '', /samples\/5_epoch_1\.json holds 67108865 bytes uncompressed, more than the 67108864/);
    const lines = got.map((i) => (i.kind === 'record' ? i.loaded.line : i.error.line));
    assert.equal(new Set(lines).size, lines.length, `every item has a line of its own: ${lines.join(',')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a deep value in one sample of a .json Inspect log costs that model call, not the log', async () => {
  const log = JSON.parse(await readFile(fixture, 'utf8')) as { samples: Array<{ events: Array<Record<string, unknown>> }> };
  const second = structuredClone(log.samples[0]) as { id: string; events: Array<Record<string, unknown>> };
  second.id = '2';
  const model = second.events.find((e) => e.event === 'model') as { call: { response: unknown } };
  model.call.response = 'DEEP';
  log.samples.push(second as (typeof log.samples)[number]);
  const text = JSON.stringify(log).replace('"DEEP"', '{"a":'.repeat(5000) + '1' + '}'.repeat(5000));
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-inspect-'));
  try {
    const path = join(dir, 'deep.json');
    await writeFile(path, text);
    const got = await items(path);
    assert.deepEqual(
      got.flatMap((i) => (i.kind === 'record' ? [i.loaded.record.id] : [])),
      ['1/1/1', '1/1/2', '2/1/2'],
    );
    const errors = got.flatMap((i) => (i.kind === 'error' ? [i.error.message] : []));
    assert.match(errors[1] ?? '', /sample 2 epoch 1, model call 1: the raw exchange nests deeper than 256 levels/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
