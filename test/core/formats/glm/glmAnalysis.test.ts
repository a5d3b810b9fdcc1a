/** End to end: the Analyzer detects GLM records without --format, types values by the request's tools, shows markers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';

const arg = (key: string, value: string) => `<arg_key>${key}</arg_key><arg_value>${value}</arg_value>`;
const call47 = (name: string, ...args: string[]) => `<tool_call>${name}${args.join('')}</tool_call>`;
const call45 = (name: string, ...args: string[]) =>
  `<tool_call>${name}\n${args.map((a) => a.replace('</arg_key>', '</arg_key>\n')).join('\n')}\n</tool_call>`;

test('glm analysis: clean calls in both layouts are detected, typed by the schema, clean, with marker chips', () => {
  for (const text of [
    `<think>Paris, three days.</think>Checking.${call47('get_weather', arg('city', 'Paris'), arg('days', '3'))}<|observation|>`,
    `<think>Paris, three days.</think>\nChecking.\n${call45('get_weather', arg('city', 'Paris'), arg('days', '3'))}<|observation|>`,
  ]) {
    const r = analyze(record({ completion: { text, finish_reason: 'tool_calls' } }));
    assert.equal(r.format, 'glm', text);
    assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    assert.equal(r.reasoning, 'Paris, three days.');
    assertClean(r, text);
    assertMarkerChips(r, [
      '<think>',
      '</think>',
      '<tool_call>',
      '</tool_call>',
      '<arg_key>',
      '</arg_key>',
      '<arg_value>',
      '</arg_value>',
      '<|observation|>',
    ]);
  }
});

test('glm analysis: unknown tool, schema violation, a call cut by max_tokens, a call inside the think block', () => {
  assert.ok(kinds(analyze(record({ completion: { text: call47('get_stock_price', arg('ticker', 'NVDA')) } }))).includes('unknown-tool'));
  const schema = analyze(record({ completion: { text: call47('get_weather', arg('city', 'Oslo'), arg('days', 'three')) } }));
  assert.deepEqual(
    schema.diagnostics.filter((d) => d.kind === 'schema-violation').map((d) => d.path),
    ['$.days'],
  );
  const cut = analyze(
    record({ completion: { text: '<tool_call>search<arg_key>query</arg_key><arg_value>glm tool', finish_reason: 'length' } }),
  );
  assert.ok(kinds(cut).includes('unterminated-call'));
  assert.ok(kinds(cut).includes('invalid-arguments-json'));
  const inThink = analyze(record({ completion: { text: `<think>I could ${call47('get_weather', arg('city', 'Oslo'))}</think>Done.` } }));
  assert.equal(inThink.format, 'glm');
  assert.ok(
    kinds(inThink).some((k) => k.startsWith('call-in-')),
    kinds(inThink).join(', '),
  );
});

test('glm analysis: the bundled samples fire their kinds and the clean one is clean', async () => {
  await checkSamples('glm');
});
