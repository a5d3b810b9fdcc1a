/**
 * The pre-check of schemas web-xgrammar cannot compile (schemaSupport.ts): every class of issue #13's defect 1
 * as a one-liner, a reason in words for each; schemas xgrammar does compile are not refused; property names JSON
 * escapes compile to the text JSON writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaProblem } from '../../../src/core/guided/schemaSupport.ts';
import { grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { compileKimiGrammar } from './kimiGrammar.ts';
import { whatIfForRequest } from '../../../src/core/guided/whatIf.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';
import { ABORTING_CLASSES, ESCAPED_PROPERTY_NAMES } from '../../fixtures/hostileSchemas.ts';
import { call, section } from './fixtures.ts';

const tool = (parameters: unknown): ChatTool[] => [
  { type: 'function', function: { name: 'f', parameters: parameters as Record<string, never> } },
];

for (const { name, schema, reason } of ABORTING_CLASSES) {
  test(`pre-check: ${name}`, () => {
    assert.match(schemaProblem(schema) ?? '(no problem found)', reason);
  });
}

test('pre-check: the what-if says why instead of reaching the engine', async () => {
  for (const { name, schema, reason } of ABORTING_CLASSES) {
    const run = await whatIfForRequest({ tools: tool(schema), tool_choice: 'auto' }, { text: 'hi', tokens: [] }, { format: 'kimi_k2' });
    assert.equal(run.ran, false, name);
    if (!run.ran) {
      assert.equal(run.unavailable, true, name);
      assert.match(run.why, /^xgrammar cannot compile the parameters of tool f: /, name);
      assert.match(run.why, reason, name);
    }
  }
});

test('pre-check: what xgrammar compiles is not refused', () => {
  const fine = [
    { type: 'object', properties: { a: { $ref: '#' } } },
    { type: 'object', properties: { a: true, b: { type: 'array', items: false } }, additionalProperties: false },
    { type: 'object', properties: { a: { type: 'number', minimum: -1e300 } } },
    { type: 'object', properties: { a: { type: 'integer', minimum: -1e18, maximum: 1e18 } } },
    { $ref: '#/$defs/o', $defs: { o: { type: 'object' }, unused: false } },
    { type: 'object', properties: { a: { $ref: 'http://example.com/other.json' } } },
    { type: 'object', properties: { a: { type: 'string', pattern: '^(?<y>\\d{4})-\\u00e9$' } } },
    { type: 'object', properties: { a: { not: false, if: false, contains: false } } },
  ];
  for (const schema of fine) assert.equal(schemaProblem(schema), undefined, JSON.stringify(schema));
});

test('pre-check: a schema nested 3,000 levels deep is refused without a stack overflow', () => {
  let s: unknown = { type: 'string' };
  for (let i = 0; i < 3000; i++) s = { type: 'object', properties: { a: s } };
  assert.match(schemaProblem(s) ?? '', /nested more than 50 levels/);
});

test('property names JSON escapes (\\\\, ", newline, tab) compile to the text JSON writes', async () => {
  const properties = Object.fromEntries(ESCAPED_PROPERTY_NAMES.map((k) => [k, { type: 'integer' }]));
  const g = await compileKimiGrammar(tool({ type: 'object', properties, required: ESCAPED_PROPERTY_NAMES }), 'auto');
  const args = (names: string[]) => JSON.stringify(Object.fromEntries(names.map((k) => [k, 1])));
  assert.equal(await grammarAccepts(g, section(call('f', 0, args(ESCAPED_PROPERTY_NAMES)))), true);
  // The EBNF-unescaped spelling (what 0.1.27 wanted for `a\b`: a backspace) is refused.
  const unescaped = `{"a\\b": 1}`.replace('\\b', '\b');
  const one = await compileKimiGrammar(tool({ type: 'object', properties: { 'a\\b': { type: 'integer' } }, required: ['a\\b'] }), 'auto');
  assert.equal(await grammarAccepts(one, section(call('f', 0, '{"a\\\\b": 1}'))), true);
  assert.equal(await grammarAccepts(one, section(call('f', 0, unescaped))), false);
});
