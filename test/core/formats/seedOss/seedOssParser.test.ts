/**
 * Seed-OSS's reference parser (the key/value kernel as for Qwen3-Coder, Seed's wrapper and think tags) on the engines'
 * own test vectors, whole and streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts);
 * how the format is told apart; the writer; and the what-if's one sentence on why no engine constrains it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSeedOss, SeedOssParser } from '../../../../src/core/formats/seedOss/seedOssParser.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { whatIfForRequest } from '../../../../src/core/guided/whatIf.ts';
import { SEED_OSS_FIXTURES, SEED_OSS_TOOLS } from '../../../fixtures/seedOss/seedOssCompletions.ts';
import { weatherTools } from '../../../fixtures/guided/weatherTool.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new SeedOssParser(options);
const tools = { tools: SEED_OSS_TOOLS };

for (const fx of SEED_OSS_FIXTURES) {
  test(`seed_oss one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
  });
}

test('seed_oss: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of SEED_OSS_FIXTURES) {
    checkDeltas(make, fx, ['<seed:tool_call>', '</seed:tool_call>', '</parameter>', '</seed:think>']);
    checkNameFirst(make, fx);
  }
});

test('seed_oss: the streamed chunks of vLLM test_basic_streaming and the split end marker give the one-shot call', () => {
  for (const chunks of [
    ['<seed:tool_call>\n', '<function=get_weather>\n', '<parameter=city>Tokyo', '</parameter>\n', '</function>\n', '</seed:tool_call>'],
    ['<seed:tool_call>\n<function=get_weather>\n<parameter=location>SF</parameter>\n</function>\n</seed:tool', '_call>'],
  ]) {
    const p = new SeedOssParser(tools);
    for (const chunk of chunks) p.push(chunk);
    p.finish();
    const r = p.result();
    assert.equal(r.content, null);
    assert.equal(r.calls.length, 1);
    assert.equal(r.calls[0]?.name, 'get_weather');
    assert.equal(r.calls[0]?.terminated, true);
  }
});

test('seed_oss: parsing is linear in the length of the text', () => {
  checkLinear(make, '<seed:tool_call>\n<function=read>\n<parameter=path>/x</parameter>\n</function>\n</seed:tool_call>ok ', tools);
});

test("seed_oss is told apart from Qwen3-Coder by its wrapper; then by the server's parser name and the model name", () => {
  assert.equal(detectFormat('<seed:tool_call>\n<function=f>\n</function>\n</seed:tool_call>').name, 'seed_oss');
  assert.equal(detectFormat('<seed:think>hm</seed:think>Hello.').name, 'seed_oss');
  assert.equal(detectFormat('<tool_call>\n<function=f>\n</function>\n</tool_call>').name, 'qwen3_coder');
  const byParser = resolveFormat({ toolscope: 1, request: { messages: [] }, meta: { parser: 'seed_oss' } } as never, null);
  assert.deepEqual([byParser.format.name, byParser.basis], ['seed_oss', 'parser']);
  const byModel = resolveFormat({ toolscope: 1, request: { model: 'ByteDance-Seed/Seed-OSS-36B-Instruct', messages: [] } } as never, null);
  assert.deepEqual([byModel.format.name, byModel.basis], ['seed_oss', 'model']);
});

test('seed_oss call writer writes what the parser reads back', () => {
  const text = writeCompletion(getFormat('seed_oss').callWriter, 'Checking.', [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "days": 3}' },
    { name: 'read', index: 1, arguments: '{"path": "/tmp/x"}' },
  ]);
  assert.equal(
    text,
    'Checking.\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n<parameter=days>3</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=read>\n<parameter=path>/tmp/x</parameter>\n</function>\n</seed:tool_call>',
  );
  const r = parseSeedOss(text, tools);
  assert.equal(r.content, 'Checking.\n');
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments]),
    [
      ['get_weather', '{"city": "Paris", "days": 3}'],
      ['read', '{"path": "/tmp/x"}'],
    ],
  );
});

test('seed_oss what-if: no engine constrains it, said in one sentence, no grammar invented', async () => {
  const r = await whatIfForRequest(
    { tools: weatherTools, tool_choice: 'auto' },
    { text: '<seed:tool_call>\n<function=read>\n<parameter=path>/x</parameter>\n</function>\n</seed:tool_call>', tokens: [] },
    { format: 'seed_oss' },
  );
  assert.equal(r.ran, false);
  assert.equal(r.ran === false && r.unavailable, false);
  assert.match(r.ran === false ? r.why : '', /no serving engine constrains Seed-OSS .*structural_tag_model = None/u);
  assert.equal(getFormat('seed_oss').guided, undefined);
});
