/**
 * The Qwen3-Coder structural tag: field for field what xgrammar 0.2.3's built-in `qwen_3_coder` tag builds
 * (python/xgrammar/builtin_structural_tag.py at tag v0.2.3 of mlc-ai/xgrammar: get_qwen_3_5_structural_tag, registered
 * as `qwen_3_5` and `qwen_3_coder`; pydantic dump, defaults included), written out by hand from that source; compiled
 * with web-xgrammar through the qwen_xml lowering; and what the what-if says the grammar allowed, in the XML's words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { StructuralTagError } from '../../../src/core/formats/structuralTag/toolChoice.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';
import { compileFormatGrammar, grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { whatIfForRequest } from '../../../src/core/guided/whatIf.ts';
import { xmlArgumentUnenforced } from '../../../src/core/guided/xmlArgumentGaps.ts';
import { xmlArgumentStyle } from '../../../src/core/guided/argumentStyles.ts';

const qwenXmlUnenforced = (parameters: unknown) => xmlArgumentUnenforced(xmlArgumentStyle('qwen_xml')!, parameters);

const params = { type: 'object', properties: { q: { type: 'string' } } };
const tools: ChatTool[] = [
  { type: 'function', function: { name: 'search', parameters: params } },
  { type: 'function', function: { name: 'open_page' } },
];
const THINK = ['<think>', '</think>'];
const coderTag = (name: string, json: unknown) => ({
  type: 'tag',
  begin: `<tool_call>\n<function=${name}>\n`,
  content: { type: 'json_schema', json_schema: json, style: 'qwen_xml', any_order: false },
  end: '\n</function>\n</tool_call>',
});

test('qwen3_coder tag = xgrammar 0.2.3 qwen_3_coder: auto, required, named, none, reasoning', () => {
  const guided = getFormat('qwen3_coder').guided;
  assert.ok(guided);
  assert.equal(guided.builtinStyle, 'qwen_3_coder');
  assert.deepEqual(guided.shapes, ['xgrammar-qwen_3_coder']);
  const tags = [coderTag('search', params), coderTag('open_page', true)];
  const auto = {
    type: 'structural_tag',
    format: {
      type: 'triggered_tags',
      triggers: ['<tool_call>\n<function='],
      tags,
      at_least_one: false,
      stop_after_first: false,
      excludes: THINK,
    },
  };
  assert.deepStrictEqual(guided.structuralTag(tools, 'auto'), auto);
  // Same key order as xgrammar's dump, so the JSON text matches too.
  assert.equal(JSON.stringify(guided.structuralTag(tools, undefined)), JSON.stringify(auto));
  assert.deepStrictEqual(guided.structuralTag(tools, 'required').format, {
    type: 'tags_with_separator',
    tags,
    separator: '\n',
    at_least_one: true,
    stop_after_first: false,
  });
  assert.deepStrictEqual(guided.structuralTag(tools, { type: 'function', function: { name: 'open_page' } }).format, tags[1]);
  assert.deepStrictEqual(guided.structuralTag(tools, 'none').format, { type: 'any_text', excludes: THINK });
  assert.deepStrictEqual(guided.structuralTag(tools, 'auto', { reasoning: true }).format, {
    type: 'sequence',
    elements: [
      {
        type: 'sequence',
        elements: [
          { type: 'tag', begin: '', content: { type: 'any_text', excludes: [] }, end: '</think>' },
          { type: 'const_string', value: '\n\n' },
        ],
      },
      auto.format,
    ],
  });
  assert.throws(() => guided.structuralTag([], 'required'), StructuralTagError);
  assert.throws(() => guided.structuralTag(tools, { type: 'function', function: { name: 'nope' } }), /not found in the tools list/);
});

const weather: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'integer', minimum: 1, maximum: 14 },
        },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
];
const call = (params: string) => `<tool_call>\n<function=get_weather>\n${params}</function>\n</tool_call>`;

test('the compiled tag: calls the chat template writes, several in a row with required, raw text with markup in it', async () => {
  const guided = getFormat('qwen3_coder').guided;
  assert.ok(guided);
  const auto = await compileFormatGrammar(guided, weather, 'auto');
  const lisbon = call('<parameter=city>\nLisbon\n</parameter>\n<parameter=unit>\ncelsius\n</parameter>\n');
  assert.equal(await grammarAccepts(auto, `I'll check.\n${lisbon}`), true);
  assert.equal(await grammarAccepts(auto, call('<parameter=city>\nif (a < b) { x = "<tool_call>"; }\n</parameter>\n')), true);
  assert.equal(await grammarAccepts(auto, call('<parameter=unit>\ncelsius\n</parameter>\n')), false, 'city is required');
  assert.equal(await grammarAccepts(auto, call('<parameter=city>\nOslo\n</parameter>\n<parameter=when>\nnow\n</parameter>\n')), false);
  const required = await compileFormatGrammar(guided, weather, 'required');
  assert.equal(await grammarAccepts(required, `${lisbon}\n${lisbon}`), true);
  assert.equal(await grammarAccepts(required, 'No call.'), false);
});

test('xgrammar 0.2.3 writes a top-level string with a length bound as [^]{m,}: it may hold </parameter>, and what follows is free', async () => {
  const guided = getFormat('qwen3_coder').guided;
  assert.ok(guided);
  const fn = weather[0] as ChatTool;
  const parameters = fn.function.parameters as { properties: Record<string, unknown> };
  const bounded: ChatTool[] = [
    {
      ...fn,
      function: {
        ...fn.function,
        parameters: { ...parameters, properties: { ...parameters.properties, city: { type: 'string', minLength: 1 } } },
      },
    },
  ];
  const kelvin = call('<parameter=city>\nOslo\n</parameter>\n<parameter=unit>\nkelvin\n</parameter>\n');
  assert.equal(await grammarAccepts(await compileFormatGrammar(guided, weather, 'auto'), kelvin), false);
  // The city's value runs on to the last </parameter>: "kelvin" is inside it, not refused.
  assert.equal(await grammarAccepts(await compileFormatGrammar(guided, bounded, 'auto'), kelvin), true);
  // What the what-if then says when ajv rejects such a call: the bound on city, not an unexplained disagreement.
  assert.match(qwenXmlUnenforced(bounded[0]?.function.parameters).join(), /^minLength on city \(/);
  assert.deepEqual(qwenXmlUnenforced(weather[0]?.function.parameters), []);
});

test('what the grammar allowed, in the words of XML parameters', async () => {
  const allowed = async (text: string) => {
    const r = await whatIfForRequest({ tools: weather }, { text, tokens: [] }, { format: 'qwen3_coder' });
    assert.ok(r.ran && !r.result.accepted, JSON.stringify(r));
    return r.result.allowed;
  };
  assert.equal(
    await allowed(call('<parameter=city>\nOslo\n</parameter>\n<parameter=unit>\nkelvin\n</parameter>\n')),
    'one of celsius, fahrenheit for unit',
  );
  assert.equal(
    await allowed(call('<parameter=city>\nOslo\n</parameter>\n<parameter=days>\n30\n</parameter>\n')),
    'an integer 1–14 for days',
  );
  assert.equal(await allowed(call('<parameter=days>\n3\n</parameter>\n')), '"<parameter=city>" (required)');
  assert.match(
    await allowed(call('<parameter=city>\nOslo\n</parameter>\n<parameter=when>\nnow\n</parameter>\n')),
    /"<parameter=unit>", "<parameter=days>" or the end of the call/,
  );
});
