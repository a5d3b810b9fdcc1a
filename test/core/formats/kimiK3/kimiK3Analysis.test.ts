/**
 * End to end: the Analyzer detects Kimi K3 and Seed-OSS records without --format, reads their calls, reports what is
 * wrong with them (unknown tool, schema, a cut call, a call inside reasoning, markup leaked into content).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';

const arg = (key: string, type: string, value: string) =>
  `<|open|>argument key="${key}" type="${type}"<|sep|>${value}<|close|>argument<|sep|>`;
const k3 = (name: string, ...args: string[]) =>
  `<|open|>tools<|sep|><|open|>call tool="${name}" index="1"<|sep|>${args.join('')}<|close|>call<|sep|><|close|>tools<|sep|>`;
const seed = (name: string, params: Record<string, string>) =>
  `<seed:tool_call>\n<function=${name}>\n${Object.entries(params)
    .map(([k, v]) => `<parameter=${k}>${v}</parameter>`)
    .join('\n')}\n</function>\n</seed:tool_call>`;

test('kimi_k3 analysis: a clean call is detected, typed as written, clean, with marker chips', () => {
  const text = `<|open|>think<|sep|>Paris, three days.<|close|>think<|sep|><|open|>response<|sep|>Checking.<|close|>response<|sep|>${k3('get_weather', arg('city', 'string', 'Paris'), arg('days', 'number', '3'))}<|close|>message<|sep|>`;
  const r = analyze(record({ completion: { text, finish_reason: 'tool_calls' } }));
  assert.equal(r.format, 'kimi_k3');
  assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
  assert.equal(r.reasoning, 'Paris, three days.');
  assert.equal(r.content, 'Checking.');
  assertClean(r, text);
  assertMarkerChips(r, ['<|open|>', '<|close|>', '<|sep|>']);
});

test('kimi_k3 analysis: unknown tool, a written type the schema refuses, a cut call, a call in the think channel', () => {
  assert.ok(
    kinds(analyze(record({ completion: { text: k3('get_stock_price', arg('ticker', 'string', 'NVDA')) } }))).includes('unknown-tool'),
  );
  const schema = analyze(
    record({ completion: { text: k3('get_weather', arg('city', 'string', 'Oslo'), arg('days', 'string', 'three')) } }),
  );
  assert.deepEqual(
    schema.diagnostics.filter((d) => d.kind === 'schema-violation').map((d) => d.path),
    ['$.days'],
  );
  const cut = analyze(
    record({
      completion: {
        text: '<|open|>tools<|sep|><|open|>call tool="search" index="1"<|sep|>' + '<|open|>argument key="q" type="string"<|sep|>k3',
        finish_reason: 'length',
      },
    }),
  );
  assert.ok(kinds(cut).includes('unterminated-call'));
  const inThink = analyze(
    record({
      completion: { text: `<|open|>think<|sep|>maybe ${k3('get_weather', arg('city', 'string', 'Oslo'))}<|close|>think<|sep|>Done.` },
    }),
  );
  assert.equal(inThink.format, 'kimi_k3');
  assert.ok(
    kinds(inThink).some((k) => k.startsWith('call-in-')),
    kinds(inThink).join(', '),
  );
});

test("kimi_k3 and seed_oss analysis: their markup in a response's content is their leak", () => {
  for (const [text, format] of [
    [k3('get_weather', arg('city', 'string', 'Paris')), 'kimi_k3'],
    [seed('get_weather', { city: 'Paris' }), 'seed_oss'],
  ] as const) {
    const r = analyze(
      record({
        response: {
          id: 'x',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        },
      } as never),
    );
    const leaks = r.diagnostics.filter((d) => d.kind === 'content-leak');
    assert.ok(leaks.length >= 1, `${format}: ${kinds(r).join(', ')}`);
    assert.ok(
      leaks.some((d) => d.detail === format),
      `${format}: ${JSON.stringify(leaks.map((d) => d.detail))}`,
    );
  }
});

test('seed_oss analysis: a clean call after reasoning is detected, typed by the schema, clean', () => {
  const text = `<seed:think>Paris, three days.</seed:think>${seed('get_weather', { city: 'Paris', days: '3' })}<seed:eos>`;
  const r = analyze(record({ completion: { text, finish_reason: 'tool_calls' } }));
  assert.equal(r.format, 'seed_oss');
  assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
  assert.equal(r.reasoning, 'Paris, three days.');
  assertClean(r, text);
});

test('kimi_k3 and seed_oss samples (samples/other-formats.jsonl): each failure fires its kind, the clean call is clean and delivered as parsed', async () => {
  await checkSamples('kimi_k3');
  await checkSamples('seed_oss');
});
