/**
 * The key/value kernel's options for attribute-style and tag-ended markup, on a syntax written here (no format's):
 * quoted names and keys (`<invoke name="N">`), verbatim values, and a name a tag must end (`<sep>`). Each is read
 * whole and cut at every character (split invariance).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyValueCallParser, type KeyValueRole, type KeyValueSyntax } from '../../../../src/core/formats/kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../../../../src/core/formats/kernel/markupParser.ts';
import type { ParseResult } from '../../../../src/core/formats/toolCallFormat.ts';

const QUOTED_TABLE: MarkerDef<KeyValueRole>[] = [
  { text: '<calls>', name: 'call-begin' },
  { text: '</calls>', name: 'call-end' },
  { text: '<invoke name=', name: 'function-begin' },
  { text: '</invoke>', name: 'function-end' },
  { text: '<parameter name=', name: 'parameter-begin' },
  { text: '</parameter>', name: 'parameter-end' },
];

const QUOTED: KeyValueSyntax = {
  table: QUOTED_TABLE,
  tokenMarkers: ['<calls>', '</calls>'],
  wrapped: true,
  nameEnd: '>',
  quotedNames: true,
  requireName: false,
  keyEnd: '>',
  untypedValues: 'text',
  valueLayout: 'verbatim',
  words: {
    callBegin: '<calls>',
    callEnd: '</calls>',
    functionBegin: '<invoke name=…>',
    functionEnd: '</invoke>',
    parameterBegin: '<parameter name=…>',
    parameterEnd: '</parameter>',
  },
  label: 'QuotedTest',
};

const SEP_TABLE: MarkerDef<KeyValueRole>[] = [
  { text: '<call>', name: 'function-begin' },
  { text: '</call>', name: 'function-end' },
  { text: '<sep>', name: 'name-end' },
  { text: '<k>', name: 'parameter-begin' },
  { text: '</k>', name: 'key-end' },
  { text: '<v>', name: 'value-begin' },
  { text: '</v>', name: 'parameter-end' },
];

const SEP: KeyValueSyntax = {
  table: SEP_TABLE,
  tokenMarkers: SEP_TABLE.map((m) => m.text),
  wrapped: true,
  nameEnd: null,
  requireName: true,
  keyEnd: null,
  untypedValues: 'text',
  valueLayout: 'verbatim',
  words: {
    callBegin: '<calls>',
    callEnd: '</calls>',
    functionBegin: '<call>',
    functionEnd: '</call>',
    nameEnd: '<sep>',
    parameterBegin: '<k>',
    parameterEnd: '</v>',
    keyEnd: '</k>',
    valueBegin: '<v>',
  },
  label: 'SepTest',
};

function parse(syntax: KeyValueSyntax, pieces: readonly string[]): ParseResult {
  const p = new KeyValueCallParser(syntax);
  for (const piece of pieces) p.push(piece);
  p.finish();
  return p.result();
}

/** The text whole, then cut in two at every character: the same result. */
function parseEveryCut(syntax: KeyValueSyntax, text: string): ParseResult {
  const whole = parse(syntax, [text]);
  for (let i = 1; i < text.length; i++) assert.deepEqual(parse(syntax, [text.slice(0, i), text.slice(i)]), whole, `cut at ${i}`);
  return whole;
}

test('quoted names and keys lose one pair of matching quotes; values are kept verbatim', () => {
  const text = `<calls><invoke name="get_weather"><parameter name="city"> Paris \n</parameter><parameter name='unit'>c</parameter></invoke>\n<invoke name=now></invoke></calls>`;
  const r = parseEveryCut(QUOTED, text);
  assert.deepEqual(
    r.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [
      ['get_weather', { city: ' Paris \n', unit: 'c' }],
      ['now', {}],
    ],
  );
  const first = r.calls[0]!;
  assert.equal(text.slice(first.idSpan.start, first.idSpan.end), 'get_weather');
  assert.equal(r.content, null);
});

test('a name a tag must end: ended by the tag it is a call; ended by anything else it is content, noted', () => {
  const call = parseEveryCut(SEP, 'a<call>lookup<sep>\n<k>q</k>\n<v> x </v>\n</call>');
  assert.deepEqual(
    call.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
    [['lookup', { q: ' x ' }]],
  );
  assert.equal(call.content, 'a');
  assert.ok(call.markers.some((m) => m.text === '<sep>'));

  const json = parseEveryCut(SEP, '<call>\n{"name": "lookup"}\n</call> done');
  assert.deepEqual(json.calls, []);
  assert.equal(json.content, '<call>\n{"name": "lookup"}\n</call> done');
  assert.ok(json.notes.some((n) => n.kind === 'stray-marker' && /without <sep>: not a call/u.test(n.detail)));
});
