/**
 * The key/value kernel's attribute extension on a small markup of its own (not a registered format): a name and a
 * key followed by attributes up to `>`, a value typed by a `type` attribute over the schema, values kept as written
 * (`valueLayout: 'verbatim'`), several functions in one wrapper. Every cut of the text gives the one-shot parse.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyValueCallParser, type KeyValueSyntax } from '../../../../src/core/formats/kernel/keyValueCallParser.ts';
import { UNTYPED_JSON } from '../../../../src/core/formats/kernel/parameterTypes.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { checkAllCuts } from '../kit/formatTestKit.ts';

const SYNTAX: KeyValueSyntax = {
  table: [
    { text: '<calls>', name: 'call-begin' },
    { text: '</calls>', name: 'call-end' },
    { text: '<fn name="', name: 'function-begin' },
    { text: '</fn>', name: 'function-end' },
    { text: '<arg name="', name: 'parameter-begin' },
    { text: '</arg>', name: 'parameter-end' },
  ],
  tokenMarkers: [],
  wrapped: true,
  manyFunctions: true,
  nameEnd: '"',
  requireName: true,
  keyEnd: '"',
  attributesEnd: '>',
  attributeType: (attrs) => {
    const m = /type="(\w+)"/u.exec(attrs);
    if (!m) return undefined;
    return m[1] === 'text' ? { string: true, nullable: false, boolean: false } : UNTYPED_JSON;
  },
  untypedValues: 'text',
  valueLayout: 'verbatim',
  words: {
    callBegin: '<calls>',
    callEnd: '</calls>',
    functionBegin: '<fn>',
    functionEnd: '</fn>',
    parameterBegin: '<arg>',
    parameterEnd: '</arg>',
  },
  label: 'ToyParser',
};

const tools = [{ function: { name: 'f', parameters: { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } } } }];
const make = (options?: ParserOptions) => new KeyValueCallParser(SYNTAX, options);
const parse = (text: string, options?: ParserOptions) => {
  const p = make(options);
  p.push(text);
  p.finish();
  return p.result();
};

const TEXT =
  'Hi <calls>\n<fn name="f" x="1">\n<arg name="n" type="json">7</arg>\n<arg name="s" type="json">{"a": 1}</arg>\n</fn>\n' +
  '<fn name="g">\n<arg name="n" type="text">42</arg>\n<arg name="s">\n two \n</arg>\n</fn>\n</calls>';

test('key/value kernel: attributes after the name and key, typing by attribute over the schema, values as written', () => {
  const r = parse(TEXT, { tools });
  assert.equal(r.content, 'Hi ');
  assert.deepEqual(
    r.calls.map((c) => [c.name, JSON.parse(c.arguments), c.terminated]),
    [
      ['f', { n: 7, s: { a: 1 } }, true],
      ['g', { n: '42', s: '\n two \n' }, true],
    ],
  );
  assert.deepEqual(r.notes, []);
});

test('key/value kernel: a closing tag inside a value waits for the next tag, also before another function', () => {
  const r = parse('<calls><fn name="f"><arg name="s" type="text">a</fn>b</arg></fn><fn name="f"></fn></calls>', { tools });
  assert.deepEqual(
    r.calls.map((c) => JSON.parse(c.arguments)),
    [{ s: 'a</fn>b' }, {}],
  );
});

test('key/value kernel: the attribute extension is split invariant', () => {
  checkAllCuts(make, TEXT, { tools }, 'toy attributes');
  checkAllCuts(make, '<calls><fn name="f" x=">y', { tools }, 'toy cut in the header');
});
