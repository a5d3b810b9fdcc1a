/** End to end: the Analyzer detects Qwen3-Coder records without --format, types values by the request's tools. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';

const param = (name: string, value: string) => `<parameter=${name}>\n${value}\n</parameter>\n`;
const fn = (name: string, ...params: string[]) => `<tool_call>\n<function=${name}>\n${params.join('')}</function>\n</tool_call>`;

test('qwen3_coder analysis: a clean call is detected, typed by the schema and clean', () => {
  const r = analyze(
    record({
      completion: {
        text: `Checking.\n${fn('get_weather', param('city', 'Paris'), param('days', '3'))}<|im_end|>`,
        finish_reason: 'tool_calls',
      },
    }),
  );
  assert.equal(r.format, 'qwen3_coder');
  assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
  assertClean(r, 'clean');
  assertMarkerChips(r, ['<tool_call>', '</tool_call>', '<|im_end|>']);
});

test('qwen3_coder analysis: unknown tool, schema violation (a value that is not an integer), unterminated call', () => {
  const unknown = analyze(record({ completion: { text: fn('get_stock_price', param('ticker', 'NVDA')) } }));
  assert.ok(kinds(unknown).includes('unknown-tool'));
  const schema = analyze(
    record({ completion: { text: fn('get_weather', param('city', 'Oslo'), param('days', 'three'), param('unit', 'kelvin')) } }),
  );
  assert.deepEqual(
    schema.diagnostics
      .filter((d) => d.kind === 'schema-violation')
      .map((d) => d.path)
      .sort(),
    ['$.days', '$.unit'],
  );
  const cut = analyze(
    record({ completion: { text: '<tool_call>\n<function=search>\n<parameter=query>\nvllm qwen3', finish_reason: 'length' } }),
  );
  assert.ok(kinds(cut).includes('unterminated-call'));
  assert.ok(kinds(cut).includes('invalid-arguments-json'));
});

test('qwen3_coder analysis: invalid JSON from the server, and markup leaked into content', () => {
  const bad = analyze(
    record({
      meta: { format: 'qwen3_coder' },
      response: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    }),
  );
  assert.equal(bad.format, 'qwen3_coder');
  assert.ok(kinds(bad).includes('invalid-arguments-json'));
  const text = fn('search', param('query', 'qwen3 coder tool parser'));
  const leak = analyze(
    record({ completion: { text }, response: { choices: [{ message: { role: 'assistant', content: text }, finish_reason: 'stop' }] } }),
  );
  assert.equal(leak.format, 'qwen3_coder');
  assert.ok(kinds(leak).includes('content-leak'));
  assert.ok(kinds(leak).includes('dropped-call'));
});

test('qwen3_coder analysis: a stream whose string value was cut at its first newline', () => {
  const text = fn('search', param('query', 'line one\nline two'));
  const r = analyze(
    record({
      completion: { text },
      response: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"query": "line one"}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    }),
  );
  assert.ok(kinds(r).includes('arguments-mismatch'));
});

test('qwen3_coder analysis: the bundled samples', async () => {
  await checkSamples('qwen3_coder');
});

test("qwen3_coder analysis: a function without <tool_call> names Qwen3-Coder's markers, never Kimi's", () => {
  const text = 'Sure.\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>';
  const r = analyze(record({ completion: { text } }), { format: 'qwen3_coder' });
  const messages = r.diagnostics.filter((d) => d.kind === 'missing-section-marker').map((d) => d.message);
  assert.ok(messages.length > 0, 'missing-section-marker reported');
  assert.ok(
    messages.some((m) => m.includes('<tool_call>')) && messages.every((m) => !m.includes('<|tool_calls_section')),
    messages.join(' | '),
  );
});
