/**
 * Gemma-style call bodies against vLLM's gemma4 and functiongemma parsers (files and commits in the module): the
 * docstring examples of `_parse_gemma4_args`, a body whose string delimiters were stripped, and FunctionGemma pairs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gemmaArgumentsJson, gemmaBodyEnd } from '../../../../src/core/formats/kernel/gemmaArguments.ts';

const Q = '<|"|>';

test("Gemma 4 bodies become the JSON vLLM's _parse_gemma4_args + json.dumps send", () => {
  const cases: Array<[string, string]> = [
    [`location:${Q}Tokyo${Q}`, '{"location": "Tokyo"}'],
    [`location:${Q}San Francisco${Q},unit:${Q}celsius${Q}`, '{"location": "San Francisco", "unit": "celsius"}'],
    ['count:42,flag:true', '{"count": 42, "flag": true}'],
    [`nested:{inner_key:${Q}val${Q}}`, '{"nested": {"inner_key": "val"}}'],
    [`items:[${Q}a${Q},${Q}b${Q}]`, '{"items": ["a", "b"]}'],
    // Delimiters stripped with the markers: bare text reads as strings, `null` stays text, `.` makes a float.
    ['content:hello,path:a.txt', '{"content": "hello", "path": "a.txt"}'],
    ['x:null,y:1.50,z:-3,w:1_000', '{"x": "null", "y": 1.5, "z": -3, "w": 1000}'],
    [`s:${Q}a,b}{${Q},t:`, '{"s": "a,b}{", "t": ""}'],
    ['', '{}'],
    ['...', '{}'],
  ];
  for (const [body, json] of cases) assert.deepEqual(gemmaArgumentsJson(body), { json, problems: [] }, body);
});

test('FunctionGemma: <escape> pairs json.loads-ed or kept as text; anything else is reported as dropped', () => {
  assert.deepEqual(gemmaArgumentsJson('a:<escape>42<escape>,b:<escape>hi there<escape>,c:<escape>[1,2.0]<escape>'), {
    json: '{"a": 42, "b": "hi there", "c": [1, 2.0]}',
    problems: [],
  });
  const out = gemmaArgumentsJson('a:<escape>x<escape>,n:5');
  assert.equal(out.json, '{"a": "x"}');
  assert.match(out.problems[0] ?? '', /"n:5" is not a key:<escape>value<escape> pair/u);
});

test('the body ends at its matching brace, braces inside delimited strings skipped', () => {
  const text = `call:f{a:{b:1},s:${Q}}{${Q}} tail`;
  assert.equal(text.slice(0, gemmaBodyEnd(text, text.indexOf('{')) + 1), `call:f{a:{b:1},s:${Q}}{${Q}}`);
  assert.equal(gemmaBodyEnd('call:f{a:1', 6), -1);
});

test("Gemma 4's bare values are typed by the tool's schema where it describes them (vLLM's engine at 017e9f4), else by their look", () => {
  const props = {
    n: { type: 'string' },
    count: { type: 'integer' },
    score: { type: 'number' },
    on: { type: 'boolean' },
    maybe: { type: ['string', 'null'] },
    inner: { type: 'object', properties: { all: { type: 'boolean' }, id: { type: 'string' } } },
    ids: { type: 'array', items: { type: 'string' } },
  };
  const cases: Array<[string, string]> = [
    ['n:42', '{"n": "42"}'],
    ['count:42,score:3.0,on:1', '{"count": 42, "score": 3, "on": true}'],
    ['count:many', '{"count": "many"}'],
    ['maybe:null', '{"maybe": null}'],
    ['inner:{all:true,id:7}', '{"inner": {"all": true, "id": "7"}}'],
    ['ids:[1,2]', '{"ids": ["1", "2"]}'],
    // Not in the schema: by look. A delimited string stays a string (vLLM would coerce it: docs/formats/gemma4.md).
    ['other:42', '{"other": 42}'],
    [`count:${Q}42${Q}`, '{"count": "42"}'],
  ];
  for (const [body, json] of cases) assert.deepEqual(gemmaArgumentsJson(body, 'gemma4', props), { json, problems: [] }, body);
  // FunctionGemma's vLLM parser reads no schema.
  assert.equal(gemmaArgumentsJson('n:<escape>42<escape>', 'functiongemma', props).json, '{"n": 42}');
});
