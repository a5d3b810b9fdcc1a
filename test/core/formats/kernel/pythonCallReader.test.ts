/**
 * The pythonic call reader against vLLM's rules (vllm/tool_parsers/utils.py @ 017e9f44, get_parameter_value and
 * handle_single_tool; older vLLM @ 630fe7e7 read constants, lists and dicts only): Python literals turned into
 * the JSON json.dumps writes, everything else reported with what it is. The expected texts were checked against
 * CPython 3 (`json.dumps(ast.literal_eval(…), ensure_ascii=False)`) when the tests were written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pyCallArguments, readPyCall, readPyCallList } from '../../../../src/core/formats/kernel/pythonCallReader.ts';
import { pyFloatRepr, pyJsonRoundTrip } from '../../../../src/core/formats/kernel/pythonJson.ts';

const args = (text: string) => {
  const call = readPyCall(text, 0);
  assert.ok(call, `not a call: ${text}`);
  return pyCallArguments(call);
};

test('literals become the JSON json.dumps writes', () => {
  const cases: Array<[string, string]> = [
    ['f(a=1, b="x")', '{"a": 1, "b": "x"}'],
    ['f(city=\'Paris\', unit="c")', '{"city": "Paris", "unit": "c"}'],
    ['f(flag=True, none=None, off=False)', '{"flag": true, "none": null, "off": false}'],
    [
      'f(x=1.0, y=.5, z=1e5, w=1e16, v=1.5e-7, u=1_000, t=0x1F, s=0o17, r=0b101)',
      '{"x": 1.0, "y": 0.5, "z": 100000.0, "w": 1e+16, "v": 1.5e-07, "u": 1000, "t": 31, "s": 15, "r": 5}',
    ],
    ['f(big=123456789012345678901234567890)', '{"big": 123456789012345678901234567890}'],
    [
      'f(items=[1, "a", [True]], d={"k": [1, 2], 3: None, True: 1.5, None: "n"})',
      '{"items": [1, "a", [true]], "d": {"k": [1, 2], "3": null, "true": 1.5, "null": "n"}}',
    ],
    ['f(s="a\\nb\\t\\"q\\" \\x41\\u00e9\\U0001F600\\101")', '{"s": "a\\nb\\t\\"q\\" Aé😀A"}'],
    ["f(s=r'C:\\new', t='''multi\nline''', u='a' \"b\")", '{"s": "C:\\\\new", "t": "multi\\nline", "u": "ab"}'],
    ['f()', '{}'],
    ['f(\n    a=1,  # comment\n    b=2,\n)', '{"a": 1, "b": 2}'],
    ['f(x=(1))', '{"x": 1}'],
    ['f(d={"a": 1, "a": 2})', '{"d": {"a": 2}}'],
    // vLLM @ 017e9f44: signed numbers, tuples and sets as lists, f-strings without placeholders, JSON's spellings.
    ['f(x=-1, y=+2.5, z=-0.0, w=-(3), v=--4)', '{"x": -1, "y": 2.5, "z": -0.0, "w": -3, "v": 4}'],
    ['f(size=(800, 600), e=(), tags={"b", "a", "b"})', '{"size": [800, 600], "e": [], "tags": ["b", "a", "b"]}'],
    ['f(s=f"hello {{x}}", t="a" f"b")', '{"s": "hello {x}", "t": "ab"}'],
    ['f(a=null, b=true, c=false, d=[true])', '{"a": null, "b": true, "c": false, "d": [true]}'],
  ];
  for (const [text, json] of cases) assert.deepEqual(args(text), { json, problems: [] }, text);
});

test('what vLLM cannot turn is reported, never guessed', () => {
  const cases: Array<[string, RegExp]> = [
    ['f(x=g(1))', /x: a call \(g\(…\)\) is not a literal/u],
    ['f(x=y)', /x: a bare name \(y\) is not a literal/u],
    ['f(x=-y)', /x: a bare name \(y\) is not a literal/u],
    ['f(x=-"a")', /x: a unary minus over a non-number/u],
    ['f(x=-True)', /x: a unary minus over a non-number/u],
    ['f(x=~1)', /x: a unary operator over a non-number|x: a unary operator/u],
    ['f(x=(1, y))', /x: a tuple holding a bare name \(y\)/u],
    ['f(x={1, y})', /x: a set holding a bare name \(y\)/u],
    ['f(x=f"{y}")', /x: an f-string with a placeholder/u],
    ['f(x=b"raw")', /x: bytes have no JSON form/u],
    ['f(x=1 + 2)', /x: an expression, not a literal/u],
    ['f(x=1j)', /x: a complex number/u],
    ['f(x=1e999)', /overflows to inf/u],
    ['f(x=os.path)', /x: os\.… is an attribute/u],
    ['f(x=[1, y])', /x: a list holding a bare name \(y\)/u],
    ['f(x={"k": z})', /x: a dict holding a bare name \(z\)/u],
    ['f(x={[1]: 2})', /not hashable/u],
  ];
  for (const [text, problem] of cases) {
    const out = args(text);
    assert.equal(out.json, null, text);
    assert.match(out.problems.join('; '), problem, text);
  }
  // Positional arguments are dropped by vLLM: the JSON is what it sends, the drop is reported.
  assert.deepEqual(args('f("Paris", unit="c")'), {
    json: '{"unit": "c"}',
    problems: ['positional argument "\\"Paris\\"": vLLM reads keyword arguments only and drops it'],
  });
});

test('a dotted call name is the whole chain, as vLLM names it', () => {
  const call = readPyCall('tools.web . search(q="x")', 0);
  assert.equal(call?.name, 'tools.web.search');
  assert.deepEqual(call && pyCallArguments(call), { json: '{"q": "x"}', problems: [] });
});

test('text that is not Python call syntax is no call', () => {
  for (const text of ['f(city: str)', 'f(a=1, 2)', 'f(a=1, a=2)', 'f(a="x)', 'f(a=01)', 'f(a=1', 'f a=1)', '(a=1)'])
    assert.equal(readPyCall(text, 0), null, text);
});

test('a list of calls: every element a call; spans cover the brackets', () => {
  const text = 'x [get_todays_date(), get_weather(location="Dublin, Ireland", date="2025-04-14")] y';
  const list = readPyCallList(text, 2);
  assert.ok(list);
  assert.equal(text.slice(list.start, list.end), '[get_todays_date(), get_weather(location="Dublin, Ireland", date="2025-04-14")]');
  assert.deepEqual(
    list.calls.map((c) => [c.name, pyCallArguments(c).json]),
    [
      ['get_todays_date', '{}'],
      ['get_weather', '{"location": "Dublin, Ireland", "date": "2025-04-14"}'],
    ],
  );
  assert.equal(readPyCallList('[1, f()]', 0), null);
  assert.equal(readPyCallList('[]', 0), null);
  assert.equal(readPyCallList('[f(), g()', 0), null);
});

test("floats in Python's repr; json.loads + json.dumps keeps ints, floats and big integers", () => {
  const reprs: Array<[number, string]> = [
    [1, '1.0'],
    [0.1, '0.1'],
    [123.456, '123.456'],
    [1e16, '1e+16'],
    [Number('1234567890123456.7'), '1234567890123456.8'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [-2.5e-300, '-2.5e-300'],
    [-0, '-0.0'],
  ];
  for (const [x, r] of reprs) assert.equal(pyFloatRepr(x), r, String(x));
  assert.equal(pyFloatRepr(Infinity), null);
  assert.equal(
    pyJsonRoundTrip('{"a":5.0,"b":[1,12345678901234567890],"c":"\\u00e9","a":-0}'),
    '{"a": 0, "b": [1, 12345678901234567890], "c": "é"}',
  );
  assert.equal(pyJsonRoundTrip('nope'), null);
  assert.equal(pyJsonRoundTrip('1e400'), null);
});
