/** End to end: the Analyzer detects Hermes records without --format and reports what went wrong in them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgram } from '../../../../src/cli/main.ts';
import { formatNames } from '../../../../src/core/formats/registry.ts';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';

const call = (name: string, args: string) => `<tool_call>\n{"name": "${name}", "arguments": ${args}}\n</tool_call>`;

test('hermes analysis: a clean call is detected and clean; markers are single tokens in the timeline', () => {
  const r = analyze(
    record({
      completion: {
        text: `<think>\nWeather needed.\n</think>\n\nChecking.\n${call('get_weather', '{"city": "Paris"}')}`,
        finish_reason: 'tool_calls',
      },
    }),
  );
  assert.equal(r.format, 'hermes');
  assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
  assert.equal(r.content, 'Checking.\n');
  assert.equal(r.reasoning, '\nWeather needed.\n');
  assertClean(r, 'clean');
  assertMarkerChips(r, ['<tool_call>', '</tool_call>', '<think>', '</think>']);
});

test('hermes analysis: unknown tool, schema violation, invalid JSON, unterminated call', () => {
  const unknown = analyze(record({ completion: { text: call('get_stock_price', '{"ticker": "NVDA"}') } }));
  assert.ok(kinds(unknown).includes('unknown-tool'));
  assert.match(unknown.diagnostics.find((d) => d.kind === 'unknown-tool')?.message ?? '', /call 0 names "get_stock_price"/);
  const schema = analyze(record({ completion: { text: call('get_weather', '{"city": "Oslo", "days": 30}') } }));
  assert.deepEqual(
    schema.diagnostics.filter((d) => d.kind === 'schema-violation').map((d) => d.path),
    ['$.days'],
  );
  const invalid = analyze(record({ completion: { text: call('get_weather', '{"city": "Oslo",}') } }));
  assert.ok(kinds(invalid).includes('invalid-arguments-json'));
  const cut = analyze(
    record({ completion: { text: '<tool_call>\n{"name": "search", "arguments": {"query": "vll', finish_reason: 'length' } }),
  );
  assert.ok(kinds(cut).includes('unterminated-call'));
  assert.match(cut.diagnostics.find((d) => d.kind === 'unterminated-call')?.message ?? '', /finish_reason "length"/);
  // The finding points at the call's tokens.
  const d = cut.diagnostics.find((x) => x.kind === 'unterminated-call');
  assert.equal(cut.completion?.tokens[d?.tokenStart ?? -1]?.text, '<tool_call>');
});

test('hermes analysis: markup leaked into the recorded response content', () => {
  const text = call('search', '{"query": "hermes tool parser"}');
  const r = analyze(
    record({ completion: { text }, response: { choices: [{ message: { role: 'assistant', content: text }, finish_reason: 'stop' }] } }),
  );
  assert.equal(r.format, 'hermes');
  assert.ok(kinds(r).includes('content-leak'));
  assert.ok(kinds(r).includes('dropped-call'));
  // No completion, only the leaked response: detected from the response text.
  const only = analyze(
    record({ response: { choices: [{ message: { role: 'assistant', content: `Sure. ${text}` }, finish_reason: 'stop' }] } }),
  );
  assert.equal(only.format, 'hermes');
  assert.ok(kinds(only).includes('content-leak'));
});

test('hermes analysis: meta.format is honoured, --format still wins', () => {
  const text = 'Sure, the answer is 42.';
  assert.equal(analyze(record({ completion: { text } })).format, 'kimi_k2');
  assert.equal(analyze(record({ completion: { text }, meta: { format: 'hermes' } })).format, 'hermes');
  assert.equal(analyze(record({ completion: { text }, meta: { format: 'no_such_format' } })).format, 'kimi_k2');
  assert.equal(
    analyze(record({ completion: { text: call('f', '{}') }, meta: { format: 'hermes' } }), { format: 'qwen3_coder' }).format,
    'qwen3_coder',
  );
});

test('hermes analysis: the bundled samples', async () => {
  await checkSamples('hermes');
});

test('CLI: --format offers every registered format', () => {
  const analyzeCmd = buildProgram().commands.find((c) => c.name() === 'analyze');
  const option = analyzeCmd?.options.find((o) => o.long === '--format');
  assert.deepEqual(option?.argChoices, formatNames());
  for (const name of ['kimi_k2', 'hermes', 'qwen3_coder', 'deepseek_v31', 'harmony']) assert.ok(formatNames().includes(name), name);
});
