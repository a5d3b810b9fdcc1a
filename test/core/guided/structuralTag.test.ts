import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildKimiStructuralTag, structuralTagBuilder } from '../../../src/core/formats/kimiK2/kimiK2StructuralTag.ts';
import { StructuralTagError } from '../../../src/core/formats/structuralTag/toolChoice.ts';
import type { TagFormat } from '../../../src/core/formats/structuralTag/structuralTagFormat.ts';
import type { StructuralTagBuilder } from '../../../src/net/replay/guidedRequest.ts';
import { DOC_TOOLS, parseShapeDocument, sharedFile, TOOLS } from './fixtures.ts';

// Written out by hand from xgrammar 0.2.3's get_kimi_structural_tag (reasoning=False), so CI without ../shared
// still checks the shape field for field.
const toolTag = (name: string, schema: unknown, pr = false): TagFormat =>
  ({
    type: 'tag',
    begin: `<|tool_call_begin|>functions.${name}:`,
    content: {
      type: 'sequence',
      elements: [
        { type: 'regex', pattern: '\\d+' },
        { type: 'const_string', value: '<|tool_call_argument_begin|>' },
        pr
          ? { type: 'json_schema', json_schema: schema, style: 'json' }
          : { type: 'json_schema', json_schema: schema, style: 'json', any_order: false },
      ],
    },
    end: '<|tool_call_end|>',
  }) as TagFormat;

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const search = { type: 'object', properties: { q: { type: 'string' } } };
const calls = (tags: TagFormat[]) => ({ type: 'tags_with_separator', tags, separator: '', at_least_one: true, stop_after_first: false });

const EXPECTED_AUTO = {
  type: 'structural_tag',
  format: {
    type: 'triggered_tags',
    triggers: ['<|tool_calls_section_begin|>'],
    tags: [
      {
        type: 'tag',
        begin: '<|tool_calls_section_begin|>',
        content: calls([toolTag('get_weather', weather), toolTag('search', search)]),
        end: '<|tool_calls_section_end|>',
      },
    ],
    at_least_one: false,
    stop_after_first: false,
    excludes: ['<think>', '</think>', '<|tool_call_begin|>'],
  },
};
const EXPECTED_REQUIRED = {
  type: 'structural_tag',
  format: {
    type: 'sequence',
    elements: [
      { type: 'const_string', value: '<|tool_calls_section_begin|>' },
      calls([toolTag('get_weather', weather), toolTag('search', search)]),
      { type: 'const_string', value: '<|tool_calls_section_end|>' },
    ],
  },
};
const EXPECTED_NAMED = {
  type: 'structural_tag',
  format: {
    type: 'sequence',
    elements: [
      { type: 'const_string', value: '<|tool_calls_section_begin|>' },
      toolTag('get_weather', weather),
      { type: 'const_string', value: '<|tool_calls_section_end|>' },
    ],
  },
};
const EXPECTED_PR36891 = {
  type: 'structural_tag',
  format: {
    type: 'triggered_tags',
    triggers: ['<|tool_call_begin|>'],
    tags: [toolTag('get_weather', weather, true)],
    at_least_one: false,
    stop_after_first: false,
    excludes: ['<think>', '</think>'],
  },
};
const NAMED = { type: 'function' as const, function: { name: 'get_weather' } };

test('xgrammar-kimi shape: auto, required, named (hand-written expectations)', () => {
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS, 'auto'), EXPECTED_AUTO);
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS, undefined), EXPECTED_AUTO);
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS, 'required'), EXPECTED_REQUIRED);
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS, NAMED), EXPECTED_NAMED);
  // Same key order as xgrammar's dump, so the JSON text matches too.
  assert.equal(JSON.stringify(buildKimiStructuralTag(DOC_TOOLS, 'auto')), JSON.stringify(EXPECTED_AUTO));
});

test('pr36891 shape (hand-written expectation)', () => {
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS.slice(0, 1), 'auto', { shape: 'pr36891' }), EXPECTED_PR36891);
});

