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
