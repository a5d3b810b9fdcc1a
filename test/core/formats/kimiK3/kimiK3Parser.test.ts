/**
 * Kimi K3's reference parser (the key/value kernel with K3's attributed tags) on vLLM's own test vectors, whole and
 * streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts); detection by markup, then the
 * server's parser name, then the model name; the writer; the marker list holds the dedicated tokens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KimiK3Parser, parseKimiK3 } from '../../../../src/core/formats/kimiK3/kimiK3Parser.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { KIMI_K3_FIXTURES, KIMI_K3_TOOLS } from '../../../fixtures/kimiK3/kimiK3Completions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new KimiK3Parser(options);
const tools = { tools: KIMI_K3_TOOLS };
const CALL =
  '<|open|>tools<|sep|><|open|>call tool="calc" index="1"<|sep|><|open|>argument key="x" type="number"<|sep|>42<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>';

for (const fx of KIMI_K3_FIXTURES) {
  test(`kimi_k3 one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
    for (const c of parseKimiK3(fx.text, fx.options).calls)
      if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

test('kimi_k3: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of KIMI_K3_FIXTURES) {
    if (fx.notes?.includes('call-in-think')) continue;
    checkDeltas(make, fx, ['<|open|>', '<|close|>', '<|sep|>']);
    checkNameFirst(make, fx);
  }
});

test('kimi_k3: the chunks of kimi_k3_streaming_splits_markers_across_chunks (1, 3 and 7 characters) give the whole parse', () => {
  const text = `<|open|>think<|sep|>step by step<|close|>think<|sep|><|open|>response<|sep|>the answer<|close|>response<|sep|>${CALL}<|close|>message<|sep|>`;
  for (const size of [1, 3, 7]) {
    const p = new KimiK3Parser();
    for (let i = 0; i < text.length; i += size) p.push(text.slice(i, i + size));
    p.finish();
    const r = p.result();
    assert.equal(r.reasoning, 'step by step');
    assert.equal(r.content, 'the answer');
    assert.deepEqual(
      r.calls.map((c) => [c.name, c.arguments]),
      [['calc', '{"x": 42}']],
    );
  }
});

test('kimi_k3: a string value streams as it is written; a typed one goes out when its argument closes', () => {
  const p = new KimiK3Parser(tools);
  assert.equal(p.push('<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"'), null);
  assert.deepEqual(p.push('<|sep|><|open|>argument key="city" type="string"<|sep|>Hang'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city": "Hang' } }],
  });
  assert.deepEqual(p.push('zhou <|close|>argument<|sep|><|open|>argument key="days" type="number"<|sep|>2'), {
    tool_calls: [{ index: 0, function: { arguments: 'zhou ", "days": ' } }],
  });
  assert.deepEqual(p.push('<|close|>argument<|sep|><|close|>call<|sep|>'), { tool_calls: [{ index: 0, function: { arguments: '2}' } }] });
  p.push('<|close|>tools<|sep|>');
  p.finish();
});

test("kimi_k3: the parse's marker list holds the dedicated tokens of each tag, at their own spans", () => {
  const r = parseKimiK3(CALL);
  assert.ok(r.markers.length > 0);
  for (const m of r.markers) {
    assert.ok(['<|open|>', '<|close|>', '<|sep|>'].includes(m.text), m.text);
    assert.equal(CALL.slice(m.span.start, m.span.end), m.text);
  }
  // Every dedicated token of the call is markup here: 2 per opening tag and 2 per closing one.
  assert.equal(r.markers.length, (CALL.match(/<\|(?:open|close|sep)\|>/gu) ?? []).length);
});

test('kimi_k3: parsing is linear in the length of the text', () => {
  checkLinear(make, `${CALL}ok `, tools);
});

test("kimi_k3 is detected by its markup, then by the server's parser name, then by the model name (not Kimi K2's)", () => {
  assert.equal(detectFormat(CALL).name, 'kimi_k3');
  assert.equal(detectFormat('answer<|close|>response<|sep|>').name, 'kimi_k3');
  assert.equal(
    detectFormat('<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>').name,
    'kimi_k2',
  );
  const byParser = resolveFormat({ toolscope: 1, request: { messages: [] }, meta: { parser: 'kimi_k3' } } as never, null);
  assert.deepEqual([byParser.format.name, byParser.basis], ['kimi_k3', 'parser']);
  for (const model of ['moonshotai/Kimi-K3', 'kimi-k3']) {
    const byModel = resolveFormat({ toolscope: 1, request: { model, messages: [] } } as never, null);
    assert.deepEqual([byModel.format.name, byModel.basis], ['kimi_k3', 'model'], model);
  }
  const k2 = resolveFormat({ toolscope: 1, request: { model: 'moonshotai/Kimi-K2-Instruct', messages: [] } } as never, null);
  assert.equal(k2.format.name, 'kimi_k2');
});

test('kimi_k3 call writer writes the renderer’s layout, typed, which the parser reads back', () => {
  const text = writeCompletion(getFormat('kimi_k3').callWriter, "I'll check.", [
    {
      name: 'get_weather',
      index: 0,
      arguments: '{"city": "Hangzhou", "days": 1, "detailed": false, "extra": null, "hours": [8], "o": {"a": "b"}}',
    },
    { name: 'get_time', index: 1, arguments: '{}' },
  ]);
  assert.equal(
    text,
    `I'll check.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Hangzhou<|close|>argument<|sep|><|open|>argument key="days" type="number"<|sep|>1<|close|>argument<|sep|><|open|>argument key="detailed" type="boolean"<|sep|>false<|close|>argument<|sep|><|open|>argument key="extra" type="null"<|sep|>null<|close|>argument<|sep|><|open|>argument key="hours" type="array"<|sep|>[8]<|close|>argument<|sep|><|open|>argument key="o" type="object"<|sep|>{"a":"b"}<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool="get_time" index="2"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
  );
  const r = parseKimiK3(text, tools);
  assert.equal(r.content, "I'll check.");
  assert.deepEqual(
    r.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [
      ['get_weather', { city: 'Hangzhou', days: 1, detailed: false, extra: null, hours: [8], o: { a: 'b' } }],
      ['get_time', {}],
    ],
  );
});
