/** End to end: the Analyzer detects gpt-oss Harmony records without --format and reports what went wrong in them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';
import { buildTokenViews } from '../../../../src/host/view/recordView.ts';

const think = (text: string) => `<|channel|>analysis<|message|>${text}<|end|><|start|>assistant`;
const call = (name: string, args: string) => `<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${args}<|call|>`;

test('harmony analysis: a clean call is detected and clean; reasoning from the analysis channel', () => {
  const r = analyze(
    record({ completion: { text: `${think('Need weather.')}${call('get_weather', '{"city":"Paris"}')}`, finish_reason: 'tool_calls' } }),
  );
  assert.equal(r.format, 'harmony');
  assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  assert.equal(r.reasoning, 'Need weather.');
  assert.equal(r.content, null);
  assertClean(r, 'clean');
  assertMarkerChips(r, ['<|channel|>', '<|message|>', '<|end|>', '<|start|>', '<|constrain|>', '<|call|>']);
  // Timeline roles: the analysis text is reasoning, the header names the call, the body is its arguments.
  const roles = new Map(buildTokenViews(r).map((v) => [v.text, v.role]));
  assert.equal(roles.get('Need'), 'reasoning');
  assert.equal(roles.get('json'), 'call-id');
  assert.equal(roles.get('Paris'), 'arguments');
});

test('harmony analysis: unknown tool, schema violation, invalid JSON, unterminated call', () => {
  assert.ok(kinds(analyze(record({ completion: { text: call('get_stock_price', '{"t":1}') } }))).includes('unknown-tool'));
  // A built-in tool the request did not offer is an unknown tool too.
  assert.ok(
    kinds(analyze(record({ completion: { text: '<|channel|>analysis to=browser.search code<|message|>{"query":"x"}<|call|>' } }))).includes(
      'unknown-tool',
    ),
  );
  assert.ok(kinds(analyze(record({ completion: { text: call('get_weather', '{"city":"Oslo","days":0}') } }))).includes('schema-violation'));
  assert.ok(kinds(analyze(record({ completion: { text: call('get_weather', "{'city': 'Oslo'}") } }))).includes('invalid-arguments-json'));
  const cut = analyze(
    record({
      completion: {
        text: `${think('x')}<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"query":"gpt`,
        finish_reason: 'length',
      },
    }),
  );
  assert.ok(kinds(cut).includes('unterminated-call'));
});

test('harmony analysis: header words leaked into content by skip_special_tokens', () => {
  const text = `${think('Need to search.')}${call('search', '{"query":"harmony"}')}`;
  const r = analyze(
    record({
      completion: { text },
      response: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: 'analysisNeed to search.assistantcommentary to=functions.search json{"query":"harmony"}',
            },
            finish_reason: 'stop',
          },
        ],
      },
    }),
  );
  assert.equal(r.format, 'harmony');
  assert.ok(kinds(r).includes('content-leak'));
  assert.ok(kinds(r).includes('dropped-call'));
});

test('harmony analysis: text between messages is reported', () => {
  const r = analyze(
    record({ completion: { text: `<|channel|>analysis<|message|>x<|end|>Sure!<|start|>assistant${call('search', '{"query":"x"}')}` } }),
  );
  assert.ok(kinds(r).includes('text-in-section'));
});

test('harmony analysis: the bundled samples', async () => {
  await checkSamples('harmony');
});

test('harmony analysis: a call that ends the completion without <|call|> is complete unless finish_reason is "length"', () => {
  const text = `${think('Need weather.')}<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}`;
  for (const finish of ['stop', 'tool_calls']) {
    const r = analyze(record({ completion: { text, finish_reason: finish } }));
    const d = r.diagnostics.filter((x) => x.kind === 'unterminated-call');
    assert.deepEqual(
      d.map((x) => [x.severity, x.detail]),
      [['info', 'stop-token-stripped']],
      finish,
    );
    assert.match(d[0]!.message, /servers strip/u);
    assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  }
  const cut = analyze(record({ completion: { text, finish_reason: 'length' } }));
  assert.deepEqual(
    cut.diagnostics.filter((x) => x.kind === 'unterminated-call').map((x) => x.severity),
    ['error'],
  );
});

test('harmony analysis: a call without <|call|> the response dropped is one dropped-call, the stripped stop token its note', () => {
  const text = `${think('Need weather.')}<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Berlin"}`;
  const response = {
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
  };
  const r = analyze(record({ completion: { text }, response }));
  assert.deepEqual(
    r.diagnostics.filter((d) => d.kind === 'unterminated-call' || d.kind === 'dropped-call').map((d) => [d.kind, d.severity]),
    [['dropped-call', 'error']],
  );
  assert.match(r.diagnostics.find((d) => d.kind === 'dropped-call')!.message, /stop token servers strip .*arguments are complete/u);
  // Cut at max_tokens, the call is unterminated, and dropped too: two faults, no note of a complete call.
  const cut = analyze(
    record({ completion: { text }, response: { ...response, choices: [{ ...response.choices[0]!, finish_reason: 'length' }] } }),
  );
  assert.deepEqual(
    cut.diagnostics
      .filter((d) => d.kind === 'unterminated-call' || d.kind === 'dropped-call')
      .map((d) => [d.kind, d.severity])
      .sort(),
    [
      ['dropped-call', 'error'],
      ['unterminated-call', 'error'],
    ],
  );
  assert.doesNotMatch(cut.diagnostics.find((d) => d.kind === 'dropped-call')!.message, /servers strip/u);
});
