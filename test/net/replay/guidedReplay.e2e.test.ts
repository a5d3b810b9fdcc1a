/**
 * Guided decoding end to end over 127.0.0.1: the embedded endpoint really constrains its scripted output with
 * xgrammar when a replay asks for it (strict tools for vLLM, the tag in response_format for SGLang, the tag in
 * structured_outputs in completions mode), so a sample's hallucinated tool and schema break come back as valid
 * calls with guided on and as they were with guided off — in both replay modes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../../../src/net/server/openAiServer.ts';
import { replayRecord, type ReplayOptions } from '../../../src/net/replay/replay.ts';
import { Analyzer } from '../../../src/core/analysis.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';
import type { Engine } from '../../../src/net/replay/endpoint.ts';
import type { ReplayMode } from '../../../src/net/replay/replay.ts';

const SAMPLES = fileURLToPath(new URL('../../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));
let server: RunningServer;
let records: TraceRecord[];
const analyzer = new Analyzer();

before(async () => {
  records = (await loadAll(SAMPLES)).records.map((r) => r.record);
  // The endpoint answers each sample's request with that sample's own completion: the "model" repeats its mistake.
  server = await startServer({ script: records });
});
after(() => server.close());

function sample(id: string): TraceRecord {
  const r = records.find((x) => x.id === id);
  assert.ok(r, `sample ${id}`);
  return r;
}

const opts = (engine: Engine, mode: ReplayMode, guided: boolean): ReplayOptions => ({
  endpoint: { name: 'embedded', baseUrl: server.url, model: 'toolscope-sim-kimi-k2', engine },
  mode,
  guided,
  retries: 0,
});

async function replayed(id: string, engine: Engine, mode: ReplayMode, guided: boolean) {
  const { record, error } = await replayRecord(sample(id), opts(engine, mode, guided));
  assert.equal(error, null, `${id} ${engine} ${mode} guided ${guided}: ${error?.message}`);
  return analyzer.analyze({ record, line: 0, lastLine: 0, source: 'native' });
}

const errorKinds = (a: Awaited<ReturnType<typeof replayed>>) =>
  [...new Set(a.diagnostics.filter((d) => d.severity === 'error').map((d) => d.kind))].sort();
const declared = (id: string) => new Set((sample(id).request?.tools ?? []).map((t) => t.function.name));

for (const [engine, mode] of [
  ['vllm', 'chat'],
  ['sglang', 'chat'],
  ['vllm', 'completions'],
] as const) {
  test(`${engine} ${mode}: a hallucinated tool comes back as it was with guided off, as a declared tool with guided on`, async () => {
    const off = await replayed('hallucinated-tool', engine, mode, false);
    assert.ok(errorKinds(off).includes('unknown-tool'), JSON.stringify(errorKinds(off)));
    const on = await replayed('hallucinated-tool', engine, mode, true);
    assert.deepEqual(errorKinds(on), []);
    assert.ok(on.calls.length >= 1);
    for (const c of on.calls) assert.ok(declared('hallucinated-tool').has(c.name), c.name);
  });

  test(`${engine} ${mode}: schema violations are gone with guided on, every call kept`, async () => {
    const off = await replayed('schema-violations', engine, mode, false);
    assert.ok(errorKinds(off).includes('schema-violation'));
    const on = await replayed('schema-violations', engine, mode, true);
    assert.deepEqual(errorKinds(on), [], JSON.stringify(on.diagnostics.filter((d) => d.severity === 'error')));
    assert.equal(on.calls.length, off.calls.length);
    assert.deepEqual(
      on.calls.map((c) => c.name),
      off.calls.map((c) => c.name),
    );
  });
}

test('a valid sample passes through guided decoding unchanged', async () => {
  const off = await replayed('clean-parallel-calls', 'vllm', 'chat', false);
  const on = await replayed('clean-parallel-calls', 'vllm', 'chat', true);
  assert.deepEqual(
    on.calls.map((c) => [c.name, c.arguments]),
    off.calls.map((c) => [c.name, c.arguments]),
  );
  assert.equal(on.content, off.content);
});

test('a structural tag the grammar engine cannot take is answered 400 with the reason', async () => {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content: 'hi' }],
      structured_outputs: { structural_tag: '{"type": "structural_tag"}' },
    }),
  });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { error: { message: string } };
  assert.match(body.error.message, /guided decoding: .*"format"/);
});

test('replay records a request that cannot be built instead of losing the run', async () => {
  // tool_choice names a tool that is not offered: xgrammar refuses to build that tag.
  const broken: TraceRecord = {
    toolscope: 1,
    id: 'named-missing',
    request: {
      messages: [{ role: 'user', content: 'x' }],
      tools: sample('hallucinated-tool').request?.tools,
      tool_choice: { type: 'function', function: { name: 'no_such_tool' } },
    },
  };
  const { record, error } = await replayRecord(broken, opts('vllm', 'completions', true));
  assert.equal(error?.kind, 'request');
  assert.match(record.error ?? '', /no_such_tool/);
  assert.equal(record.meta?.replayOf, 'named-missing');
});

test('a tool schema xgrammar cannot compile, or that aborts it, is answered 400 with the reason; the next guided request is decoded', async () => {
  const ask = (parameters: unknown) =>
    fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'f', strict: true, parameters } }],
        tool_choice: 'required',
      }),
    });
  const dangling = await ask({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
  assert.equal(dangling.status, 400);
  assert.match(
    ((await dangling.json()) as { error: { message: string } }).error.message,
    /^guided decoding: xgrammar cannot compile the parameters of tool f: the \$ref `#\/\$defs\/missing` points to nothing/,
  );
  const aborting = await ask({ type: 'object', properties: { a: { $id: 'x.json', $ref: '#/$defs/nothing' } } });
  assert.equal(aborting.status, 400);
  assert.match(
    ((await aborting.json()) as { error: { message: string } }).error.message,
    /^guided decoding: xgrammar aborted: Cannot find field \$defs/,
  );
  const fine = await ask({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] });
  assert.equal(fine.status, 200);
  const body = (await fine.json()) as {
    choices: Array<{ message: { tool_calls?: Array<{ function: { name: string; arguments: string } }> } }>;
  };
  const call = body.choices[0]?.message.tool_calls?.[0];
  assert.equal(call?.function.name, 'f');
  assert.equal(typeof (JSON.parse(call?.function.arguments ?? '{}') as { a: unknown }).a, 'number');
});
