/**
 * ToolSchemas against hostile tool schemas: each schema is validated with the draft its `$schema` names, own
 * properties only, no recursion or pattern can take analysis down, and what ajv cannot use is a bad-schema
 * result with ajv's message, never an exception.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolSchemas, schemaDraft, type SchemaCheck } from '../../../src/core/schema/toolSchemas.ts';
import { newAjv } from '../../../src/core/schema/schemaDrafts.ts';
import { linearRegExp } from '../../../src/core/schema/linearRegExp.ts';
import { RE2JS } from 're2js';
import { schemaKey } from '../../../src/core/schema/schemaKey.ts';
import type { ChatTool, JsonObject } from '../../../src/core/trace/record.ts';

const SUITE = join(import.meta.dirname, '../../fixtures/json-schema-test-suite');

const tool = (parameters: unknown): ChatTool => ({ type: 'function', function: { name: 't', parameters: parameters as JsonObject } });

// One instance for most tests: each new one builds its ajv instances again.
const SHARED = new ToolSchemas();

function check(parameters: unknown, args: unknown, schemas = SHARED): SchemaCheck {
  return schemas.check(tool(parameters), args);
}

const paths = (r: SchemaCheck) =>
  r.kind === 'findings'
    ? r.findings
        .filter((f) => f.severity === 'error')
        .map((f) => `${f.path} ${f.keyword}`)
        .sort()
    : [];

test('draft-07 (zod-to-json-schema output) is validated, not "does not compile"', () => {
  const zod = {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
    required: ['city'],
    additionalProperties: false,
    $schema: 'http://json-schema.org/draft-07/schema#',
  };
  assert.deepEqual(check(zod, { city: 'Paris' }), { kind: 'ok' });
  assert.deepEqual(paths(check(zod, { days: 0 })), ['$ required', '$.days minimum']);
});

test('draft-07 semantics: tuple items and additionalItems, definitions', () => {
  const s = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
      p: { $ref: '#/definitions/pos' },
    },
    definitions: { pos: { type: 'integer', exclusiveMinimum: 0 } },
  };
  assert.deepEqual(check(s, { pair: ['a', 1], p: 3 }), { kind: 'ok' });
  assert.deepEqual(paths(check(s, { pair: [1, 1, 2], p: 0 })), ['$.p exclusiveMinimum', '$.pair additionalItems', '$.pair[0] type']);
});

test('draft-04: boolean exclusiveMinimum and draft-04 id', () => {
  const s = {
    $schema: 'http://json-schema.org/draft-04/schema#',
    id: 'http://example.com/t',
    type: 'object',
    properties: { n: { type: 'number', minimum: 5, exclusiveMinimum: true } },
  };
  assert.deepEqual(check(s, { n: 6 }), { kind: 'ok' });
  assert.deepEqual(paths(check(s, { n: 5 })), ['$.n minimum']);
});

test('draft-06, 2019-09 and 2020-12 each by their own rules', () => {
  const d6 = {
    $schema: 'http://json-schema.org/draft-06/schema#',
    type: 'object',
    properties: { c: { const: 1 } },
    propertyNames: { maxLength: 3 },
  };
  assert.deepEqual(check(d6, { c: 1 }), { kind: 'ok' });
  assert.deepEqual(paths(check(d6, { c: 2, long: 1 })), ['$ maxLength', '$ propertyNames', '$.c const']);
  const d2019 = {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    type: 'object',
    properties: { a: { type: 'string' } },
    unevaluatedProperties: false,
    $defs: {},
  };
  assert.deepEqual(check(d2019, { a: 'x' }), { kind: 'ok' });
  assert.deepEqual(paths(check(d2019, { a: 'x', b: 1 })), ['$ unevaluatedProperties']);
  const d2020 = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], items: false };
  assert.deepEqual(check(d2020, ['x']), { kind: 'ok' });
  assert.deepEqual(paths(check(d2020, ['x', 1])), ['$ items']);
});

test('$schema spellings: with or without "#", http or https; an unknown one is a bad schema naming it', () => {
  assert.equal(schemaDraft({ $schema: 'https://json-schema.org/draft-07/schema' }), 'draft-07');
  assert.equal(schemaDraft({ $schema: 'http://json-schema.org/draft/2020-12/schema#' }), '2020-12');
  assert.equal(schemaDraft({}), null);
  const r = check({ $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' }, {});
  assert.equal(r.kind, 'bad-schema');
  assert.match(r.kind === 'bad-schema' ? r.message : '', /draft-03.*draft-04, draft-06, draft-07, 2019-09, 2020-12/s);
});

test('no $schema: 2020-12, and a draft-07-only schema (tuple items) still validates as draft-07', () => {
  const s = { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } } };
  assert.deepEqual(check(s, { pair: ['a', 1] }), { kind: 'ok' });
  assert.deepEqual(paths(check(s, { pair: [1, 'a'] })), ['$.pair[0] type', '$.pair[1] type']);
});

test('own properties only: "constructor" is an ordinary property, required "toString" is missing from {}', () => {
  const s = { type: 'object', properties: { constructor: { type: 'string' } }, required: ['toString'] };
  assert.deepEqual(paths(check(s, { toString: 'x', constructor: 'a' })), []);
  assert.deepEqual(paths(check(s, {})), ['$ required']);
  assert.deepEqual(paths(check({ type: 'object', properties: { constructor: { type: 'string' } } }, {})), []);
});

test('self-referencing schemas do not overflow: {"$ref": "#"}, allOf [$ref #], $dynamicRef', () => {
  for (const s of [
    { $ref: '#' },
    { allOf: [{ $ref: '#' }] },
    { type: 'object', anyOf: [{ $ref: '#' }] },
    { $schema: 'https://json-schema.org/draft/2020-12/schema', $dynamicAnchor: 'a', allOf: [{ $dynamicRef: '#a' }] },
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } },
      $ref: '#/definitions/a',
    },
  ]) {
    const r = check(s, { a: 1 });
    assert.equal(r.kind, 'bad-schema', JSON.stringify(s));
    assert.match(r.kind === 'bad-schema' ? r.message : '', /recurs/);
  }
});

test('a 3,000-deep schema and 3,000-deep arguments: a result, no stack overflow', () => {
  let s: JsonObject = { type: 'string' };
  for (let i = 0; i < 3000; i++) s = { type: 'object', properties: { a: s } };
  let args: unknown = 'x';
  for (let i = 0; i < 3000; i++) args = { a: args };
  const schemas = new ToolSchemas();
  const r = check(s, args, schemas);
  assert.ok(['ok', 'bad-schema'].includes(r.kind), r.kind);
  // The compiled schema (or its failure) is cached: the second call gives the same answer.
  assert.equal(check(s, args, schemas).kind, r.kind);
  let deep: unknown = 1;
  for (let i = 0; i < 20000; i++) deep = [deep];
  assert.ok(['ok', 'findings', 'bad-schema'].includes(check({ type: 'array', items: { $ref: '#' } }, deep).kind));
});

test('patterns run in linear time: "^(a+)+$" against 34 a and "!" is instant', () => {
  const s = {
    type: 'object',
    properties: { p: { type: 'string', pattern: '^(a+)+$' } },
    patternProperties: { '^(x+x+)+y$': { type: 'integer' } },
  };
  const started = Date.now();
  const evil = 'a'.repeat(34) + '!';
  assert.deepEqual(paths(check(s, { p: evil, [`${'x'.repeat(40)}z`]: 'not checked' })), ['$.p pattern']);
  assert.deepEqual(paths(check(s, { p: 'aaa' })), []);
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
});

test("the meta-schemas' own patterns get V8's engine, every other pattern RE2, and both check $id and $anchor alike", () => {
  for (const meta of ['^[^#]*#?$', '^[A-Za-z_][-A-Za-z0-9._]*$', '^[A-Za-z][-A-Za-z0-9.:_]*$']) {
    assert.ok(linearRegExp(meta, 'u') instanceof RegExp, meta);
  }
  // The same letters with anything changed are the schema's own pattern: RE2.
  for (const other of ['^[^#]*#?', '^(a+)+$', '^[A-Za-z_][-A-Za-z0-9._]+$'])
    assert.match(String(linearRegExp(other, 'u')), /\(re2\)$/, other);
  // The same verdicts either way, on ids and anchors that pass and fail.
  const re2 = (pattern: string) => RE2JS.compile(pattern);
  for (const meta of ['^[^#]*#?$', '^[A-Za-z_][-A-Za-z0-9._]*$', '^[A-Za-z][-A-Za-z0-9.:_]*$']) {
    for (const text of ['https://x.example/s#', 'https://x.example/s#a#b', 'item_1', '1item', 'a:b.c', '', 'Ünï', '\ud800#', 'a\nb']) {
      assert.equal(linearRegExp(meta, 'u').test(text), re2(meta).test(text), `${meta} on ${JSON.stringify(text)}`);
    }
  }
});

test('patterns: \\p{L}, \\d, anchors and unanchored search behave like ECMAScript', () => {
  const s = { type: 'object', properties: { w: { type: 'string', pattern: '^\\p{L}+$' }, d: { type: 'string', pattern: '\\d{3}' } } };
  assert.deepEqual(paths(check(s, { w: 'Ünïcode', d: 'ab123cd' })), []);
  assert.deepEqual(paths(check(s, { w: 'a1', d: '12' })), ['$.d pattern', '$.w pattern']);
});

test('a pattern ajv cannot use (invalid, or lookaround) is a bad schema with the message, not an exception', () => {
  for (const pattern of ['([', '(?=a)b', '(a)\\1']) {
    const r = check({ type: 'object', properties: { p: { type: 'string', pattern } } }, { p: 'x' });
    assert.equal(r.kind, 'bad-schema', pattern);
    assert.match(r.kind === 'bad-schema' ? r.message : '', /pattern/);
  }
});

test('hostile schemas give a result, never an exception', () => {
  const hostile: unknown[] = [
    { type: 'foo' },
    { required: 'a' },
    { additionalProperties: 5 },
    { $ref: '#/$defs/missing' },
    { $ref: '#/$defs/a~1b', $defs: { 'a/b': { type: 'string' } } },
    { minimum: -1e300, maximum: 1e300 },
    { minimum: 3, maximum: 1 },
    { enum: [] },
    { properties: { a: false } },
    { $id: 'x', $ref: 'http://example.com/other.json' },
    { type: 'object', properties: { 'a"b\nc': { type: 'string' } } },
    { format: 'no-such-format', type: 'string' },
    { type: 'object', $id: 7 },
    { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', id: { a: 1 } },
    [1, 2],
    'not a schema',
  ];
  for (const s of hostile) {
    const r = check(s, { a: 'x' });
    assert.ok(['ok', 'findings', 'bad-schema', 'no-schema'].includes(r.kind), JSON.stringify(s));
  }
});

test('two tools declaring the same $id differently do not collide', () => {
  const schemas = new ToolSchemas();
  const a = { $id: 'https://example.com/tool', type: 'object', properties: { n: { $id: 'inner', type: 'integer' } } };
  const b = { $id: 'https://example.com/tool', type: 'object', properties: { n: { $id: 'inner', type: 'string' } } };
  assert.deepEqual(check(a, { n: 1 }, schemas), { kind: 'ok' });
  assert.deepEqual(check(b, { n: 'x' }, schemas), { kind: 'ok' });
  assert.deepEqual(paths(check(a, { n: 'x' }, schemas)), ['$.n type']);
  assert.deepEqual(paths(check(b, { n: 1 }, schemas)), ['$.n type']);
});

test('format warnings come beside the structural errors; a schema without a format key has none to give', () => {
  const s = { type: 'object', properties: { when: { type: 'string', format: 'date' }, n: { type: 'integer' } }, required: ['n'] };
  const r = check(s, { when: 'not a date' });
  assert.deepEqual(r.kind === 'findings' ? r.findings.map((f) => `${f.path} ${f.keyword} ${f.severity}`) : r.kind, [
    '$ required error',
    '$.when format warning',
  ]);
  // ToolSchemas leaves the format pass out for a schema with no key `format` anywhere: on every schema of the
  // JSON-Schema-Test-Suite without one, and every instance the suite tests it with, that pass reports no format error.
  let instances = 0;
  for (const file of ['draft2020-12', 'draft7'].flatMap((d) => readdirSync(join(SUITE, d)).map((f) => join(SUITE, d, f)))) {
    const groups = JSON.parse(readFileSync(file, 'utf8')) as Array<{ schema: unknown; tests: Array<{ data: unknown }> }>;
    for (const { schema, tests } of groups) {
      if (schemaKey(schema).mentionsFormat) continue;
      const draft = schemaDraft(schema);
      let validate: ((data: unknown) => boolean) & { errors?: Array<{ keyword: string }> | null };
      try {
        validate = newAjv(draft === null || draft === 'unknown' ? '2020-12' : draft, true).compile(schema as JsonObject);
      } catch {
        continue;
      }
      for (const { data } of tests) {
        let valid: boolean;
        try {
          valid = validate(data);
        } catch {
          continue; // a $ref cycle that consumes nothing (ToolSchemas makes it a bad schema)
        }
        instances++;
        if (!valid)
          assert.deepEqual(
            validate.errors?.filter((e) => e.keyword === 'format'),
            [],
            JSON.stringify(schema),
          );
      }
    }
  }
  assert.ok(instances > 1000, `${instances} instances`);
});
