import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCHEMA_KEYWORD_GAPS, UNENFORCED_KEYWORDS, schemaKeywordGaps } from '../../../src/core/guided/unenforcedKeywords.ts';
import { compileStructuralTag, grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { UnsupportedRegexError } from '../../../src/core/guided/regexSupport.ts';
import { ToolSchemas } from '../../../src/core/schema/toolSchemas.ts';
import type { ChatTool, JsonObject } from '../../../src/core/trace/record.ts';

const ajv = new ToolSchemas();

for (const gap of SCHEMA_KEYWORD_GAPS) {
  test(`${gap.id}: ${gap.effect} — ${gap.note}`, async () => {
    const parameters: JsonObject = { type: 'object', properties: { v: gap.probe.schema }, required: ['v'] };
    const tool: ChatTool = { type: 'function', function: { name: 'probe', parameters } };
    const instance = `{"v": ${gap.probe.value}}`;
    assert.ok(gap.appliesTo(gap.probe.schema), 'the entry recognises its own probe schema');
    const tag = { type: 'structural_tag' as const, format: { type: 'json_schema' as const, json_schema: parameters } };
    if (gap.effect === 'compile-error') {
      await assert.rejects(compileStructuralTag(tag), UnsupportedRegexError);
      return;
    }
    const grammar = await compileStructuralTag(tag);
    const grammarOk = await grammarAccepts(grammar, instance);
    const ajvOk = ajv.check(tool, JSON.parse(instance)).kind === 'ok';
    if (gap.effect === 'unenforced') {
      assert.equal(ajvOk, false, 'ajv rejects the probe value');
      assert.equal(grammarOk, true, 'the grammar lets it through');
    } else {
      assert.equal(ajvOk, true, 'ajv accepts the probe value');
      assert.equal(grammarOk, false, 'the grammar refuses it');
    }
  });
}

test('keywords the grammar does enforce are not in the list', async () => {
  for (const k of [
    'type',
    'enum',
    'const',
    'required',
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
  ]) {
    const listed = SCHEMA_KEYWORD_GAPS.some((g) => g.keyword === k && g.effect === 'unenforced' && g.id === k);
    assert.equal(listed, false, k);
  }
  // Spot check: minimum on an integer and format email are enforced.
  const g = await compileStructuralTag({
    type: 'structural_tag',
    format: {
      type: 'json_schema',
      json_schema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 }, e: { type: 'string', format: 'email' } } },
    },
  });
  assert.equal(await grammarAccepts(g, '{"n": 0}'), false);
  assert.equal(await grammarAccepts(g, '{"e": "nope"}'), false);
  assert.ok(UNENFORCED_KEYWORDS.has('multipleOf') && !UNENFORCED_KEYWORDS.has('enum'));
});

test('schemaKeywordGaps finds the gaps a tool schema shows, with their paths', () => {
  const found = schemaKeywordGaps({
    type: 'object',
    properties: {
      n: { type: 'integer', multipleOf: 2 },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      pattern: { type: 'string' },
    },
    required: ['n'],
    additionalProperties: false,
  });
  assert.deepStrictEqual(
    found.map((f) => [f.gap.id, f.path]).sort(),
    [
      ['multipleOf', '/properties/n'],
      ['property-order', '#'],
      ['uniqueItems', '/properties/tags'],
    ].sort(),
  );
  assert.deepStrictEqual(schemaKeywordGaps(true), []);
});
