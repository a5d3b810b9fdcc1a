/**
 * A Langfuse `input` cell read with its `tools` list parsed once per distinct text (langfuseInput.ts) is the value
 * JSON.parse makes of the whole cell — the same members in the same order — for the fixture's cells, for hand-made
 * texts built to fool a search for `"tools"` by text, and for generated ones (seeded: the seed is in every failure).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { langfuseInputValue } from '../../../src/core/trace/importers/langfuseInput.ts';
import { jsonColumn } from '../../../src/core/trace/importers/exportMessages.ts';
import { seededRandom } from '../../../bench/seededRandom.ts';

/** Equal values with their keys in the same order (deepEqual alone ignores the order). */
function assertSameValue(cell: string, why: string): void {
  const got = langfuseInputValue(cell);
  const want = jsonColumn(cell);
  assert.deepEqual(got, want, why);
  assert.equal(JSON.stringify(got), JSON.stringify(want), why);
}

test('the fixture’s input cells read as JSON.parse reads them', () => {
  const path = fileURLToPath(new URL('../../fixtures/langfuse/observations_v2.jsonl', import.meta.url));
  const cells = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { input: unknown }).input);
  assert.ok(cells.some((c) => typeof c === 'string' && c.includes('"tools"')));
  for (const cell of cells) if (typeof cell === 'string') assertSameValue(cell, cell);
});

test('texts that a search for "tools" by text could misread are parsed whole, or to the same value', () => {
  const cells = [
    '{"messages": [], "tools": [{"type": "function", "function": {"name": "f"}}]}',
    '{"messages":[],"tools":[]}',
    ' {"messages":[] ,\n "tools" :\t[1, 2] \n} ',
    // Not JSON, though `{}` and the list are.
    '{,"tools":[1]}',
    '{ , "tools": [1]}',
    // `tools` nested, not the object's last member.
    '{"messages":[{"role":"user","tools":[1]}]}',
    '{"a":{"b":1,"tools":[1]}}',
    '{"a":[{"b":1,"tools":[1]}]}',
    '{"tools":[1],"messages":[]}',
    // Inside a string the quotes are escaped.
    '{"messages":[{"role":"user","content":"say \\"tools\\": [1]}"}]}',
    '{"messages":[{"role":"user","content":"x\\\\"}],"tools":[3]}',
    // A repeated key: the last value wins, in the first one's place.
    '{"tools":[1],"messages":[],"tools":[2]}',
    // A list that is no JSON, a head that is none, a value that is no list.
    '{"messages":[],"tools":[1,]}',
    '{"messages":[,],"tools":[1]}',
    '{"messages":[],"tools":{"a":[1]}}',
    '{"messages":[],"tools":"[1]"}',
    '[1,"tools":[1]}',
    'not json, "tools": [1]}',
    '"tools"',
    '',
    '{"__proto__":{"x":1},"tools":[1]}',
  ];
  for (const cell of cells) assertSameValue(cell, cell);
});

test('generated inputs read as JSON.parse reads them; a repeated tools list is parsed once and shared', () => {
  const seed = 37;
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const tools = [0, 1, 2, 3].map((k) => ({
    type: 'function',
    function: { name: `tool_${k}`, description: `does "${k}"`, parameters: { type: 'object', properties: { tools: { type: 'array' } } } },
  }));
  const pythonStyle = (v: unknown) => JSON.stringify(v, null, 1).replace(/\n */g, ' ');
  for (let i = 0; i < 500; i++) {
    const messages = [
      { role: 'user', content: pick(['hi', '"tools": [1]}', 'a\\', '{"tools":[]}', 'ünïcödé ✓']) },
      ...(random() < 0.3 ? [{ role: 'assistant', content: null, tools: [1] }] : []),
    ];
    const value: Record<string, unknown> = random() < 0.2 ? { tools: tools.slice(0, 1), messages } : { messages };
    if (random() < 0.8) value.tools = tools.slice(0, 1 + Math.floor(random() * 4));
    if (random() < 0.1) value.tool_choice = 'auto';
    const text = random() < 0.5 ? JSON.stringify(value) : pythonStyle(value);
    assertSameValue(text, `seed ${seed}, input ${i}: ${text}`);
  }
  // (A tool whose schema has a property named `tools`, as above, is parsed whole: the last `"tools"` is that one.)
  const plain = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
  const cell = JSON.stringify({ messages: [{ role: 'user', content: 'x' }], tools: plain });
  const a = langfuseInputValue(cell) as { tools: unknown };
  const b = langfuseInputValue(cell) as { tools: unknown };
  assert.equal(a.tools, b.tools);
});

test('a cell ending with a tail (`,"tools": […]}`) seen before reads as JSON.parse reads it, whatever its head', () => {
  const tail = ',"tools":[{"type":"function","function":{"name":"get_weather","description":"the \\"tools\\" you know"}}]}';
  const heads = [
    '{"messages":[]',
    '{"messages":[{"role":"user","content":"hi"}]',
    '{',
    '{ ',
    '[1',
    '"x"',
    '',
    '{"messages":[{"role":"user","content":"say \\"tools\\": [1]}"}]',
    '{"tools":[2]',
    '{"messages":[],"x":{"tools":[3]}',
    ' {"messages":[] ',
    '{"messages":[]}',
    '{"messages":[],"tool_choice":"auto"',
    '{"messages":[{"role":"user","content":"São Paulo ✓"}]',
  ];
  // Twice round: the first cell with this tail finds it by searching, every later one by its end.
  for (let round = 0; round < 2; round++)
    for (const head of heads) {
      assertSameValue(head + tail, `${round}: ${head + tail}`);
      assertSameValue(`${head + tail} `, `${round}: ${head + tail} `);
    }
  // Other tails that end the same way, and a cell that is the tail alone.
  for (const other of [tail.replace(',"tools"', ', "tools"'), tail.replace('get_weather', 'get_weathe'), tail.slice(1), tail])
    for (const head of heads.slice(0, 4)) assertSameValue(head + other, head + other);
  // The list is parsed once: cells with the same tail share it.
  const a = langfuseInputValue(heads[0] + tail) as { tools: unknown };
  const b = langfuseInputValue(heads[1] + tail) as { tools: unknown };
  assert.equal(a.tools, b.tools);
});
