import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A, B, C, E, S, TOOLS, analyze, completionResponse, ofKind, record, stream } from './analyze.helpers.ts';
import { findBareJsonCalls, jsonObjectEnd } from '../../../src/core/diagnostics/bareJsonCalls.ts';

function withReasoning(reasoning: string, calls: Array<{ id: string; name: string; arguments: string }> = []) {
  const response = completionResponse(null, calls, calls.length ? 'tool_calls' : 'stop');
  (response.choices[0]!.message as Record<string, unknown>).reasoning_content = reasoning;
  return record({ response });
}

test('call-in-reasoning: a Kimi K2 section in reasoning_content names the calls the client never got', () => {
  const reasoning = `Let me look. ${S}${B}functions.get_weather:0${A}{"city": "Paris"}${C}${B}functions.search:1${A}{"query": "x"}${C}${E}`;
  const r = analyze(withReasoning(reasoning));
  const [d, ...rest] = ofKind(r, 'call-in-reasoning');
  assert.ok(d);
  assert.equal(rest.length, 0);
  assert.equal(d.code, 'TS032');
  assert.equal(d.severity, 'error');
  assert.equal(d.where, 'reasoning');
  assert.equal(d.detail, 'kimi_k2');
  assert.equal(d.charStart, reasoning.indexOf(S));
  assert.equal(d.charEnd, reasoning.length - E.length);
  assert.equal(d.tokenStart, null);
  assert.match(d.message, /2 tool calls in Kimi K2 markup \(get_weather, search\)/u);
  assert.match(d.message, /none reached the client as tool_calls, so it executed nothing/u);
  // The response holds no markup in content: no content-leak.
  assert.deepEqual(ofKind(r, 'content-leak'), []);
});

test('call-in-reasoning: DeepSeek-V3.1 markup streamed as `reasoning` deltas, cut mid-marker', () => {
  const parts = [
    'Need weather.',
    '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather',
    '<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁en',
  ];
  const r = analyze(
    record({
      response: stream(
        parts.map((p) => ({ reasoning: p })),
        'stop',
      ),
    }),
  );
  const [d] = ofKind(r, 'call-in-reasoning');
  assert.ok(d);
  assert.equal(d.detail, 'deepseek_v31');
  assert.equal(d.charStart, 'Need weather.'.length);
  assert.match(d.message, /\(get_weather\)/u);
});

test('call-in-reasoning: Hermes <tool_call> JSON in the reasoning of a record detected as another format', () => {
  const r = analyze(withReasoning('I will call it.\n<tool_call>\n{"name": "search", "arguments": {"query": "q"}}\n</tool_call>'));
  const [d] = ofKind(r, 'call-in-reasoning');
  assert.ok(d);
  assert.ok(d.detail === 'hermes' || d.detail === 'qwen3_coder', d.detail);
  assert.match(d.message, /search/u);
});

test('call-in-reasoning: a bare JSON call naming an offered tool; JSON naming no offered tool is prose', () => {
  const text = 'The call is {"name": "get_weather", "arguments": {"city": "Rome"}} and {"name": "nope", "arguments": {}}';
  const r = analyze(withReasoning(text));
  const found = ofKind(r, 'call-in-reasoning');
  assert.equal(found.length, 1);
  assert.equal(found[0]!.detail, 'bare-json');
  assert.equal(found[0]!.charStart, text.indexOf('{"name": "get_weather"'));
  assert.match(found[0]!.message, /get_weather/u);
  assert.doesNotMatch(found[0]!.message, /nope/u);
  // Without declared tools nothing counts as a bare call.
  const noTools = withReasoning(text);
  delete noTools.request!.tools;
  assert.deepEqual(ofKind(analyze(noTools), 'call-in-reasoning'), []);
});

test('call-in-reasoning: markup left in the reasoning of calls that were also delivered is a warning', () => {
  const reasoning = `${S}${B}functions.get_weather:0${A}{"city": "Paris"}${C}${E}`;
  const [d] = ofKind(
    analyze(withReasoning(reasoning, [{ id: 'functions.get_weather:0', name: 'get_weather', arguments: '{"city": "Paris"}' }])),
    'call-in-reasoning',
  );
  assert.ok(d);
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /also delivered/u);
});

test('call-in-reasoning: reasoning that only talks about tools is left alone', () => {
  const r = analyze(withReasoning('I should use the get_weather tool_call with {"city": "Paris"} next, then answer.'));
  assert.deepEqual(ofKind(r, 'call-in-reasoning'), []);
  assert.equal(TOOLS.length, 3);
});

test('bare JSON calls: strings with braces and escapes, nested objects, string arguments, arrays of calls', () => {
  const text =
    '[{"name": "a", "parameters": {"s": "}{\\"", "n": {"x": [1, {"y": 2}]}}}, {"name": "b", "arguments": "{\\"k\\": 1}"}] {"name": "c"}';
  const calls = findBareJsonCalls(text, null);
  assert.deepEqual(
    calls.map((c) => [c.name, c.key, c.arguments]),
    [
      ['a', 'parameters', '{"s":"}{\\"","n":{"x":[1,{"y":2}]}}'],
      ['b', 'arguments', '{"k": 1}'],
    ],
  );
  assert.equal(text.slice(calls[0]!.start, calls[0]!.end).startsWith('{"name": "a"'), true);
  assert.equal(jsonObjectEnd('{"a": "}"', 0), -1);
  assert.deepEqual(
    findBareJsonCalls(text, new Set(['b'])).map((c) => c.name),
    ['b'],
  );
});
