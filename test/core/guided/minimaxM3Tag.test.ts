/**
 * The MiniMax-M3 structural tag: the envelope of xgrammar's `minimax_m3` model tag (python/xgrammar/builtin_structural_tag.py
 * @ mlc-ai/xgrammar 22ac68df4a2243cd8600126d4dc706433ba530fd, get_minimax_m3_structural_tag) and its `minimax_m3_xml`
 * arguments as that commit's converter writes them (cpp/converter_ext/minimax_m3.cc: elements in declared order,
 * required ones present, nested objects, `<item>` per array item, strings without the namespace token), compiled with
 * web-xgrammar through guided/xmlElementLowering.ts; the schema is vLLM's M3 test tool (create_order,
 * rust/src/parser/src/tool/minimax_m3.rs @ 017e9f4448b700e85ee16023287b025693c72b9e), reduced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';
import { compileFormatGrammar, grammarAccepts } from '../../../src/core/guided/xgrammar.ts';

const NS = ']<]minimax[>[';
const el = (k: string, body: string) => `${NS}<${k}>${body}${NS}</${k}>`;
const order: ChatTool = {
  type: 'function',
  function: {
    name: 'create_order',
    parameters: {
      type: 'object',
      properties: {
        user_id: { type: 'integer' },
        urgent: { type: 'boolean' },
        shipping: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } }, required: ['city'] },
        items: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } } },
          maxItems: 2,
        },
        mode: { enum: ['fast', 'slow'] },
      },
      required: ['user_id', 'shipping'],
    },
  },
};
const call = (...members: string[]) =>
  `${NS}<tool_call>\n${NS}<invoke name="create_order">\n${members.join('\n')}\n${NS}</invoke>\n${NS}</tool_call>`;
const shipping = el('shipping', `\n${el('city', 'Singapore')}\n${el('zip', '18956')}\n`);
const item = (sku: string, qty: string) => el('item', `\n${el('sku', sku)}\n${el('qty', qty)}\n`);

test('minimax_m3 declares the minimax_m3 tag with its element style', () => {
  const guided = getFormat('minimax_m3').guided;
  assert.ok(guided);
  assert.equal(guided.builtinStyle, 'minimax_m3');
  assert.equal(guided.argumentStyle?.style, 'minimax_m3_xml');
  const tag = guided.structuralTag([order], 'auto');
  assert.deepEqual(tag.format.type === 'triggered_tags' && tag.format.triggers, [`${NS}<tool_call>`]);
  // xgrammar's SUFFIX_EXCLUDE_TOKENS: the think tags and stray call markup, not the namespace token alone.
  assert.deepEqual(tag.format.type === 'triggered_tags' && tag.format.excludes, [
    '<mm:think>',
    '</mm:think>',
    `${NS}</tool_call>`,
    `${NS}<invoke`,
    `${NS}</invoke>`,
  ]);
});

test('minimax_m3_xml through web-xgrammar: nested objects and arrays as elements, declared order, required members, typed leaves', async () => {
  const guided = getFormat('minimax_m3').guided!;
  const g = await compileFormatGrammar(guided, [order], 'auto');
  const items = el('items', `\n${item('book-001', '2')}\n${item('pen', '1')}\n`);
  assert.equal(
    await grammarAccepts(g, `Ordering.\n${call(el('user_id', '42'), el('urgent', 'true'), shipping, items, el('mode', 'fast'))}`),
    true,
  );
  // Optional members may be left out; a string holds any text but the namespace token (`<`, line breaks and all).
  assert.equal(await grammarAccepts(g, call(el('user_id', '7'), el('shipping', `\n${el('city', 'a < b\nc')}\n`))), true);
  assert.equal(await grammarAccepts(g, call(shipping)), false, 'user_id is required');
  assert.equal(await grammarAccepts(g, call(shipping, el('user_id', '42'))), false, 'declared order');
  assert.equal(await grammarAccepts(g, call(el('user_id', '4.5'), shipping)), false, 'an integer');
  assert.equal(await grammarAccepts(g, call(el('user_id', '42'), shipping, el('note', 'x'))), false, 'no undeclared member');
  assert.equal(
    await grammarAccepts(g, call(el('user_id', '42'), el('shipping', `\n${el('zip', '1')}\n`))),
    false,
    'city is required in shipping',
  );
  assert.equal(await grammarAccepts(g, call(el('user_id', '42'), shipping, el('items', `\n${item('a', '0')}\n`))), false, 'qty ≥ 1');
  const three = el('items', `\n${item('a', '1')}\n${item('b', '1')}\n${item('c', '1')}\n`);
  assert.equal(await grammarAccepts(g, call(el('user_id', '42'), shipping, three)), false, 'maxItems 2');
  assert.equal(await grammarAccepts(g, call(el('user_id', '42'), shipping, el('mode', 'medium'))), false, 'an enum value');
  // A closing tag must name its own element.
  assert.equal(await grammarAccepts(g, call(`${NS}<user_id>42${NS}</shipping>`, shipping)), false);
});

test('minimax_m3 tag: required needs a block, a named tool exactly one call of it, thinking completions their prefix', async () => {
  const guided = getFormat('minimax_m3').guided!;
  const clean = call(el('user_id', '42'), shipping);
  const required = await compileFormatGrammar(guided, [order], 'required');
  assert.equal(await grammarAccepts(required, 'Just text.'), false);
  // xgrammar's triggered tags with at_least_one start with a tag.
  assert.equal(await grammarAccepts(required, `${clean}\nDone.`), true);
  const named = await compileFormatGrammar(guided, [order], { type: 'function', function: { name: 'create_order' } });
  assert.equal(await grammarAccepts(named, clean), true);
  assert.equal(await grammarAccepts(named, `Sure.\n${clean}`), false, 'no text before the forced block');
  const block = await compileFormatGrammar(guided, [order], 'auto', 'xgrammar-minimax_m3-think-block');
  assert.equal(await grammarAccepts(block, `<mm:think>Order it.</mm:think>\n${clean}`), true);
  assert.equal(
    await grammarAccepts(block, `<mm:think>Order ${NS}</invoke> it.</mm:think>\n${clean}`),
    false,
    'stray call markup in reasoning',
  );
  const enabled = await compileFormatGrammar(guided, [order], 'auto', 'xgrammar-minimax_m3-thinking');
  assert.equal(await grammarAccepts(enabled, `Order it.</mm:think>\n${clean}`), true);
  assert.equal(guided.shapeOf?.(`<mm:think>x</mm:think>${clean}`), 'xgrammar-minimax_m3-think-block');
  assert.equal(guided.shapeOf?.(`x</mm:think>${clean}`), 'xgrammar-minimax_m3-thinking');
  assert.equal(guided.shapeOf?.(clean), undefined);
});
