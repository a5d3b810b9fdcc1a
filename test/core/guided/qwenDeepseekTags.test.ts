/**
 * The Hermes / Qwen3 and DeepSeek-V3.1 structural tags, field for field what xgrammar 0.2.3's built-ins build
 * (python/xgrammar/builtin_structural_tag.py at tag v0.2.3 of mlc-ai/xgrammar: get_qwen_3_structural_tag,
 * get_deepseek_v3_1_structural_tag; pydantic dump, defaults included), written out by hand from that source.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { StructuralTagError } from '../../../src/core/formats/structuralTag/toolChoice.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';

const params = { type: 'object', properties: { q: { type: 'string' } } };
const tools: ChatTool[] = [
  { type: 'function', function: { name: 'search', parameters: params } },
  { type: 'function', function: { name: 'open_page' } },
];
const schema = (json_schema: unknown) => ({ type: 'json_schema', json_schema, style: 'json', any_order: false });
const THINK = ['<think>', '</think>'];

test('hermes tag = xgrammar 0.2.3 qwen_3: auto, required, named, none, reasoning', () => {
  const guided = getFormat('hermes').guided;
  assert.ok(guided);
  assert.equal(guided.builtinStyle, 'qwen_3');
  const qwenTag = (name: string, json: unknown) => ({
    type: 'tag',
    begin: `<tool_call>\n{"name": "${name}", "arguments": `,
    content: schema(json),
    end: '}\n</tool_call>',
  });
  const tags = [qwenTag('search', params), qwenTag('open_page', true)];
  assert.deepEqual(guided.structuralTag(tools, 'auto'), {
    type: 'structural_tag',
    format: { type: 'triggered_tags', triggers: ['<tool_call>'], tags, at_least_one: false, stop_after_first: false, excludes: THINK },
  });
  assert.deepEqual(guided.structuralTag(tools, 'required').format, {
    type: 'tags_with_separator',
    tags,
    separator: '\n',
    at_least_one: true,
    stop_after_first: false,
  });
  assert.deepEqual(guided.structuralTag(tools, { type: 'function', function: { name: 'open_page' } }).format, tags[1]);
  assert.deepEqual(guided.structuralTag(tools, 'none').format, { type: 'any_text', excludes: THINK });
  assert.deepEqual(guided.structuralTag(tools, 'auto', { reasoning: true }).format, {
    type: 'sequence',
    elements: [
      {
        type: 'sequence',
        elements: [
          { type: 'tag', begin: '', content: { type: 'any_text', excludes: [] }, end: '</think>' },
          { type: 'const_string', value: '\n\n' },
        ],
      },
      { type: 'triggered_tags', triggers: ['<tool_call>'], tags, at_least_one: false, stop_after_first: false, excludes: THINK },
    ],
  });
  assert.throws(() => guided.structuralTag([], 'required'), StructuralTagError);
  assert.throws(() => guided.structuralTag(tools, { type: 'function', function: { name: 'nope' } }), /not found in the tools list/);
});

test('deepseek_v31 tag = xgrammar 0.2.3 deepseek_v3_1: auto, required, named, none, reasoning', () => {
  const guided = getFormat('deepseek_v31').guided;
  assert.ok(guided);
  assert.equal(guided.builtinStyle, 'deepseek_v3_1');
  const [CB, CE, B, SEP, E] = [
    '<｜tool▁calls▁begin｜>',
    '<｜tool▁calls▁end｜>',
    '<｜tool▁call▁begin｜>',
    '<｜tool▁sep｜>',
    '<｜tool▁call▁end｜>',
  ];
  const dsTag = (name: string, json: unknown) => ({ type: 'tag', begin: `${B}${name}${SEP}`, content: schema(json), end: E });
  const tags = [dsTag('search', params), dsTag('open_page', true)];
  const section = {
    type: 'tag',
    begin: CB,
    content: { type: 'tags_with_separator', tags, separator: '', at_least_one: true, stop_after_first: false },
    end: CE,
  };
  assert.deepEqual(guided.structuralTag(tools, 'auto').format, {
    type: 'triggered_tags',
    triggers: [CB],
    tags: [section],
    at_least_one: false,
    stop_after_first: false,
    excludes: THINK,
  });
  assert.deepEqual(guided.structuralTag(tools, 'required').format, section);
  assert.deepEqual(guided.structuralTag(tools, { type: 'function', function: { name: 'search' } }).format, {
    type: 'tag',
    begin: `${CB}${B}search${SEP}`,
    content: schema(params),
    end: `${E}${CE}`,
  });
  assert.deepEqual(guided.structuralTag(undefined, 'auto').format, { type: 'any_text', excludes: THINK });
  assert.deepEqual(guided.structuralTag(tools, 'auto', { reasoning: true }).format, {
    type: 'sequence',
    elements: [
      { type: 'tag', begin: '', content: { type: 'any_text', excludes: [] }, end: '</think>' },
      { type: 'triggered_tags', triggers: [CB], tags: [section], at_least_one: false, stop_after_first: false, excludes: THINK },
    ],
  });
});
