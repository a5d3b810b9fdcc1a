import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HarmonyParser, parseHarmony } from '../../../../src/core/formats/harmony/harmonyParser.ts';
import { harmonyFormat } from '../../../../src/core/formats/harmony/harmonyFormat.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { HARMONY_FIXTURES } from '../../../fixtures/harmonyCompletions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new HarmonyParser(options);
const MARKERS = ['<|start|>', '<|end|>', '<|message|>', '<|channel|>', '<|constrain|>', '<|return|>', '<|call|>'];

for (const fx of HARMONY_FIXTURES) {
  test(`harmony one-shot parse: ${fx.name}`, () => checkFixture(make, fx, { argumentsVerbatim: true }));
}

test('harmony: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of HARMONY_FIXTURES) {
    checkDeltas(make, fx, MARKERS);
    checkNameFirst(make, fx);
  }
});

test('harmony: the call is announced at <|message|>, arguments stream', () => {
  const p = new HarmonyParser();
  assert.equal(p.push('<|channel|>commentary to=functions.get_weather <|constrain|>json'), null);
  assert.deepEqual(p.push('<|message|>{"ci'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }],
  });
  assert.deepEqual(p.push('ty":"Paris"}<|ca'), { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] });
  assert.equal(p.push('ll|>'), null);
  assert.equal(p.result().calls[0]?.terminated, true);
});

test('harmony: result() mid-stream shows the open call', () => {
  const p = new HarmonyParser();
  p.push('<|channel|>commentary to=functions.f<|message|>{"a": ');
  const r = p.result();
  assert.equal(r.calls[0]?.name, 'f');
  assert.equal(r.calls[0]?.arguments, '{"a":');
  assert.equal(r.calls[0]?.terminated, false);
});

test('harmony: every marker is recorded; the call spans its whole message', () => {
  const fx = HARMONY_FIXTURES.find((f) => f.name === 'analysis then a call');
  assert.ok(fx);
  const r = parseHarmony(fx.text);
  assert.deepEqual(
    r.markers.map((m) => m.name),
    ['channel', 'message', 'end', 'start', 'channel', 'constrain', 'message', 'call'],
  );
  const c = r.calls[0];
  assert.ok(c);
  assert.ok(fx.text.slice(c.span.start, c.span.end).startsWith('<|start|>assistant<|channel|>commentary'));
  assert.ok(fx.text.slice(c.span.start, c.span.end).endsWith('<|call|>'));
});

test('harmony: linear time in the size of the input', () => {
  checkLinear(make, '<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": "x < y"}<|call|>');
  checkLinear(make, '<|start|>assistant<|channel|>analysis<|message|>long thinking < with brackets <| and bars |> here.<|end|>');
});

test('harmony format: registered, detected from its markers, no call ids', () => {
  assert.equal(getFormat('harmony'), harmonyFormat);
  for (const fx of HARMONY_FIXTURES.filter((f) => f.text.includes('<|channel|>') || f.text.includes('<|message|>')))
    assert.equal(detectFormat(fx.text).name, 'harmony', fx.name);
  assert.equal(
    detectFormat(
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
    ).name,
    'kimi_k2',
  );
  assert.equal(harmonyFormat.callIds, undefined);
  // What a server decoding with skip_special_tokens lets through is recognised as a leak.
  assert.ok(harmonyFormat.leakFragments.some((f) => 'analysisThe user asks.assistantfinalHello'.includes(f)));
});
