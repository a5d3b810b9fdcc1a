/**
 * Hy3's reference parser (the key/value kernel with Hy3's tags, bare and `:opensource`) on vLLM's own test vectors,
 * whole and streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts); detection by
 * markup, then the server's parser name, then the model name; the call writer read back; leaks named Hy3's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hy3Parser, parseHy3 } from '../../../../src/core/formats/hy3/hy3Parser.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { attributeLeaks } from '../../../../src/core/diagnostics/leakAttribution.ts';
import { HY3_FIXTURES, HY3_TOOLS } from '../../../fixtures/hy3/hy3Completions.ts';
import { checkDeltas, checkFixture, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new Hy3Parser(options);
const tools = { tools: HY3_TOOLS };

for (const fx of HY3_FIXTURES) {
  test(`hy3 one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
    for (const c of parseHy3(fx.text, fx.options).calls)
      if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

test('hy3: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of HY3_FIXTURES) {
    checkDeltas(make, fx, ['<tool_calls', '<tool_call', '<tool_sep', '<arg_key', '</arg_key', '<arg_value', '</arg_value']);
    checkNameFirst(make, fx);
  }
});

test('hy3: a <tool_call> whose name <tool_sep> does not end is no call (a Hermes or GLM call is not read as Hy3)', () => {
  const hermes = parseHy3('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', tools);
  assert.deepEqual(hermes.calls, []);
  const glm = parseHy3('<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>', tools);
  assert.deepEqual(glm.calls, []);
});

test('hy3: an argument tag before <tool_sep> ends the name as no call, whole and streamed (mlx-lm PR 1211)', () => {
  // A 4-bit checkpoint closed the name with `</arg_value>`: vLLM's regex finds no call; the tag is never read as
  // part of the name (which made an undeclared tool `calculate_circle_area</arg_value:opensource>`).
  const text = '<tool_call:opensource>calculate_circle_area</arg_value:opensource>';
  for (const pieces of [[text], [...text]]) {
    const parser = new Hy3Parser(tools);
    for (const p of pieces) parser.push(p);
    parser.finish();
    const r = parser.result();
    assert.deepEqual(r.calls, []);
    assert.equal(r.content, text);
    assert.ok(r.notes.some((n) => n.kind === 'stray-marker' && n.detail.includes('without <tool_sep>')));
  }
});

test('hy3: detected by its section or separator (bare or suffixed), then by the server parser name, then by the model name', () => {
  assert.equal(detectFormat('<tool_calls>\n<tool_call>f<tool_sep>\n</tool_call>\n</tool_calls>').name, 'hy_v3');
  assert.equal(detectFormat('<tool_call:opensource>f<tool_sep:opensource></tool_call:opensource>').name, 'hy_v3');
  assert.equal(detectFormat('<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>').name, 'glm');
  const byParser = resolveFormat({ toolscope: 1, request: { messages: [] }, meta: { parser: 'hy_v3' } } as never, null);
  assert.deepEqual([byParser.format.name, byParser.basis], ['hy_v3', 'parser']);
  const byModel = resolveFormat({ toolscope: 1, request: { model: 'tencent/Hy3', messages: [] } } as never, null);
  assert.deepEqual([byModel.format.name, byModel.basis], ['hy_v3', 'model']);
});

test('hy3: the call writer writes the suffixed spelling the parser reads back', () => {
  const text = writeCompletion(getFormat('hy_v3').callWriter, 'Checking.', [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "days": 3}' },
    { name: 'get_current_date', index: 1, arguments: '{}' },
  ]);
  assert.match(text, /^Checking\.<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n/u);
  const r = parseHy3(text, tools);
  assert.deepEqual(
    r.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [
      ['get_weather', { city: 'Paris', days: 3 }],
      ['get_current_date', {}],
    ],
  );
  assert.equal(r.content, 'Checking.');
});

test("hy3: a leaked section, bare or suffixed, is Hy3's in a record read as any format", () => {
  const S = ':opensource';
  const calls = [
    '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>\n</tool_calls>',
    `<tool_calls${S}>\n<tool_call${S}>get_weather<tool_sep${S}>\n<arg_key${S}>city</arg_key${S}>\n<arg_value${S}>Paris</arg_value${S}>\n</tool_call${S}>\n</tool_calls${S}>`,
  ];
  for (const context of ['hermes', 'glm', 'qwen3_coder', 'hy_v3', 'kimi_k2']) {
    for (const call of calls) {
      const spans = attributeLeaks(`Let me check. ${call}`, HY3_TOOLS, getFormat(context));
      assert.deepEqual(
        spans.map((s) => [s.format?.name ?? null, s.calls.length]),
        [['hy_v3', 1]],
        `${call.slice(0, 14)} in ${context}`,
      );
    }
  }
});
