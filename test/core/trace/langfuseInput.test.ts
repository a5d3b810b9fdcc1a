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
  // Both SDKs' orders (fixture README): the Python SDK's tools first, the JS SDK's messages first.
  assert.ok(cells.some((c) => typeof c === 'string' && c.startsWith('{"tools": [')));
  assert.ok(cells.some((c) => typeof c === 'string' && c.startsWith('{"messages":[') && c.includes(',"tools":[')));
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

test('tools-first cells (`{"tools": […], "messages": […]}`, as the Python SDK logs) read as JSON.parse reads them', () => {
  const cells = [
    '{"tools": [{"type": "function", "function": {"name": "f"}}], "messages": [{"role": "user", "content": "hi"}]}',
    '{"tools":[],"messages":[]}',
    '{"tools" :[1],"messages":[]}',
    '{"tools": \n[1] ,\n "messages" :\t[2] \n} ',
    '{"tools":[1],"messages":[],"tool_choice":"auto"}',
    '{"tools":[1],"messages":[],"tool_choice":{"type":"function","function":{"name":"f"}},"parallel_tool_calls":false}',
    // `"messages"` inside the list: a schema property, a string, a key after a list within it.
    '{"tools":[{"parameters":{"properties":{"messages":{"type":"array"}}}}],"messages":[{"role":"user"}]}',
    '{"tools":[{"description":"\\"messages\\": [1]"}],"messages":[1]}',
    '{"tools":[{"required":["x"], "messages":{"type":"array"}}],"messages":[1]}',
    '{"tools":[{"a":[1],"messages":1},{"b":[2],"messages":2},{"c":[3],"messages":3},{"d":[4],"messages":4}],"messages":[5]}',
    // The rest: other members, a repeated key, `__proto__`, an index-like key, nothing.
    '{"tools":[1],"messages":[],"tools":[2]}',
    '{"tools":[1],"messages":[],"__proto__":{"x":1}}',
    '{"tools":[1],"messages":[],"7":2}',
    '{"tools":[1],}',
    '{"tools":[1],"messages"}',
    '{"tools":[1],"messages":}',
    '{"tools":[1],"messages":[]}}',
    '{"tools":[1],"messages":[]} x',
    '{"tools":[1],"messages":[],}',
    '{"tools":[1],,"messages":[]}',
    '{"tools":[1] "messages":[]}',
    // A list that is no JSON, or no list.
    '{"tools":[1,],"messages":[]}',
    '{"tools":[1]],"messages":[]}',
    '{"tools":"[1]","messages":[]}',
    '{"tools":{"a":[1]},"messages":[]}',
    '{"tools":1],"messages":[]}',
    '{"tools":',
    '{"tools":"messages"}',
    '{"tools":[{"name":"messages"}]}',
    // Members before tools (the SDK's `functions`, `function_call`) are not this head: parsed as before.
    '{"functions":[{"name":"f"}],"tools":[1],"messages":[]}',
  ];
  // Twice round: the first cell with a head finds it by searching, later ones by its text.
  for (let round = 0; round < 2; round++) for (const cell of cells) assertSameValue(cell, `${round}: ${cell}`);
});

test('a tools-first head seen before reads as JSON.parse reads it, whatever follows; its list is parsed once', () => {
  const head = '{"tools": [{"type": "function", "function": {"name": "get_weather", "description": "the \\"messages\\" you know"}}], ';
  const rests = [
    '"messages": []}',
    '"messages": [{"role": "user", "content": "São Paulo ✓ \\"tools\\": [1]"}]}',
    '"messages": [], "tool_choice": "auto"}',
    '"messages": [], "tools": [2]}',
    '"messages": []',
    '"messages": [],}',
    '"messages": ]}',
    '"messages" []}',
    '"messages": [] } ',
    '"messages": []}]',
  ];
  for (let round = 0; round < 2; round++) for (const rest of rests) assertSameValue(head + rest, `${round}: ${head + rest}`);
  // Heads that end as it does but begin otherwise, or are cut short.
  for (const other of [
    head.replace('get_weather', 'get_weathe'),
    head.replace('{"tools": ', '{"tools":'),
    head.slice(1),
    head.slice(0, -3) + ',',
  ]) {
    for (const rest of rests.slice(0, 3)) assertSameValue(other + rest, other + rest);
  }
  const a = langfuseInputValue(head + rests[0]) as { tools: unknown };
  const b = langfuseInputValue(head + rests[1]) as { tools: unknown };
  const c = langfuseInputValue(head + rests[2]) as { tools: unknown };
  assert.equal(a.tools, b.tools);
  assert.equal(a.tools, c.tools);
  // A list with a schema property named `messages` is found too (the next `"messages"` is tried), and shared.
  const schema = '{"tools":[{"parameters":{"properties":{"messages":{"type":"array"}},"required":["messages"]}}],"messages":';
  const d = langfuseInputValue(`${schema}[1]}`) as { tools: unknown };
  const e = langfuseInputValue(`${schema}[2]}`) as { tools: unknown };
  assert.equal(d.tools, e.tools);
});

test('generated tools-first inputs (Python and JSON.stringify spacing) read as JSON.parse reads them', () => {
  const seed = 3737;
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const tools = [0, 1, 2, 3, 4].map((k) => ({
    type: 'function',
    function: {
      name: `tool_${k}`,
      description: pick(['plain', 'says "messages": [1]', '], "messages": [', 'ünïcödé ✓', 'a\\']),
      parameters: { type: 'object', properties: k % 2 ? { messages: { type: 'array' } } : { q: { type: 'string' } }, required: ['q'] },
    },
  }));
  const pythonStyle = (v: unknown) => JSON.stringify(v, null, 1).replace(/\n */g, ' ');
  for (let i = 0; i < 600; i++) {
    const messages = [
      { role: 'user', content: pick(['hi', '"messages": [1]}', 'a\\', '{"tools":[]}', '], "messages": []}']) },
      ...(random() < 0.3 ? [{ role: 'assistant', content: null, messages: [1] }] : []),
    ];
    const value: Record<string, unknown> = {};
    if (random() < 0.05) value.functions = [{ name: 'f' }];
    value.tools = tools.slice(Math.floor(random() * 3), 1 + Math.floor(random() * 5));
    if (random() < 0.9) value.messages = messages;
    if (random() < 0.15) value.tool_choice = pick(['auto', 'required', { type: 'function', function: { name: 'tool_0' } }]);
    let text = random() < 0.5 ? JSON.stringify(value) : pythonStyle(value);
    // Now and then a cell broken by a character put in, taken out or doubled.
    if (random() < 0.1) {
      const at = Math.floor(random() * text.length);
      text = pick([text.slice(0, at) + text.slice(at + 1), text.slice(0, at) + pick([',', ']', '"', '}']) + text.slice(at)]);
    }
    assertSameValue(text, `seed ${seed}, input ${i}: ${text}`);
  }
});
