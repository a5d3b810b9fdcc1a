/**
 * End to end: the Analyzer detects DSML records without --format (V3.2's and V4's blocks), types values by the
 * `string` attribute, shows the tags as marker chips, and reports the failures of the generic samples; a DSML block
 * the client received as reasoning is a call left in the reasoning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record, TOOLS } from '../kit/analysisKit.ts';

const param = (k: string, v: string, string = true) => `<｜DSML｜parameter name="${k}" string="${string}">${v}</｜DSML｜parameter>\n`;
const block = (name: string, params: string[], b = 'tool_calls') =>
  `<｜DSML｜${b}>\n<｜DSML｜invoke name="${name}">\n${params.join('')}</｜DSML｜invoke>\n</｜DSML｜${b}>`;

test('deepseek_dsml analysis: clean V4 and V3.2 calls are detected, typed by the attribute, clean, with marker chips', () => {
  for (const b of ['tool_calls', 'function_calls']) {
    const text = `Paris, three days.</think>\n\nChecking.\n\n${block('get_weather', [param('city', 'Paris'), param('days', '3', false)], b)}<｜end▁of▁sentence｜>`;
    const r = analyze(record({ completion: { text, finish_reason: 'tool_calls' } }), { startInReasoning: true });
    assert.equal(r.format, 'deepseek_dsml', text);
    assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris", "days": 3}' }]);
    assert.equal(r.reasoning, 'Paris, three days.');
    assertClean(r, text);
    assertMarkerChips(r, [
      '</think>',
      `<｜DSML｜${b}>`,
      '<｜DSML｜invoke name="',
      '<｜DSML｜parameter name="',
      '</｜DSML｜parameter>',
      '</｜DSML｜invoke>',
      `</｜DSML｜${b}>`,
    ]);
  }
});

test('deepseek_dsml analysis: unknown tool, a string="true" integer, a call cut by max_tokens, a call inside the think block', () => {
  assert.ok(kinds(analyze(record({ completion: { text: block('get_stock_price', [param('ticker', 'NVDA')]) } }))).includes('unknown-tool'));
  // The model marked 3 as a string: the schema check says so (vLLM's engine would coerce it, SGLang would not).
  const schema = analyze(record({ completion: { text: block('get_weather', [param('city', 'Oslo'), param('days', '3')]) } }));
  assert.deepEqual(
    schema.diagnostics.filter((d) => d.kind === 'schema-violation').map((d) => d.path),
    ['$.days'],
  );
  const cut = analyze(
    record({
      completion: {
        text: '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" string="true">dsml',
        finish_reason: 'length',
      },
    }),
  );
  assert.ok(kinds(cut).includes('unterminated-call'));
  assert.ok(kinds(cut).includes('invalid-arguments-json'));
  const inThink = analyze(record({ completion: { text: `<think>I could ${block('get_weather', [param('city', 'Oslo')])}</think>Done.` } }));
  assert.equal(inThink.format, 'deepseek_dsml');
  assert.ok(kinds(inThink).includes('call-in-think'), kinds(inThink).join(', '));
});

test('deepseek_dsml analysis: a block the client received as reasoning is a call left in the reasoning', () => {
  const r = analyze(
    record({
      request: { model: 'deepseek-ai/DeepSeek-V4-Flash', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: TOOLS },
      response: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'deepseek-ai/DeepSeek-V4-Flash',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              reasoning_content: `Let me look.\n\n${block('get_weather', [param('city', 'Oslo')])}`,
            },
            finish_reason: 'stop',
          },
        ],
      },
    }),
  );
  assert.equal(r.format, 'deepseek_dsml');
  const found = r.diagnostics.filter((d) => d.kind === 'call-in-reasoning');
  assert.deepEqual(
    found.map((d) => [d.where, d.detail]),
    [['reasoning', 'deepseek_dsml']],
    JSON.stringify(r.diagnostics.map((d) => d.kind)),
  );
});

test('deepseek_dsml analysis: the bundled samples fire their kinds and the clean one is clean', async () => {
  await checkSamples('deepseek_dsml');
});
