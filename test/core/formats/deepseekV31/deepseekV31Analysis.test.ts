/** End to end: the Analyzer detects DeepSeek-V3.1 records without --format and reports what went wrong in them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';

const S = '<｜tool▁calls▁begin｜>';
const E = '<｜tool▁calls▁end｜>';
const call = (name: string, args: string) => `<｜tool▁call▁begin｜>${name}<｜tool▁sep｜>${args}<｜tool▁call▁end｜>`;

test('deepseek_v31 analysis: a clean call is detected and clean; markers are single tokens', () => {
  const r = analyze(
    record({
      completion: {
        text: `Checking.${S}${call('get_weather', '{"city": "Paris"}')}${call('search', '{"query": "x"}')}${E}<｜end▁of▁sentence｜>`,
        finish_reason: 'tool_calls',
      },
    }),
  );
  assert.equal(r.format, 'deepseek_v31');
  assert.deepEqual(
    r.calls.map((c) => c.name),
    ['get_weather', 'search'],
  );
  assertClean(r, 'clean');
  assertMarkerChips(r, [S, E, '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>', '<｜tool▁call▁end｜>', '<｜end▁of▁sentence｜>']);
});

test('deepseek_v31 analysis: thinking mode with --think-open, and without it', () => {
  const text = `The user wants the weather.</think>${S}${call('get_weather', '{"city": "Lima"}')}${E}`;
  const open = analyze(record({ completion: { text } }), { startInReasoning: true });
  assert.equal(open.reasoning, 'The user wants the weather.');
  assertClean(open, 'think open');
  const closed = analyze(record({ completion: { text } }));
  assert.ok(kinds(closed).includes('stray-marker'));
  assert.match(closed.diagnostics.find((d) => d.kind === 'stray-marker')?.hint ?? '', /starting in reasoning/);
});

test('deepseek_v31 analysis: unknown tool, schema violation, invalid JSON, unterminated call, newline before the name', () => {
  assert.ok(kinds(analyze(record({ completion: { text: `${S}${call('get_stock_price', '{"t": 1}')}${E}` } }))).includes('unknown-tool'));
  assert.ok(
    kinds(analyze(record({ completion: { text: `${S}${call('get_weather', '{"city": ""}')}${E}` } }))).includes('schema-violation'),
  );
  assert.ok(
    kinds(analyze(record({ completion: { text: `${S}${call('get_weather', "{'city': 'Oslo'}")}${E}` } }))).includes(
      'invalid-arguments-json',
    ),
  );
  const cut = analyze(
    record({ completion: { text: `${S}<｜tool▁call▁begin｜>search<｜tool▁sep｜>{"query": "dee`, finish_reason: 'length' } }),
  );
  assert.ok(kinds(cut).includes('unterminated-call'));
  // A section cut off by truncation is reported as the unterminated call, not also as a missing section end.
  assert.ok(!kinds(cut).includes('missing-section-marker'));
  const newline = analyze(
    record({ completion: { text: `${S}<｜tool▁call▁begin｜>\nget_weather<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁end｜>${E}` } }),
  );
  assert.equal(newline.calls[0]?.name, 'get_weather');
  assert.ok(kinds(newline).includes('marker-whitespace'));
});

test('deepseek_v31 analysis: markup leaked into the recorded response content', () => {
  const text = `${S}${call('search', '{"query": "deepseek v3.1 tool calls"}')}${E}`;
  const r = analyze(
    record({ completion: { text }, response: { choices: [{ message: { role: 'assistant', content: text }, finish_reason: 'stop' }] } }),
  );
  assert.equal(r.format, 'deepseek_v31');
  assert.ok(kinds(r).includes('content-leak'));
});

test('deepseek_v31 analysis: the bundled samples', async () => {
  await checkSamples('deepseek_v31');
});

test("deepseek_v31 analysis: a call without its section names DeepSeek's markers, never Kimi's", () => {
  const r = analyze(record({ completion: { text: `Sure. ${call('get_weather', '{"city": "Oslo"}')} Done.` } }), { format: 'deepseek_v31' });
  const messages = r.diagnostics.filter((d) => d.kind === 'missing-section-marker').map((d) => d.message);
  assert.ok(messages.length > 0, 'missing-section-marker reported');
  assert.ok(messages.some((m) => m.includes(S)) && messages.every((m) => !m.includes('<|tool_calls_section')), messages.join(' | '));
});
