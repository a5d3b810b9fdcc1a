/**
 * GLM's reference parser (the key/value kernel with GLM's tags) on the engines' own test vectors, both layouts, whole
 * and streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts), and how the format is
 * told apart from the other `<tool_call>` formats.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GlmParser, parseGlm } from '../../../../src/core/formats/glm/glmParser.ts';
import { detectFormat, findFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { GLM_FIXTURES, GLM_TOOLS } from '../../../fixtures/glm/glmCompletions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new GlmParser(options);
const tools = { tools: GLM_TOOLS };

for (const fx of GLM_FIXTURES) {
  test(`glm one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
    for (const c of parseGlm(fx.text, fx.options).calls)
      if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

test('glm: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of GLM_FIXTURES) {
    checkDeltas(make, fx, ['<tool_call>', '</tool_call>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>', '</think>']);
    checkNameFirst(make, fx);
  }
});

test('glm: string values stream as written, surrounding whitespace held back; typed values go out whole', () => {
  const p = new GlmParser(tools);
  assert.equal(p.push('<tool_call>get_wea'), null);
  assert.deepEqual(p.push('ther\n<arg_key>city</arg_key>\n<arg_value> Pa'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city": "Pa' } }],
  });
  // Trailing whitespace may be layout before </arg_value>: held back until text follows it.
  assert.deepEqual(p.push('ris \n'), { tool_calls: [{ index: 0, function: { arguments: 'ris' } }] });
  assert.deepEqual(p.push('</arg_value>\n<arg_key>days</arg_key><arg_value>1'), {
    tool_calls: [{ index: 0, function: { arguments: '", "days": ' } }],
  });
  assert.deepEqual(p.push('4</arg_value>\n</tool_call>'), { tool_calls: [{ index: 0, function: { arguments: '14}' } }] });
  assert.equal(p.finish(), null);
});

test('glm: the streamed vLLM glm47 chunks (TestGlm47Streaming.test_with_args) give the one-shot call', () => {
  const p = new GlmParser(tools);
  for (const chunk of ['<tool_call>', 'get_weather\n', '<arg_key>city</arg_key>', '<arg_value>', 'Beijing', '</arg_value>', '</tool_call>'])
    p.push(chunk);
  p.finish();
  assert.deepEqual(
    p.result().calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [['get_weather', { city: 'Beijing' }]],
  );
});

test('glm: a value not typed by the schema is JSON when it parses, as the engines json.loads it', () => {
  const r = parseGlm(
    '<tool_call>unknown_tool<arg_key>n</arg_key><arg_value>3</arg_value><arg_key>s</arg_key><arg_value>2025-08-01</arg_value></tool_call>',
  );
  assert.equal(r.calls[0]?.arguments, '{"n": 3, "s": "2025-08-01"}');
});

test('glm: parsing is linear in the length of the text', () => {
  checkLinear(make, '<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>ok ', tools);
});

test('glm is told apart from Hermes and Qwen3-Coder by its layout', () => {
  for (const text of [
    '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>',
    'Sure.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>',
    '<tool_call>get_current_date</tool_call>',
    '<tool_call>get_current_date\n</tool_call>',
  ])
    assert.equal(detectFormat(text).name, 'glm', text);
  assert.equal(detectFormat('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>').name, 'hermes');
  assert.equal(detectFormat('<tool_call>\n<function=f>\n</function>\n</tool_call>').name, 'qwen3_coder');
  // Without markup: the server's parser name, then the model name.
  assert.equal(findFormat('glm')?.name, 'glm');
  const byParser = resolveFormat({ toolscope: 1, request: { messages: [] }, meta: { parser: 'glm47' } } as never, null);
  assert.deepEqual([byParser.format.name, byParser.basis], ['glm', 'parser']);
  const byModel = resolveFormat({ toolscope: 1, request: { model: 'zai-org/GLM-4.6', messages: [] } } as never, null);
  assert.deepEqual([byModel.format.name, byModel.basis], ['glm', 'model']);
});

test('glm call writer writes the GLM-4.7 layout the parser reads back', () => {
  const writer = getFormat('glm').callWriter;
  const text = writeCompletion(writer, 'Checking.', [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "days": 3}' },
    { name: 'get_current_date', index: 1, arguments: '{}' },
  ]);
  assert.equal(
    text,
    'Checking.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call><tool_call>get_current_date</tool_call>',
  );
  const r = parseGlm(text, tools);
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments]),
    [
      ['get_weather', '{"city": "Paris", "days": 3}'],
      ['get_current_date', '{}'],
    ],
  );
});
