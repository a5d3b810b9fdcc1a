/**
 * callTagHint: what the grammar allowed inside a call's begin, read back from the tag — the tool names the begin may
 * still become, also when the model has already written part of a declared name (`get_` of get_weather); and
 * xmlArgumentHint, the same inside `qwen_xml` arguments (`<parameter=KEY>` members).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { callTagHint } from '../../../src/core/guided/callTagHint.ts';
import { xmlArgumentHint } from '../../../src/core/guided/xmlArgumentHint.ts';
import { xmlArgumentStyle } from '../../../src/core/guided/argumentStyles.ts';

const QWEN_XML = xmlArgumentStyle('qwen_xml')!;
const qwenXmlHint = (schema: Parameters<typeof xmlArgumentHint>[1], written: string) => xmlArgumentHint(QWEN_XML, schema, written);
import { weatherTools } from '../../fixtures/guided/weatherTool.ts';

const hermesTag = () => {
  const guided = getFormat('hermes').guided;
  assert.ok(guided);
  return guided.structuralTag(weatherTools, 'auto');
};

test('a hallucinated name that shares its first letters with a declared one: the declared name, not the rest of the begin', () => {
  const text = '<tool_call>\n{"name": "get_stock_price", "arguments": {}}\n</tool_call>';
  assert.equal(callTagHint(hermesTag(), ['get_weather'], text, 0, text.indexOf('stock')), 'a tool name: get_weather');
  assert.equal(callTagHint(hermesTag(), ['get_weather'], text, 0, text.indexOf('get_stock')), 'a tool name: get_weather');
});

test('past the name, in the begin: no tool name to offer', () => {
  const text = '<tool_call>\n{"name": "get_weather" , "arguments": {}}\n</tool_call>';
  assert.equal(callTagHint(hermesTag(), ['get_weather'], text, 0, text.indexOf(' ,')), undefined);
});

test('qwen_xml arguments: the parameters that may come next, and the open parameter’s value in the XML’s words', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] }, days: { type: 'integer', minimum: 1, maximum: 20 } },
    required: ['city', 'days'],
  };
  assert.equal(qwenXmlHint(schema, ''), '"<parameter=city>" (required)');
  assert.equal(
    qwenXmlHint(schema, '<parameter=city>\nParis\n</parameter>\n'),
    'one of "<parameter=unit>", "<parameter=days>" (days is required)',
  );
  assert.equal(qwenXmlHint(schema, '<parameter=city>\nParis\n</parameter>\n<parameter=unit>\n'), 'one of c, f for unit');
  assert.equal(qwenXmlHint(schema, '<parameter=city>\nPa'), 'text up to "</parameter>" for city');
  assert.equal(qwenXmlHint(schema, '<parameter=city>\nParis\n</parameter>\n<parameter=days>\n9'), 'an integer 1–20 for days');
  assert.equal(qwenXmlHint(schema, '<parameter=city>\nP\n</parameter>\n<parameter=days>\n9\n</parameter>\n'), undefined);
});
