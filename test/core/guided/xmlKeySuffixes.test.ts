/**
 * An XML argument style whose key ends with one of several suffixes (`keySuffixes`: xgrammar's `deepseek_xml` writes
 * `" string="` then `true">` or `false">`): the lowering offers each after every key, the hint skips the one written.
 * A style declared here, not a registered format's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { XmlArgumentStyle } from '../../../src/core/formats/structuralTag/structuralTagFormat.ts';
import { lowerXmlArguments } from '../../../src/core/guided/xmlArgumentLowering.ts';
import { xmlArgumentHint } from '../../../src/core/guided/xmlArgumentHint.ts';

const STYLE: XmlArgumentStyle = {
  style: 'toy_xml',
  keyBegin: '<p name="',
  keyEnd: '" s="',
  keySuffixes: ['y">', 'n">'],
  valueBegin: '',
  valueEnd: '</p>',
  spaceBeforeValue: false,
};
const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] };

test('keySuffixes: every member opening offers each suffix after the key', () => {
  const { plan } = lowerXmlArguments({ type: 'json_schema', json_schema: schema, style: 'toy_xml' }, 0, STYLE);
  const root = plan.rules.map((r) => r.body).join('\n');
  assert.match(root, /"<p name=\\"city\\" s=\\"" \("y\\">" \| "n\\">"\)/u);
  assert.match(root, /"<p name=\\"days\\" s=\\"" \("y\\">" \| "n\\">"\)/u);
});

test('keySuffixes: the hint names the suffixes when none was written, and reads the value after the one that was', () => {
  assert.equal(xmlArgumentHint(STYLE, schema, '<p name="city" s="x'), 'one of "y">", "n">" after city');
  assert.equal(xmlArgumentHint(STYLE, schema, '<p name="city" s="y">'), 'text up to "</p>" for city');
});
