/**
 * xgrammar 0.2.3's `qwen_xml` JSON-schema style, lowered for web-xgrammar 0.1.27 (src/core/guided/qwenXmlLowering.ts).
 * The first cases are xgrammar's own: tests/python/test_function_calling_converter.py at tag v0.2.3 of
 * mlc-ai/xgrammar (test_string_schema … test_array_schema, `_qwen_xml_tool_calling_to_ebnf`), the same inputs and
 * verdicts; the rest follow its XMLToolCallingConverter (cpp/json_schema_converter_ext.cc) where those tests are
 * silent: raw enums and consts, formats, $ref, anyOf, any order, a bare `{"type": "object"}`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/core/trace/record.ts';
import type { StructuralTag } from '../../../src/core/formats/structuralTag/structuralTagFormat.ts';
import { compileStructuralTag, grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { XmlArgumentLoweringError } from '../../../src/core/guided/xmlArgumentLowering.ts';

const xmlTag = (schema: JsonObject | boolean, anyOrder = false): StructuralTag => ({
  type: 'structural_tag',
  format: { type: 'json_schema', json_schema: schema, style: 'qwen_xml', any_order: anyOrder },
});

async function verdicts(schema: object | boolean, cases: ReadonlyArray<readonly [string, boolean]>, anyOrder = false) {
  const grammar = await compileStructuralTag(xmlTag(schema as JsonObject | boolean, anyOrder));
  for (const [text, accepted] of cases) {
    assert.equal(await grammarAccepts(grammar, text), accepted, `${accepted ? 'accept' : 'refuse'} ${JSON.stringify(text)}`);
  }
}

const nameAge = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } };

test('xgrammar 0.2.3 test_string_schema: raw strings (HTML, line breaks), whitespace around values and members', async () => {
  await verdicts({ ...nameAge, required: ['name', 'age'] }, [
    ['<parameter=name>Bob</parameter><parameter=age>\t100\n</parameter>', true],
    ['<parameter=name>Bob</parameter>\t\n<parameter=age>\t100\n</parameter>', true],
    ['<parameter=name>Bob</parameter><parameter=age>100</parameter>', true],
    [
      '<parameter=name><!DOCTYPE html>\n<html lang="en">\n  <body><h1>Hello</h1></body>\n</html></parameter><parameter=age>100</parameter>',
      true,
    ],
    // Not in xgrammar's list, same grammar: the value ends at the first </parameter>; the order is the declared one.
    ['<parameter=name>Bob</parameter></parameter><parameter=age>100</parameter>', false],
    ['<parameter=age>100</parameter><parameter=name>Bob</parameter>', false],
    ['<parameter=name>Bob</parameter><parameter=age>"100"</parameter>', false],
  ]);
});

test('xgrammar 0.2.3 test_additional_properties_schema: other parameters after the declared ones, names [a-zA-Z_][a-zA-Z0-9_]*', async () => {
  await verdicts({ ...nameAge, required: ['name', 'age'], additionalProperties: true }, [
    ['<parameter=name>Bob</parameter><parameter=age>\t100\n</parameter><parameter=location>New York</parameter>', true],
    ['<parameter=name>Bob</parameter><parameter=age>100</parameter><parameter=123invalid>A</parameter>', false],
  ]);
});

test('xgrammar 0.2.3 test_not_required_properties_schema and test_part_required_properties_schema', async () => {
  await verdicts({ ...nameAge, additionalProperties: true }, [
    ['<parameter=name>Bob</parameter><parameter=age>\t100\n</parameter>', true],
    ['<parameter=name>Bob</parameter>', true],
    ['<parameter=age>100</parameter>', true],
    ['', true],
    ["<parameter=anything>It's a string.</parameter>", true],
  ]);
  await verdicts({ ...nameAge, required: ['name'], additionalProperties: true }, [
    ['<parameter=name>Bob</parameter><parameter=age>\t100\n</parameter>', true],
    ['<parameter=name>Bob</parameter>', true],
    ['<parameter=age>100</parameter>', false],
    ["<parameter=name>Bob</parameter><parameter=age>\t100\n</parameter><parameter=anything>It's a string.</parameter>", true],
    ["<parameter=name>Bob</parameter><parameter=anything>It's a string.</parameter>", true],
    ["<parameter=anything>It's a string.</parameter>", false],
  ]);
});

test('xgrammar 0.2.3 test_inner_object_schema: a nested object is JSON', async () => {
  const address = {
    type: 'object',
    properties: { street: { type: 'string' }, city: { type: 'string' } },
    required: ['street', 'city'],
  };
  await verdicts({ type: 'object', properties: { address }, required: ['address'] }, [
    ['<parameter=address>{"street": "Main St", "city": "New York"}</parameter>', true],
    ['<parameter=address>{"street": "Main St", "city": "No more xml escape&<>"}</parameter>', true],
    ['<parameter=address>{"street": Main St, "city": New York}</parameter>', false],
    ['<parameter=address><parameter=street>Main St</parameter><parameter=city>New York</parameter></parameter>', false],
    ['<parameter=address>{"street": "Main St"}</parameter>', false],
    ['<parameter=address>{"city": "New York"}</parameter>', false],
  ]);
});

test('xgrammar 0.2.3 test_numbers_schema: minProperties / maxProperties count the parameters', async () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' }, ID: { type: 'integer' }, is_student: { type: 'boolean' } },
    maxProperties: 3,
    minProperties: 2,
  };
  await verdicts(schema, [
    ['<parameter=age>25</parameter>', false],
    ['<parameter=name>Bob</parameter><parameter=age>25</parameter>', true],
    ['<parameter=name>Bob</parameter><parameter=ID>123456</parameter><parameter=is_student>true</parameter>', true],
    [
      '<parameter=name>John</parameter><parameter=age>1</parameter><parameter=ID>1</parameter><parameter=is_student>false</parameter>',
      false,
    ],
  ]);
});

test('xgrammar 0.2.3 test_string_format_length_schema and test_array_schema', async () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      contact_info: {
        type: 'object',
        properties: { phone: { type: 'string', pattern: '[0-9]{5}$' }, email: { type: 'string', format: 'email' } },
        required: ['phone', 'email'],
      },
    },
    required: ['name', 'contact_info'],
  };
  await verdicts(schema, [
    ['<parameter=name>ABC</parameter><parameter=contact_info>{"phone": "12345",   "email": "test@test.com"}</parameter>', true],
    ['<parameter=name>X</parameter><parameter=contact_info>{"phone": "67890", "email": "a@b.com"}</parameter>', true],
    ['<parameter=name></parameter><parameter=contact_info>{"phone": "12345", "email": "test@test.com"}</parameter>', false],
    ['<parameter=name>ABC</parameter><parameter=contact_info>{"phone": "1234", "email": "test@test.com"}</parameter>', false],
    ['<parameter=name>ABC</parameter><parameter=contact_info>{"phone": "12345", "email": "not-an-email"}</parameter>', false],
    ['<parameter=name>ABC</parameter><parameter=contact_info>{"phone": "12345"}</parameter>', false],
    ['<parameter=name>ABC</parameter><parameter=contact_info>{"email": "test@test.com"}</parameter>', false],
    ['<parameter=name>ABC</parameter>', false],
    ['<parameter=contact_info>{"phone": "12345", "email": "test@test.com"}</parameter>', false],
  ]);
  await verdicts({ type: 'object', properties: { array: { type: 'array', items: { type: 'string' } } }, required: ['array'] }, [
    ['<parameter=array>["foo", "bar"]</parameter>', true],
    ['<parameter=array>["foo", "bar", "baz"]</parameter>', true],
    ['<parameter=array>[]</parameter>', true],
    ['<parameter=array>[foo, bar, baz, qux, quux, corge]</parameter>', false],
  ]);
});

test('enums and consts are raw text, integers keep their bounds, numbers and booleans are JSON', async () => {
  const schema = {
    type: 'object',
    properties: {
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      mode: { const: 'fast' },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      ratio: { type: 'number' },
      exact: { type: 'boolean' },
    },
    required: ['unit', 'days'],
  };
  await verdicts(schema, [
    ['<parameter=unit>\ncelsius\n</parameter>\n<parameter=days>\n14\n</parameter>\n', true],
    ['<parameter=unit>"celsius"</parameter><parameter=days>3</parameter>', false],
    ['<parameter=unit>kelvin</parameter><parameter=days>3</parameter>', false],
    ['<parameter=unit>celsius</parameter><parameter=mode>fast</parameter><parameter=days>3</parameter>', true],
    ['<parameter=unit>celsius</parameter><parameter=mode>slow</parameter><parameter=days>3</parameter>', false],
    ['<parameter=unit>celsius</parameter><parameter=days>15</parameter>', false],
    ['<parameter=unit>celsius</parameter><parameter=days>0</parameter>', false],
    [
      '<parameter=unit>celsius</parameter><parameter=days>2</parameter><parameter=ratio>-0.5e3</parameter><parameter=exact>false</parameter>',
      true,
    ],
    ['<parameter=unit>celsius</parameter><parameter=days>2</parameter><parameter=exact>yes</parameter>', false],
  ]);
});

test('formats, $ref into $defs, anyOf and type lists at the parameter level', async () => {
  const schema = {
    type: 'object',
    $defs: { Unit: { type: 'string', enum: ['c', 'f'] }, Range: { type: 'object', properties: { lo: { type: 'integer' } } } },
    properties: {
      start: { type: 'string', format: 'date-time' },
      unit: { $ref: '#/$defs/Unit' },
      range: { $ref: '#/$defs/Range' },
      limit: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['all'] }] },
      note: { type: ['string', 'null'] },
    },
  };
  await verdicts(schema, [
    ['<parameter=start>2025-10-22T14:00:00Z</parameter>', true],
    ['<parameter=start>tomorrow</parameter>', false],
    ['<parameter=unit>f</parameter><parameter=range>{"lo": 3}</parameter>', true],
    ['<parameter=unit>k</parameter>', false],
    ['<parameter=limit>12</parameter>', true],
    ['<parameter=limit>all</parameter>', true],
    ['<parameter=limit>some</parameter>', false],
    // A string or null: the raw-text branch takes anything, `null` included.
    ['<parameter=note>null</parameter>', true],
    ['<parameter=note>any text at all</parameter>', true],
  ]);
});

test('any_order: the parameters in any order, counted, required ones not enforced (as xgrammar)', async () => {
  await verdicts(
    { ...nameAge, required: ['name'] },
    [
      ['<parameter=age>1</parameter><parameter=name>Bob</parameter>', true],
      ['<parameter=age>1</parameter>', true],
      ['', false],
    ],
    true,
  );
});

test('no parameters or a bare {"type": "object"}: any XML parameters (xgrammar xml_object); a plain object schema: none', async () => {
  await verdicts(true, [
    ['', true],
    ['<parameter=a>x</parameter>\n<parameter=b>[1, 2]</parameter>\n', true],
    ['<parameter=1a>x</parameter>', false],
  ]);
  await verdicts({ type: 'object', properties: { opts: { type: 'object' } }, required: ['opts'] }, [
    ['<parameter=opts>\n<parameter=a>\n1\n</parameter>\n</parameter>', true],
    ['<parameter=opts>{"a": 1}</parameter>', false],
  ]);
  await verdicts({ type: 'object' }, [
    ['\n', true],
    ['<parameter=a>x</parameter>', false],
  ]);
});

test('what the lowering does not express is refused with the reason (guided-unavailable), not compiled wrong', async () => {
  await assert.rejects(compileStructuralTag(xmlTag({ type: 'string' })), XmlArgumentLoweringError);
  await assert.rejects(
    compileStructuralTag(xmlTag({ type: 'object', patternProperties: { '^x': { type: 'string' } } })),
    /patternProperties/,
  );
});
