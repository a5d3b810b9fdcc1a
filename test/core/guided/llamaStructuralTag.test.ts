/**
 * The Llama format's structural tag: field for field what xgrammar 0.2.3's built-in `llama` tag builds
 * (python/xgrammar/builtin_structural_tag.py, get_llama_structural_tag, tag v0.2.3 of mlc-ai/xgrammar), compiled with
 * web-xgrammar; and the what-if over Llama completions with it (the refused character, whatever the tokens).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { StructuralTagError } from '../../../src/core/formats/structuralTag/toolChoice.ts';
import { compileStructuralTag, grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { whatIfForRequest } from '../../../src/core/guided/whatIf.ts';
import { MarkerSplitter } from '../../../src/core/formats/registry.ts';
import { guidedCase } from '../../fixtures/guided/llama.ts';
import { DOC_TOOLS, TOOLS } from './fixtures.ts';

const guided = getFormat('llama').guided;
const tag = (
  tools: Parameters<NonNullable<typeof guided>['structuralTag']>[0],
  choice: Parameters<NonNullable<typeof guided>['structuralTag']>[1],
  reasoning?: boolean,
) => {
  assert.ok(guided);
  return guided.structuralTag(tools, choice, reasoning === undefined ? undefined : { reasoning });
};

// Written out by hand from xgrammar 0.2.3's get_llama_structural_tag (pydantic dump: defaults included, field order).
const callTag = (name: string, schema: unknown) => ({
  type: 'tag',
  begin: `{"name": "${name}", "parameters": `,
  content: { type: 'json_schema', json_schema: schema, style: 'json', any_order: false },
  end: '}',
});
const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const search = { type: 'object', properties: { q: { type: 'string' } } };

test('llama tag (xgrammar 0.2.3): auto, required, named, none — field for field', () => {
  assert.ok(guided);
  assert.equal(guided.builtinStyle, 'llama');
  assert.deepEqual(guided.shapes, ['xgrammar-llama']);
  const auto = {
    type: 'structural_tag',
    format: {
      type: 'triggered_tags',
      triggers: ['{"name": '],
      tags: [callTag('get_weather', weather), callTag('search', search)],
      at_least_one: false,
      stop_after_first: false,
      excludes: ['<think>', '</think>'],
    },
  };
  assert.deepStrictEqual(tag(DOC_TOOLS, 'auto'), auto);
  assert.deepStrictEqual(tag(DOC_TOOLS, undefined), auto);
  // Same key order as xgrammar's dump, so the JSON text matches too.
  assert.equal(JSON.stringify(tag(DOC_TOOLS, 'auto')), JSON.stringify(auto));
  assert.deepStrictEqual(tag(DOC_TOOLS, 'required'), {
    type: 'structural_tag',
    format: {
      type: 'tags_with_separator',
      tags: [callTag('get_weather', weather), callTag('search', search)],
      separator: '',
      at_least_one: true,
      stop_after_first: false,
    },
  });
  assert.deepStrictEqual(tag(DOC_TOOLS, { type: 'function', function: { name: 'search' } }), {
    type: 'structural_tag',
    format: callTag('search', search),
  });
  const plain = { type: 'structural_tag', format: { type: 'any_text', excludes: ['<think>', '</think>'] } };
  assert.deepStrictEqual(tag(DOC_TOOLS, 'none'), plain);
  assert.deepStrictEqual(tag([], 'auto'), plain);
  // Llama has no reasoning part: `reasoning` changes nothing (xgrammar ignores it for this model).
  assert.deepStrictEqual(tag(DOC_TOOLS, 'auto', true), auto);
  // Tools without parameters or with strict: false: any JSON (true), as in xgrammar.
  const loose = tag(
    [
      { type: 'function', function: { name: 'now' } },
      { type: 'function', function: { name: 'x', strict: false, parameters: { type: 'object' } } },
    ],
    'required',
  );
  assert.ok(loose.format.type === 'tags_with_separator');
  for (const t of loose.format.tags)
    assert.deepStrictEqual(t.content, { type: 'json_schema', json_schema: true, style: 'json', any_order: false });
  assert.throws(() => tag([], 'required'), StructuralTagError);
  assert.throws(() => tag(DOC_TOOLS, { type: 'function', function: { name: 'nope' } }), StructuralTagError);
});

test('llama tag compiles with web-xgrammar: clean calls pass, an undeclared tool and an out-of-range integer do not', async () => {
  const auto = await compileStructuralTag(tag(guidedCase.tools, 'auto'));
  assert.equal(await grammarAccepts(auto, guidedCase.clean), true);
  assert.equal(await grammarAccepts(auto, 'No call needed: it is sunny.'), true);
  assert.equal(await grammarAccepts(auto, `Checking. <|python_tag|>${guidedCase.clean}; ${guidedCase.clean}`), true);
  assert.equal(await grammarAccepts(auto, guidedCase.hallucinated.text), false);
  assert.equal(await grammarAccepts(auto, guidedCase.outOfRange.text), false);
  // The prefix up to the refused character passes; one more character does not.
  for (const c of [guidedCase.hallucinated, guidedCase.outOfRange]) {
    assert.equal(await grammarAccepts(auto, c.text.slice(0, c.refusedAt), { complete: false }), true);
    assert.equal(await grammarAccepts(auto, c.text.slice(0, c.refusedAt + 1), { complete: false }), false);
  }
  const required = await compileStructuralTag(tag(TOOLS, 'required'));
  assert.equal(
    await grammarAccepts(
      required,
      '{"name": "search", "parameters": {"q": "x", "top_k": 3}}{"name": "get_weather", "parameters": {"city": "Oslo"}}',
    ),
    true,
  );
  assert.equal(await grammarAccepts(required, 'Sure.'), false);
  const named = await compileStructuralTag(tag(TOOLS, { type: 'function', function: { name: 'get_weather' } }));
  assert.equal(await grammarAccepts(named, '{"name": "get_weather", "parameters": {"city": "Oslo", "unit": "c"}}'), true);
  assert.equal(await grammarAccepts(named, '{"name": "search", "parameters": {"q": "x"}}'), false);
});

test('llama what-if: refused at the tool name and at the digit, the same character whatever the tokens; the turn end stops it', async () => {
  const request = { tools: guidedCase.tools, tool_choice: 'auto' as const };
  const splitter = new MarkerSplitter(getFormat('llama'));
  for (const c of [guidedCase.hallucinated, guidedCase.outOfRange]) {
    const text = `<|python_tag|>${c.text}<|eom_id|>`;
    const offsets = new Set<number>();
    for (const tokens of [[], splitter.tokenize(text)]) {
      const run = await whatIfForRequest(request, { text, tokens }, { format: 'llama' });
      assert.ok(run.ran && !run.result.accepted, JSON.stringify(run));
      offsets.add(run.result.charOffset);
    }
    assert.deepEqual([...offsets], [c.refusedAt + '<|python_tag|>'.length]);
  }
  const clean = await whatIfForRequest(
    { tools: guidedCase.tools, tool_choice: 'required' },
    { text: `${guidedCase.clean}<|eom_id|>`, tokens: [] },
    { format: 'llama' },
  );
  assert.ok(clean.ran && clean.result.accepted, JSON.stringify(clean));
});
