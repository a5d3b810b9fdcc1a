/**
 * The key/value kernel's element values (`elementValues`), on a syntax written here (no format's): a parameter is a
 * tag named after its key, closed by a tag naming it, objects and arrays as child tags, typed by the tool's schema as
 * vLLM's Rust parsers type them (rust/src/parser/src/tool/parameters.rs @ 017e9f4). Each text is read whole and cut at
 * every character (split invariance).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyValueCallParser, type KeyValueRole, type KeyValueSyntax } from '../../../../src/core/formats/kernel/keyValueCallParser.ts';
import { elementValue } from '../../../../src/core/formats/kernel/elementValues.ts';
import type { MarkerDef } from '../../../../src/core/formats/kernel/markupParser.ts';
import type { ChatTool } from '../../../../src/core/trace/record.ts';
import type { ParseResult } from '../../../../src/core/formats/toolCallFormat.ts';

const TABLE: MarkerDef<KeyValueRole>[] = [
  { text: '@<calls>', name: 'call-begin' },
  { text: '@</calls>', name: 'call-end' },
  { text: '@<invoke name=', name: 'function-begin' },
  { text: '@</invoke>', name: 'function-end' },
  { text: '@</', name: 'parameter-end' },
  { text: '@<', name: 'parameter-begin' },
];

const ELEMENTS: KeyValueSyntax = {
  table: TABLE,
  tokenMarkers: [],
  wrapped: true,
  manyFunctions: true,
  nameEnd: '>',
  quotedNames: true,
  requireWrapper: true,
  requireName: false,
  keyEnd: '>',
  untypedValues: 'text',
  valueLayout: 'verbatim',
  elementValues: true,
  words: {
    callBegin: '@<calls>',
    callEnd: '@</calls>',
    functionBegin: '@<invoke name="…">',
    functionEnd: '@</invoke>',
    parameterBegin: '@<KEY>',
    parameterEnd: '@</KEY>',
  },
  label: 'ElementTest',
};

const ORDER: ChatTool = {
  type: 'function',
  function: {
    name: 'create_order',
    parameters: {
      type: 'object',
      properties: {
        user_id: { type: 'integer' },
        note: { type: 'string' },
        shipping: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } } },
        items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } } },
        metadata: { type: 'object', additionalProperties: { type: 'integer' } },
        tags: { type: 'array', items: { type: 'integer' } },
      },
    },
  },
};

function parse(pieces: readonly string[], tools: ChatTool[] = [ORDER]): ParseResult {
  const p = new KeyValueCallParser(ELEMENTS, { tools });
  for (const piece of pieces) p.push(piece);
  p.finish();
  return p.result();
}

function parseEveryCut(text: string, tools?: ChatTool[]): ParseResult {
  const whole = parse([text], tools);
  for (let i = 1; i < text.length; i++) assert.deepEqual(parse([text.slice(0, i), text.slice(i)], tools), whole, `cut at ${i}`);
  return whole;
}

const el = (name: string, body: string) => `@<${name}>${body}@</${name}>`;

test('element values: nested objects and arrays typed by the schema, repeated names collected, untyped text kept', () => {
  const body = [
    el('user_id', '42'),
    el('note', 'leave at the desk'),
    el('shipping', `\n${el('city', 'Singapore')}\n${el('zip', '018956')}\n`),
    el('items', el('item', el('sku', 'book-001') + el('qty', '2')) + el('item', el('sku', 'pen-007') + el('qty', '5'))),
    el('metadata', el('score', '42') + el('rank', '7')),
    el('tags', el('x', '1') + el('x', '2')),
    el('unknown', el('a', '1') + el('a', '2')),
  ].join('\n');
  const r = parseEveryCut(`Ordering. @<calls>\n@<invoke name="create_order">\n${body}\n@</invoke>\n@</calls>`);
  assert.equal(r.content, 'Ordering. ');
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.terminated, JSON.parse(c.arguments)]),
    [
      [
        'create_order',
        true,
        {
          user_id: 42,
          note: 'leave at the desk',
          // Not JSON, so kept as written for the schema check (vLLM's `parse::<i64>` reads 18956).
          shipping: { city: 'Singapore', zip: '018956' },
          items: [
            { sku: 'book-001', qty: 2 },
            { sku: 'pen-007', qty: 5 },
          ],
          metadata: { score: 42, rank: 7 },
          tags: [1, 2],
          unknown: { a: ['1', '2'] },
        },
      ],
    ],
  );
  assert.deepEqual(r.notes, []);
});

test('element values: text beside children is $text ($$text when a child has that name); a leaf keeps its line breaks', () => {
  const r = parseEveryCut(
    `@<calls>@<invoke name="convert">${el('payload', `text before ${el('child', 'value')} text after`)}${el('other', `text${el('$text', 'child text')}`)}${el('shape', '\nrectangle\n')}@</invoke>@</calls>`,
  );
  assert.deepEqual(JSON.parse(r.calls[0]!.arguments), {
    payload: { child: 'value', $text: 'text before  text after' },
    other: { $text: 'child text', $$text: 'text' },
    shape: '\nrectangle\n',
  });
});

test('element values: a closing tag naming another element closes the open one, noted; a cut call keeps what it read', () => {
  const r = parseEveryCut(`@<calls>@<invoke name="create_order">${el('shipping', '@<city>Paris@</town>')}@</invoke>@</calls>`);
  assert.deepEqual(JSON.parse(r.calls[0]!.arguments), { shipping: { city: 'Paris' } });
  assert.ok(r.notes.some((n) => n.kind === 'stray-marker' && /names "town" where "city" is open/u.test(n.detail)));

  const cut = parse(['@<calls>@<invoke name="create_order">@<user_id>7@</user_id>@<shipping>@<city>Paris']);
  assert.equal(cut.calls[0]!.terminated, false);
  assert.deepEqual(JSON.parse(`${cut.calls[0]!.arguments}}`), { user_id: 7, shipping: { city: 'Paris' } });
});

test('elementValue: anyOf takes the first member that reads it; a __proto__ child is an own member', () => {
  const node = { name: 'v', text: '', children: [{ name: 'n', text: '3', children: [] }] };
  assert.deepEqual(elementValue(node, { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'integer' } }] }), [3]);
  const proto = elementValue({ name: 'v', text: '', children: [{ name: '__proto__', text: 'x', children: [] }] }, undefined);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(Object.keys(proto as object), ['__proto__']);
});

test('element values: a whole closing tag (one that ends with the key end) closes the innermost open element', () => {
  const syntax: KeyValueSyntax = {
    ...ELEMENTS,
    table: [...TABLE, { text: '<p name=', name: 'parameter-begin' }, { text: '</p>', name: 'parameter-end' }],
  };
  const text = '@<calls>@<invoke name="get_weather"><p name="city">Paris</p><p name="days">3</p>@</invoke>@</calls>';
  const whole = (pieces: string[]) => {
    const p = new KeyValueCallParser(syntax, { tools: [] });
    for (const piece of pieces) p.push(piece);
    p.finish();
    return p.result();
  };
  const r = whole([text]);
  for (let i = 1; i < text.length; i++) assert.deepEqual(whole([text.slice(0, i), text.slice(i)]), r, `cut at ${i}`);
  assert.deepEqual(JSON.parse(r.calls[0]!.arguments), { city: 'Paris', days: '3' });
  assert.deepEqual(r.notes, []);
});
