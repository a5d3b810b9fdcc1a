/**
 * DeepSeek DSML's reference parser (the key/value kernel with DSML's tags) on the engines' own test vectors, whole
 * and streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts); how the format is told
 * apart from DeepSeek-V3.1's; the call writer read back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeepSeekDsmlParser, parseDsml } from '../../../../src/core/formats/deepseekDsml/dsmlParser.ts';
import { dsmlShapeOf } from '../../../../src/core/formats/deepseekDsml/dsmlStructuralTag.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { formatOfModel, formatOfParser } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { DSML_FIXTURES, DSML_TOOLS } from '../../../fixtures/deepseekDsml/dsmlCompletions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new DeepSeekDsmlParser(options);
const tools = { tools: DSML_TOOLS };

for (const fx of DSML_FIXTURES) {
  test(`deepseek_dsml one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
    for (const c of parseDsml(fx.text, fx.options).calls)
      if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

test('deepseek_dsml: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of DSML_FIXTURES) {
    checkDeltas(make, fx, ['｜DSML｜', '</think>']);
    checkNameFirst(make, fx);
  }
});

test('deepseek_dsml: string="true" values stream as written, string="false" values go out whole (vLLM test_emits_arguments_before_invoke_completes)', () => {
  const p = new DeepSeekDsmlParser(tools);
  assert.equal(p.push('<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_wea'), null);
  assert.deepEqual(p.push('ther">\n<｜DSML｜parameter name="city" string="true">Pa'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city": "Pa' } }],
  });
  assert.deepEqual(p.push('ris </｜DSML｜parameter>\n<｜DSML｜parameter name="days" string="false">1'), {
    tool_calls: [{ index: 0, function: { arguments: 'ris ", "days": ' } }],
  });
  assert.deepEqual(p.push('4</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'), {
    tool_calls: [{ index: 0, function: { arguments: '14}' } }],
  });
  assert.equal(p.finish(), null);
});

test('deepseek_dsml: the vLLM BPE-chunked opener (deepseek_v32_streaming_handles_bpe_chunked_dsml_opener) gives the one-shot call', () => {
  const chunks = ['<｜DSML｜', 'function', '_c', 'all', 's', '>\n', '<｜DSML｜', 'invoke', ' name="', 'get_weather', '">\n', '<｜DSML｜'];
  chunks.push('parameter', ' name="location" string="true">', 'Beijing', '</｜DSML｜', 'parameter>\n', '</｜DSML｜', 'invoke>\n');
  chunks.push('</｜DSML｜', 'function_calls>');
  const p = new DeepSeekDsmlParser(tools);
  let content = '';
  for (const c of chunks) content += p.push(c)?.content ?? '';
  content += p.finish()?.content ?? '';
  assert.equal(content, '');
  assert.deepEqual(
    p.result().calls.map((c) => [c.name, c.arguments]),
    [['get_weather', '{"location": "Beijing"}']],
  );
});

test('deepseek_dsml: a false partial marker is content (vLLM test_false_partial_marker_emitted)', () => {
  assert.equal(parseDsml('<｜DSM some regular text').content, '<｜DSM some regular text');
});

test('deepseek_dsml: told apart from DeepSeek-V3.1 by markup, then the server parser name, then the model name', () => {
  for (const fx of DSML_FIXTURES.filter((f) => f.calls.length)) assert.equal(detectFormat(fx.text).name, 'deepseek_dsml', fx.name);
  assert.equal(
    detectFormat('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>').name,
    'deepseek_v31',
  );
  for (const parser of ['deepseek_v32', 'deepseek_v4', 'deepseekv41']) assert.equal(formatOfParser(parser)?.name, 'deepseek_dsml');
  assert.equal(formatOfParser('deepseek_v31')?.name, 'deepseek_v31');
  for (const model of ['deepseek-ai/DeepSeek-V3.2', 'deepseek-ai/DeepSeek-V4-Flash', 'deepseek/deepseek-v4.1-flash'])
    assert.equal(formatOfModel(model)?.name, 'deepseek_dsml', model);
  assert.equal(formatOfModel('deepseek-ai/DeepSeek-V3.1-Terminus')?.name, 'deepseek_v31');
  assert.notEqual(formatOfModel('deepseek-ai/DeepSeek-V3.2-Exp')?.name, 'deepseek_dsml');
});

test('deepseek_dsml: the what-if shape follows the block the completion opens', () => {
  assert.equal(dsmlShapeOf('x <｜DSML｜function_calls>'), 'xgrammar-deepseek_v3_2');
  assert.equal(dsmlShapeOf('<｜DSML｜tool_calls>'), 'xgrammar-deepseek_v4');
  assert.equal(dsmlShapeOf('\n\n<｜DSML｜ calls>'), 'sglang-deepseekv41');
  assert.equal(dsmlShapeOf('plain'), undefined);
});

test('deepseek_dsml: the call writer writes V4 calls the parser reads back', () => {
  const text = writeCompletion(getFormat('deepseek_dsml').callWriter, 'Checking.', [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "date": "today"}' },
    { name: 'toggle', index: 1, arguments: '{"enabled": false, "count": 3}' },
  ]);
  assert.ok(text.startsWith('Checking.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n'), text);
  const r = parseDsml(text, tools);
  assert.equal(r.content, 'Checking.\n\n');
  assert.deepEqual(
    r.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [
      ['get_weather', { city: 'Paris', date: 'today' }],
      ['toggle', { enabled: false, count: 3 }],
    ],
  );
  assert.deepEqual(r.notes, []);
});

test('deepseek_dsml: parsing is linear in the length of the text (counted, not timed)', () => {
  const call =
    '<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n';
  checkLinear(make, `<｜DSML｜tool_calls>\n${call}</｜DSML｜tool_calls>ok `, tools);
  // One block holding ever more invokes, and one value holding ever more quoted closers.
  checkLinear(make, call, tools);
  checkLinear(make, '</｜DSML｜parameter> x', tools);
});
