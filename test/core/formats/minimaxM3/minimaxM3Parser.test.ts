/**
 * MiniMax-M3's reference parser (the key/value kernel with M3's namespaced tags and element values) on vLLM's own test
 * vectors, whole and streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts); detection by
 * markup, then the server's parser name, then the model name; the call writer read back, nested values included; a call
 * inside `<mm:think>` stays reasoning, noted; a leak of its calls, namespaced or with the token skipped, is M3's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MinimaxM3Parser, parseMinimaxM3 } from '../../../../src/core/formats/minimaxM3/minimaxM3Parser.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { attributeLeaks } from '../../../../src/core/diagnostics/leakAttribution.ts';
import { block, element, invoke, MINIMAX_M3_FIXTURES, MINIMAX_M3_TOOLS } from '../../../fixtures/minimaxM3/minimaxM3Completions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new MinimaxM3Parser(options);
const tools = { tools: MINIMAX_M3_TOOLS };

for (const fx of MINIMAX_M3_FIXTURES) {
  test(`minimax_m3 one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
    for (const c of parseMinimaxM3(fx.text, fx.options).calls)
      if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

test('minimax_m3: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of MINIMAX_M3_FIXTURES) {
    checkDeltas(make, fx, [']<]minimax[>[', '<mm:think>', '</mm:think>']);
    checkNameFirst(make, fx);
  }
});

test('minimax_m3: a value goes out whole when its closing tag comes (vLLM sends the whole invoke)', () => {
  const p = new MinimaxM3Parser(tools);
  assert.equal(p.push(']<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="get_wea'), null);
  assert.deepEqual(p.push('ther">\n]<]minimax[>[<city>Pa'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city": ' } }],
  });
  assert.equal(p.push('ris]<]minimax[>[</ci'), null);
  assert.deepEqual(p.push('ty>\n'), { tool_calls: [{ index: 0, function: { arguments: '"Paris"' } }] });
  p.push(']<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>');
  p.finish();
  assert.equal(p.result().calls[0]?.arguments, '{"city": "Paris"}');
});

test('minimax_m3: a call inside <mm:think> stays reasoning, noted once (the reasoning parser keeps it)', () => {
  const text = `<mm:think>maybe ${block(invoke('get_weather', element('city', 'Paris')))}</mm:think>Done.`;
  const r = parseMinimaxM3(text, tools);
  assert.deepEqual(r.calls, []);
  assert.equal(r.content, 'Done.');
  assert.ok(r.reasoning?.includes(']<]minimax[>[<tool_call>'));
  assert.deepEqual(
    r.notes.map((n) => n.kind),
    ['call-in-think'],
  );
  // The template may open the think block in the prompt (thinking_mode="enabled").
  const opened = parseMinimaxM3(`plan</mm:think>${block(invoke('get_weather', element('city', 'Paris')))}`, {
    ...tools,
    startInReasoning: true,
  });
  assert.deepEqual([opened.reasoning, opened.calls.length], ['plan', 1]);
});

test('minimax_m3: detected by its markup, then by the server parser name, then by the model name', () => {
  assert.equal(detectFormat(block(invoke('f', ''))).name, 'minimax_m3');
  assert.equal(detectFormat('<mm:think>x</mm:think>Hi').name, 'minimax_m3');
  assert.equal(detectFormat('<tool_call>\n<invoke name="f">\n</invoke>\n</tool_call>').name, 'minimax_m3');
  // M2's block stays M2's; Hermes' JSON in <tool_call> stays Hermes'.
  assert.equal(detectFormat('<minimax:tool_call>\n<invoke name="f">\n</invoke>\n</minimax:tool_call>').name, 'minimax_m2');
  assert.equal(detectFormat('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>').name, 'hermes');
  for (const parser of ['minimax_m3', 'minimax-m3']) {
    const byParser = resolveFormat({ toolscope: 1, request: { messages: [] }, meta: { parser } } as never, null);
    assert.deepEqual([byParser.format.name, byParser.basis], ['minimax_m3', 'parser']);
  }
  const byModel = resolveFormat({ toolscope: 1, request: { model: 'MiniMaxAI/MiniMax-M3', messages: [] } } as never, null);
  assert.deepEqual([byModel.format.name, byModel.basis], ['minimax_m3', 'model']);
  const m2 = resolveFormat({ toolscope: 1, request: { model: 'MiniMaxAI/MiniMax-M2.7', messages: [] } } as never, null);
  assert.equal(m2.format.name, 'minimax_m2');
});

test('minimax_m3: the call writer writes what the parser reads back, objects and arrays as child tags', () => {
  const format = getFormat('minimax_m3');
  const order = {
    user_id: 42,
    note: 'a <b> & "c"',
    shipping: { city: 'Singapore', zip: 18956 },
    items: [
      { sku: 'book-001', qty: 2 },
      { sku: 'pen-007', qty: 5 },
    ],
    schema_mismatch_array: [1, 2],
    metadata: {},
  };
  const text = writeCompletion(format.callWriter, 'Ordering.', [
    { name: 'create_order', index: 0, arguments: JSON.stringify(order) },
    { name: 'get_weather', index: 1, arguments: '{"city": "Paris", "days": 3}' },
  ]);
  assert.match(text, /^Ordering\.\]<\]minimax\[>\[<tool_call>\n\]<\]minimax\[>\[<invoke name="create_order">\n/u);
  assert.ok(text.includes(']<]minimax[>[<items>\n]<]minimax[>[<item>\n]<]minimax[>[<sku>book-001]<]minimax[>[</sku>'));
  const r = parseMinimaxM3(text, tools);
  assert.deepEqual(
    r.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [
      ['create_order', order],
      ['get_weather', { city: 'Paris', days: 3 }],
    ],
  );
  assert.equal(r.content, 'Ordering.');
  assert.deepEqual(r.notes, []);
});

test("minimax_m3: a leaked block is M3's in a record read as any format, namespaced or with the token skipped; never Hermes'", () => {
  const namespaced = block(invoke('get_weather', `\n${element('city', 'Paris')}\n`));
  // The token skipped by the decoder (M3's own key tags are then text: the call is read without its arguments).
  const skipped = '<tool_call>\n<invoke name="get_weather">\n<city>Paris</city>\n</invoke>\n</tool_call>';
  for (const context of ['hermes', 'qwen3_coder', 'glm', 'hy_v3', 'minimax_m2', 'minimax_m3', 'kimi_k2']) {
    for (const text of [namespaced, skipped]) {
      const spans = attributeLeaks(`Let me check. ${text}`, MINIMAX_M3_TOOLS, getFormat(context));
      assert.deepEqual(
        spans.map((s) => [s.format?.name ?? null, s.calls.map((c) => c.name)]),
        [['minimax_m3', ['get_weather']]],
        `${text} in ${context}`,
      );
    }
    // A Hermes call in <tool_call> stays Hermes' (M3's parser reads no invoke there).
    const hermes = attributeLeaks(
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
      MINIMAX_M3_TOOLS,
      getFormat(context),
    );
    assert.deepEqual(
      hermes.map((s) => s.format?.name ?? null),
      ['hermes'],
      context,
    );
  }
});

test('minimax_m3: parsing is linear in the length of the text, nested values included', () => {
  checkLinear(
    make,
    `${block(invoke('create_order', element('shipping', element('city', 'Paris') + element('zip', '75001')) + element('note', 'x')))}ok `,
    tools,
  );
  // One value with ever more children: each child is read once.
  checkLinear(
    (o) => {
      const p = make(o);
      p.push(']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="create_order">]<]minimax[>[<items>');
      return p;
    },
    element('item', element('sku', 'a') + element('qty', '1')),
  );
});
