/**
 * vLLM's coerce_to_schema_type and extract_types_from_schema (vllm/tool_parsers/utils.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e), case by case as the Python reads: the priority null > integer > number >
 * boolean > object > array > string, whole floats sent as integers, `1`/`0` as booleans, the json.loads fall-back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coerceToSchemaType, schemaTypes } from '../../../../src/core/formats/kernel/schemaCoercion.ts';

const t = (...types: string[]): Set<string> => new Set(types);

test('each type reads the text as Python does, in the priority order', () => {
  const cases: Array<[string, Set<string>, string]> = [
    ['42', t('string'), '"42"'],
    ['42', t('integer'), '42'],
    ['+4_2', t('integer'), '42'],
    ['3.0', t('number'), '3'],
    ['1e20', t('number'), '100000000000000000000'],
    ['3.14', t('number'), '3.14'],
    ['inf', t('number'), '"inf"'],
    ['1', t('boolean'), 'true'],
    ['FALSE', t('boolean'), 'false'],
    ['1', t('integer', 'boolean'), '1'],
    ['NULL', t('null', 'string'), 'null'],
    ['null', t('string'), '"null"'],
    ['[1, 2.0]', t('array'), '[1, 2.0]'],
    ['5', t('object'), '5'],
    // No type reads it: json.loads, else the text.
    ['abc', t('integer'), '"abc"'],
    ['true', t('integer'), 'true'],
    ['yes', t('boolean'), '"yes"'],
  ];
  for (const [value, types, json] of cases) assert.equal(coerceToSchemaType(value, types), json, `${value} as ${[...types]}`);
});

test('a schema admits its type(s), its enum values’ kinds and its anyOf/oneOf/allOf members’; string when none', () => {
  assert.deepEqual([...schemaTypes({ type: 'integer' })], ['integer']);
  assert.deepEqual([...schemaTypes({ type: ['Integer', 'null'] })].sort(), ['integer', 'null']);
  assert.deepEqual([...schemaTypes({ type: 'int64' })], ['integer']);
  assert.deepEqual([...schemaTypes({ enum: [1, 'a', null, true] })].sort(), ['boolean', 'integer', 'null', 'string']);
  assert.deepEqual([...schemaTypes({ anyOf: [{ type: 'number' }, { type: 'boolean' }] })].sort(), ['boolean', 'number']);
  assert.deepEqual([...schemaTypes({ description: 'no type' })], ['string']);
  assert.deepEqual([...schemaTypes(null)], ['string']);
});