test('equals the shapes in ../shared/data/vllm-kimi (xgrammar 0.2.3 document, 0.2.0 json)', (t) => {
  const md = sharedFile('structural-tag-kimi.xgrammar-0.2.3.md');
  const old = sharedFile('structural-tag-kimi-auto.xgrammar-0.2.0.json');
  if (!md || !old) return t.skip('../shared not present: shapes checked against the hand-written expectations only');
  const doc = parseShapeDocument(md);
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS, 'auto'), doc.get('tool_choice = "auto"'));
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS, 'required'), doc.get('tool_choice = "required"'));
  assert.deepStrictEqual(
    buildKimiStructuralTag(DOC_TOOLS, NAMED),
    doc.get('tool_choice = {"type": "function", "function": {"name": "get_weather"}}'),
  );
  assert.equal(
    JSON.stringify(buildKimiStructuralTag(DOC_TOOLS, 'auto'), null, 1),
    JSON.stringify(doc.get('tool_choice = "auto"'), null, 1),
  );
  assert.deepStrictEqual(buildKimiStructuralTag(DOC_TOOLS.slice(0, 1), 'auto', { shape: 'pr36891' }), JSON.parse(old));
  // The hand-written expectations are the document's shapes.
  assert.deepStrictEqual(doc.get('tool_choice = "auto"'), EXPECTED_AUTO);
});

test('tools without parameters or with strict:false get any JSON (true), like xgrammar 0.2.3', () => {
  const tag = buildKimiStructuralTag(
    [
      { type: 'function', function: { name: 'now' } },
      { type: 'function', function: { name: 'loose', strict: false, parameters: { type: 'object' } } },
    ],
    'required',
  );
  const tws = tag.format.type === 'sequence' ? tag.format.elements[1] : undefined;
  assert.ok(tws?.type === 'tags_with_separator');
  for (const t of tws.tags) {
    const seq = t.content;
    assert.ok(seq.type === 'sequence');
    assert.deepStrictEqual(seq.elements[2], { type: 'json_schema', json_schema: true, style: 'json', any_order: false });
  }
  // The PR-36891 shape: an empty object schema (Toolscope's choice, documented).
  const pr = buildKimiStructuralTag([{ type: 'function', function: { name: 'now' } }], 'auto', { shape: 'pr36891' });
  assert.ok(pr.format.type === 'triggered_tags');
  const prSeq = pr.format.tags[0]?.content;
  assert.ok(prSeq?.type === 'sequence');
  assert.deepStrictEqual(prSeq.elements[2], { type: 'json_schema', json_schema: { type: 'object', properties: {} }, style: 'json' });
});

test('tool_choice none and no tools: plain text without think markers; errors where xgrammar raises', () => {
  const plain = { type: 'structural_tag', format: { type: 'any_text', excludes: ['<think>', '</think>'] } };
  assert.deepStrictEqual(buildKimiStructuralTag(TOOLS, 'none'), plain);
  assert.deepStrictEqual(buildKimiStructuralTag([], 'auto'), plain);
  assert.throws(() => buildKimiStructuralTag([], 'required'), StructuralTagError);
  assert.throws(() => buildKimiStructuralTag(TOOLS, { type: 'function', function: { name: 'nope' } }), StructuralTagError);
  assert.throws(() => buildKimiStructuralTag(TOOLS, 'required', { shape: 'pr36891' }), StructuralTagError);
  assert.throws(() => buildKimiStructuralTag([], 'auto', { shape: 'pr36891' }), StructuralTagError);
});

test('structuralTagBuilder: the same tag in the form replay takes', () => {
  // Type-checked against replay's injection point.
  const build: StructuralTagBuilder = structuralTagBuilder();
  assert.deepStrictEqual(build({ tools: DOC_TOOLS, tool_choice: 'auto' }), EXPECTED_AUTO);
  assert.deepStrictEqual(structuralTagBuilder({ shape: 'pr36891' })({ tools: DOC_TOOLS.slice(0, 1) }), EXPECTED_PR36891);
});
