/**
 * MiniMax-M2's reference parser (the key/value kernel with MiniMax's tags) on the engines' own test vectors, whole and
 * streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts); detection by markup, then the
 * server's parser name, then the model name; the call writer read back; a leak of its calls is MiniMax's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MinimaxParser, parseMinimax } from '../../../../src/core/formats/minimax/minimaxParser.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { attributeLeaks } from '../../../../src/core/diagnostics/leakAttribution.ts';
import { MINIMAX_FIXTURES, MINIMAX_TOOLS } from '../../../fixtures/minimax/minimaxCompletions.ts';
import { checkDeltas, checkFixture, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new MinimaxParser(options);
const tools = { tools: MINIMAX_TOOLS };

for (const fx of MINIMAX_FIXTURES) {
  test(`minimax one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
    for (const c of parseMinimax(fx.text, fx.options).calls)
      if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

test('minimax: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of MINIMAX_FIXTURES) {
    checkDeltas(make, fx, [
      '<minimax:tool_call>',
      '</minimax:tool_call>',
      '<invoke name=',
      '</invoke>',
      '<parameter name=',
      '</parameter>',
    ]);
    checkNameFirst(make, fx);
  }
});

test('minimax: a string value streams as written, its whitespace included (vLLM keeps it verbatim)', () => {
  const p = new MinimaxParser(tools);
  assert.equal(p.push('<minimax:tool_call>\n<invoke name="get_wea'), null);
  assert.deepEqual(p.push('ther">\n<parameter name="city"> Pa'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city": " Pa' } }],
  });
  // `</parameter>` closes the value once what follows it is a tag that may come next (code may hold the closer).
  assert.deepEqual(p.push('ris </parameter>'), { tool_calls: [{ index: 0, function: { arguments: 'ris ' } }] });
  assert.deepEqual(p.push('\n</invoke>'), { tool_calls: [{ index: 0, function: { arguments: '"}' } }] });
  p.push('\n</minimax:tool_call>');
  p.finish();
  assert.equal(p.result().calls[0]?.arguments, '{"city": " Paris "}');
});

test('minimax: detected by its block, then by the server parser name, then by the model name', () => {
  assert.equal(detectFormat('<minimax:tool_call>\n<invoke name="f">\n</invoke>\n</minimax:tool_call>').name, 'minimax_m2');
  assert.equal(detectFormat('Done.</minimax:tool_call>').name, 'minimax_m2');
  // Its invokes alone are the invoke-xml shape of calls without markup, not the format's markup.
  assert.notEqual(detectFormat('<invoke name="f"></invoke>').name, 'minimax_m2');
  const byParser = resolveFormat({ toolscope: 1, request: { messages: [] }, meta: { parser: 'minimax_m2' } } as never, null);
  assert.deepEqual([byParser.format.name, byParser.basis], ['minimax_m2', 'parser']);
  const byModel = resolveFormat({ toolscope: 1, request: { model: 'MiniMaxAI/MiniMax-M2.5', messages: [] } } as never, null);
  assert.deepEqual([byModel.format.name, byModel.basis], ['minimax_m2', 'model']);
});

test('minimax: the call writer writes what the parser reads back, several calls in one block', () => {
  const format = getFormat('minimax_m2');
  const text = writeCompletion(format.callWriter, 'Checking both.', [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "days": 3}' },
    { name: 'search_web', index: 1, arguments: '{"query": "a <b> & \\"c\\""}' },
  ]);
  assert.match(text, /^Checking both\.\n<minimax:tool_call>\n<invoke name="get_weather">\n/u);
  const r = parseMinimax(text, tools);
  assert.deepEqual(
    r.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [
      ['get_weather', { city: 'Paris', days: 3 }],
      ['search_web', { query: 'a <b> & "c"' }],
    ],
  );
  assert.equal(r.content, 'Checking both.\n');
});

test('minimax: an <invoke> outside a block is text (SGLang reads it so; Claude writes the same XML)', () => {
  const text = '<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>';
  const r = parseMinimax(text, tools);
  assert.deepEqual(r.calls, []);
  assert.equal(r.content, text);
});

test("minimax: a leaked block is MiniMax's in a record read as any format; invokes in a literal <tool_call> (MiniMax-M3 with its namespace token stripped) are MiniMax-M3's, never Hermes' nor any other format's", () => {
  const block =
    '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</minimax:tool_call>';
  // Under an M2-style template (ik_llama.cpp PR 1963), and in M3's own parameter tags (mlx-lm PR 1416).
  const literal = '<tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</tool_call>';
  const m3 = '<tool_call>\n<invoke name="get_weather">\n<city>Paris</city>\n</invoke>\n</tool_call>';
  for (const context of ['hermes', 'qwen3_coder', 'glm', 'hy_v3', 'minimax_m2', 'kimi_k2']) {
    const spans = attributeLeaks(`Let me check. ${block}`, MINIMAX_TOOLS, getFormat(context));
    assert.deepEqual(
      spans.map((s) => [s.format?.name ?? null, s.calls.length]),
      [['minimax_m2', 1]],
      context,
    );
    for (const text of [literal, m3]) {
      const named = attributeLeaks(`Let me check. ${text}`, MINIMAX_TOOLS, getFormat(context)).map((s) => s.format?.name ?? null);
      assert.deepEqual(named, ['minimax_m3'], `${text} in ${context}`);
    }
  }
});
