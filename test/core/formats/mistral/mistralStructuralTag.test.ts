/**
 * The Mistral format's structural tag: field for field what SGLang builds from `MistralDetector.structure_info`
 * (python/sglang/srt/function_call/mistral_detector.py @ a343daaf647ea0c8c4a05cd2b5cfa0afc9e303f8) through
 * `get_legacy_structural_tag` (function_call_parser.py @ 00828e568a0030e197c825dfa20f5a180b143d04), compiled with
 * web-xgrammar; what it refuses of the layouts Mistral models write, and the what-if's words for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../../src/core/formats/registry.ts';
import { StructuralTagError } from '../../../../src/core/formats/structuralTag/toolChoice.ts';
import { compileStructuralTag, grammarAccepts } from '../../../../src/core/guided/xgrammar.ts';
import { whatIfForRequest } from '../../../../src/core/guided/whatIf.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { guidedCase } from '../../../fixtures/guided/mistral.ts';
import { DOC_TOOLS } from '../../guided/fixtures.ts';

const guided = getFormat('mistral').guided;
const tag = (
  tools: Parameters<NonNullable<typeof guided>['structuralTag']>[0],
  choice: Parameters<NonNullable<typeof guided>['structuralTag']>[1],
) => {
  assert.ok(guided);
  return guided.structuralTag(tools, choice);
};

const callTag = (name: string, schema: unknown) => ({
  type: 'tag',
  begin: `[TOOL_CALLS] [{"name":"${name}", "arguments":`,
  content: { type: 'json_schema', json_schema: schema, style: 'json', any_order: false },
  end: '}]',
});
const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const search = { type: 'object', properties: { q: { type: 'string' } } };
const triggered = (atLeastOne: boolean, tags: unknown[]) => ({
  type: 'structural_tag',
  format: { type: 'triggered_tags', triggers: ['[TOOL_CALLS]'], tags, at_least_one: atLeastOne, stop_after_first: false },
});

test("mistral tag (SGLang's legacy tag): auto, required, named, none — field for field", () => {
  assert.ok(guided);
  assert.equal(guided.builtinStyle, undefined, 'xgrammar has no built-in Mistral tag');
  assert.equal(guided.tagName, "SGLang's mistral structural tag");
  assert.deepEqual(guided.shapes, ['sglang-mistral']);
  const both = [callTag('get_weather', weather), callTag('search', search)];
  assert.deepStrictEqual(tag(DOC_TOOLS, 'auto'), triggered(false, both));
  assert.deepStrictEqual(tag(DOC_TOOLS, undefined), triggered(false, both));
  assert.deepStrictEqual(tag(DOC_TOOLS, 'required'), triggered(true, both));
  assert.deepStrictEqual(tag(DOC_TOOLS, { type: 'function', function: { name: 'search' } }), triggered(true, [callTag('search', search)]));
  const plain = { type: 'structural_tag', format: { type: 'any_text' } };
  assert.deepStrictEqual(tag(DOC_TOOLS, 'none'), plain);
  assert.deepStrictEqual(tag([], 'auto'), plain);
  assert.throws(() => tag([], 'required'), StructuralTagError);
  assert.throws(() => tag(DOC_TOOLS, { type: 'function', function: { name: 'nope' } }), StructuralTagError);
});

test('mistral tag compiles with web-xgrammar: its own spelling passes; v11+ calls and json.dumps spacing do not', async () => {
  const auto = await compileStructuralTag(tag(guidedCase.tools, 'auto'));
  assert.equal(await grammarAccepts(auto, guidedCase.clean), true);
  assert.equal(await grammarAccepts(auto, 'No call needed: it is sunny.'), true);
  // One call per [TOOL_CALLS]: two calls are two lists.
  assert.equal(await grammarAccepts(auto, `${guidedCase.clean}${guidedCase.clean}`), true);
  const v11 = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 3}';
  const dumps = '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}]';
  const twoInOneList =
    '[TOOL_CALLS] [{"name":"get_weather", "arguments":{"city": "Paris", "days": 3}}, {"name":"get_weather", "arguments":{"city": "Oslo", "days": 1}}]';
  for (const text of [v11, dumps, twoInOneList]) assert.equal(await grammarAccepts(auto, text), false, text);
  // Refused right after the trigger's `[TOOL_CALLS]` (v11: the name) and at json.dumps's space after `"name":`.
  assert.equal(await grammarAccepts(auto, v11.slice(0, '[TOOL_CALLS]'.length), { complete: false }), true);
  assert.equal(await grammarAccepts(auto, v11.slice(0, '[TOOL_CALLS]'.length + 1), { complete: false }), false);
  assert.equal(await grammarAccepts(auto, dumps.slice(0, dumps.indexOf(' "get_weather')), { complete: false }), true);
  assert.equal(await grammarAccepts(auto, dumps.slice(0, dumps.indexOf(' "get_weather') + 1), { complete: false }), false);
  const required = await compileStructuralTag(tag(guidedCase.tools, 'required'));
  // xgrammar's at_least_one: a call first, no text before it; text may follow.
  const call = guidedCase.clean.slice(guidedCase.clean.indexOf('[TOOL_CALLS]'));
  assert.equal(await grammarAccepts(required, call), true);
  assert.equal(await grammarAccepts(required, `${call} Done.${call}`), true);
  assert.equal(await grammarAccepts(required, guidedCase.clean), false);
  assert.equal(await grammarAccepts(required, 'Sure.'), false);
});

test("the guided call writer writes what the tag takes, not the format's writer; the what-if stops at </s>", async () => {
  assert.ok(guided?.callWriter);
  const auto = await compileStructuralTag(tag(guidedCase.tools, 'auto'));
  const written = writeCompletion(guided.callWriter, 'I will check.', [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "days": 3}' },
    { name: 'get_weather', index: 1, arguments: '{"city": "Oslo", "days": 1}' },
  ]);
  assert.equal(await grammarAccepts(auto, written), true, written);
  // The format's own writer (v11+) is not what the tag takes.
  const model = writeCompletion(getFormat('mistral').callWriter, '', [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "days": 3}' },
  ]);
  assert.equal(await grammarAccepts(auto, model), false, model);
  const run = await whatIfForRequest(
    { tools: guidedCase.tools, tool_choice: 'auto' },
    { text: `${guidedCase.clean}</s>`, tokens: [] },
    { format: 'mistral' },
  );
  assert.ok(run.ran && run.result.accepted, JSON.stringify(run));
});
