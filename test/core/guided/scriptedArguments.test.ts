/** The scripted arguments read for key-aligned guided decoding: members with raw values, spacing, fallbacks. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readScriptedObject, schemaValues, valueCandidates } from '../../../src/core/guided/scriptedArguments.ts';

test('an argument object: members with their raw text, the script spacing, the last of a repeated key', () => {
  const o = readScriptedObject(' {\n  "a": 1.50,\n  "b": {"c": "x\\"y"},\n  "a": "again"\n} ');
  assert.ok(o);
  assert.deepEqual(
    o.members.map((m) => [m.key, m.raw]),
    [
      ['b', '{"c": "x\\"y"}'],
      ['a', '"again"'],
    ],
  );
  assert.equal(o.open, '\n  ');
  assert.equal(o.separator, ',\n  ');
  assert.equal(o.colon, ': ');
  assert.equal(o.close, '\n');
  assert.deepEqual(readScriptedObject('{}')?.members, []);
  // Not one complete object: left to the character-level decoder.
  for (const bad of ['{"a": 1', '{"a": "cut', '[1]', '{"a": 1} trailing', '{"a" 1}', 'text'])
    assert.equal(readScriptedObject(bad), null, bad);
});

test('fallbacks for a refused value: the nearest enum value, a clamped number, the text as a string, the schema', () => {
  const member = (raw: string) => ({ key: 'k', raw, value: JSON.parse(raw) as unknown });
  assert.equal(valueCandidates(member('"Fahrenheit"'), { type: 'string', enum: ['celsius', 'fahrenheit'] }, {})[0], '"fahrenheit"');
  assert.equal(valueCandidates(member('600'), { type: 'integer', minimum: 5, maximum: 240 }, {})[0], '240');
  assert.equal(valueCandidates(member('0'), { type: 'integer', exclusiveMinimum: 0 }, {})[0], '1');
  assert.equal(valueCandidates(member('42'), { type: 'string' }, {})[0], '"42"');
  assert.equal(valueCandidates(member('"abcdef"'), { type: 'string', maxLength: 3 }, {})[0], '"abc"');
  // The scripted text itself is never offered again.
  assert.ok(!valueCandidates(member('"x"'), { type: 'string' }, {}).includes('"x"'));
  // A required key the script lacks: default, examples, const, first enum, then a placeholder.
  assert.deepEqual(schemaValues({ type: 'string', default: 'd', examples: ['e'] }, {}).slice(0, 2), ['"d"', '"e"']);
  assert.equal(schemaValues({ enum: ['north', 'south'] }, {})[0], '"north"');
  assert.equal(schemaValues({ $ref: '#/$defs/n' }, { $defs: { n: { type: 'integer', minimum: 3 } } })[0], '3');
});
