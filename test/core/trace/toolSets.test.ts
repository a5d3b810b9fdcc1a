import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameJson, ToolSets } from '../../../src/core/trace/toolSets.ts';

const tools = () => [
  {
    type: 'function',
    function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'] } }, required: ['a'] } },
  },
];

test('tool sets: an equal copy is handed the first object; tools that differ anywhere, or in key order, are their own', () => {
  const sets = new ToolSets();
  const first = tools();
  assert.equal(sets.same(first), first);
  assert.equal(sets.same(tools()), first, 'an equal copy (the next record read from its line)');
  const other = tools();
  other[0]!.function.parameters.properties.a.enum[1] = 'z';
  assert.equal(sets.same(other), other, 'one value differs deep inside');
  assert.equal(sets.same(tools()), first, 'the first is still kept beside it');
  const reordered = tools();
  const p = reordered[0]!.function.parameters;
  reordered[0]!.function.parameters = { required: p.required, type: p.type, properties: p.properties } as typeof p;
  assert.equal(sets.same(reordered), reordered, 'keys in another order write another JSON text');
  assert.deepEqual(sets.same([]), [], 'no tools: as given');
  assert.equal(sets.same(undefined), undefined);
  assert.equal(sets.same('hostile' as unknown), 'hostile');
});

test('tool sets: a copy handed in again is the set it was found equal to, without walking it again', () => {
  const sets = new ToolSets();
  const first = tools();
  sets.same(first);
  let reads = 0;
  const copy = new Proxy(tools(), {
    get(target, key, receiver) {
      if (key === '0') reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  assert.equal(sets.same(copy), first);
  assert.equal(reads, 1, 'compared once');
  assert.equal(sets.same(copy), first);
  assert.equal(sets.same(copy), first);
  assert.equal(reads, 1, 'not walked again');
  const other = tools();
  other[0]!.function.name = 'g';
  assert.equal(sets.same(other), other, 'another set is still its own');
  assert.equal(sets.same(copy), first, 'and the copy still the first');
  assert.equal(reads, 1);
});

test('sameJson says equal only where JSON.stringify writes the same text', () => {
  const cases: [unknown, unknown][] = [
    [
      { a: 1, b: [1, 2] },
      { a: 1, b: [1, 2] },
    ],
    [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ],
    [
      [1, 2],
      [2, 1],
    ],
    [{ a: [] }, { a: {} }],
    [{ a: null }, { a: 0 }],
    [{ a: '1' }, { a: 1 }],
    [{ a: 1 }, { a: 1, b: 2 }],
    [new Date(0), new Date(1)],
    [{ d: new Date(0) }, { d: new Date(1) }],
  ];
  for (const [a, b] of cases) {
    if (sameJson(a, b)) assert.equal(JSON.stringify(a), JSON.stringify(b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
  }
  assert.ok(sameJson({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] }));
  assert.ok(!sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }));
  assert.ok(!sameJson(new Date(0), new Date(0)), 'not a plain object: never called equal');
});

test('tool sets nested 3,000 deep: each its own set, no stack overflow (the hostile-schema CLI test lost a record to it)', () => {
  const deep = (): unknown[] => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 3000; i++) schema = { type: 'object', properties: { a: schema } };
    return [{ type: 'function', function: { name: 'f', parameters: schema } }];
  };
  const sets = new ToolSets();
  const first = deep();
  assert.equal(sets.same(first), first);
  const second = deep();
  assert.equal(sets.same(second), second, 'too deep to compare: not called equal');
  assert.equal(sameJson(deep(), deep()), false);
});
