/**
 * The key/value kernel with tags that carry attributes (a format of its own here, `[open]`/`[sep]`/`[close]` tags,
 * not any registered format): the name and key end at a `header-end` tag and are read from the attributes, a type
 * written beside the key types the value whatever the schema says, values keep their exact layout, and a raw block
 * holds the whole arguments as JSON text. Whole and cut at every offset, the client gets the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyValueCallParser, type KeyValueRole, type KeyValueSyntax } from '../../../../src/core/formats/kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../../../../src/core/formats/kernel/markupParser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { checkAllCuts, oneShot } from '../kit/formatTestKit.ts';

const attr = (header: string, name: string): string => header.match(new RegExp(`${name}="([^"]*)"`, 'u'))?.[1] ?? '';

const TABLE: readonly MarkerDef<KeyValueRole>[] = [
  { text: '[open]tools[sep]', name: 'call-begin' },
  { text: '[close]tools[sep]', name: 'call-end' },
  { text: '[open]call', name: 'function-begin' },
  { text: '[close]call[sep]', name: 'function-end' },
  { text: '[open]arg', name: 'parameter-begin' },
  { text: '[close]arg[sep]', name: 'parameter-end' },
  { text: '[open]json', name: 'raw-begin' },
  { text: '[close]json[sep]', name: 'raw-end' },
  { text: '[sep]', name: 'header-end' },
];

const SYNTAX: KeyValueSyntax = {
  table: TABLE.map((m) => ({ ...m, text: m.text.replaceAll('[', '<').replaceAll(']', '>') })),
  tokenMarkers: [],
  wrapped: true,
  nameEnd: null,
  readName: (header) => {
    const name = attr(header, 'tool');
    const start = header.indexOf(name);
    return { name, start, end: start + name.length };
  },
  readKey: (header) => ({ key: attr(header, 'key'), type: attr(header, 'type') || 'string' }),
  requireName: false,
  keyEnd: null,
  untypedValues: 'text',
  valueLayout: 'verbatim',
  words: {
    callBegin: '<open>tools',
    callEnd: '<close>tools',
    functionBegin: '<open>call',
    functionEnd: '<close>call',
    parameterBegin: '<open>arg',
    parameterEnd: '<close>arg',
  },
  label: 'AttributedParser',
};

class AttributedParser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(SYNTAX, options);
  }
}
const make = (options?: ParserOptions) => new AttributedParser(options);
const arg = (key: string, type: string, value: string) => `<open>arg key="${key}" type="${type}"<sep>${value}<close>arg<sep>`;
// The schema says `n` is a string: the written type wins.
const tools = { tools: [{ function: { name: 'f', parameters: { type: 'object', properties: { n: { type: 'string' } } } } }] };

test('attributed key/value: name and keys from attributes, written types, exact layout', () => {
  const text = `Hi<open>tools<sep><open>call tool="f" index="1"<sep>${arg('n', 'number', '1.50')}${arg('s', 'string', ' a "b"\n')}${arg('o', 'object', '{"k": [1]}')}${arg('bad', 'number', 'x')}<close>call<sep><open>call tool="g"<sep><close>call<sep><close>tools<sep>`;
  const r = oneShot(make, text, tools);
  assert.equal(r.content, 'Hi');
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments, c.terminated]),
    [
      ['f', '{"n": 1.50, "s": " a \\"b\\"\\n", "o": {"k": [1]}, "bad": "x"}', true],
      ['g', '{}', true],
    ],
  );
  assert.deepEqual(r.notes, []);
  assert.equal(text.slice(r.calls[0]!.idSpan.start, r.calls[0]!.idSpan.end), 'f');
  checkAllCuts(make, text, tools, 'attributed');
});

test('attributed key/value: a raw block is the arguments as written; a second block or one after arguments is noted', () => {
  const raw = '{"b": 1,  "a": [2 , 3]}';
  const text = `<open>tools<sep><open>call tool="run"<sep><open>json type="object"<sep>${raw}<close>json<sep><close>call<sep><close>tools<sep>`;
  const r = oneShot(make, text);
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments]),
    [['run', raw]],
  );
  checkAllCuts(make, text, undefined, 'raw block');
  const late = oneShot(
    make,
    `<open>tools<sep><open>call tool="run"<sep>${arg('a', 'number', '1')}<open>json<sep>{}<close>json<sep><close>call<sep><close>tools<sep>`,
  );
  assert.equal(late.calls[0]?.arguments, '{"a": 1}');
  assert.ok(late.notes.some((n) => n.kind === 'stray-marker'));
  // The call's end closes a block that never closed.
  const open = oneShot(make, `<open>tools<sep><open>call tool="run"<sep><open>json<sep>{"a": 1}<close>call<sep><close>tools<sep>`);
  assert.deepEqual(
    open.calls.map((c) => [c.arguments, c.terminated]),
    [['{"a": 1}', true]],
  );
});

test('attributed key/value: [sep] is text inside a value and between calls', () => {
  const r = oneShot(make, `<open>tools<sep><open>call tool="f"<sep>${arg('s', 'string', 'x<sep>y')}<close>call<sep><close>tools<sep>`);
  assert.equal(r.calls[0]?.arguments, '{"s": "x<sep>y"}');
});
