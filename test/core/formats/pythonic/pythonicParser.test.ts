/**
 * The pythonic and LFM2 parsers against the engines' own vectors (test/fixtures/pythonic/pythonicCompletions.ts),
 * whole and streamed; what cannot be turned is content with the reasons, never a guessed call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../../src/core/formats/registry.ts';
import { PYTHONIC_FIXTURES } from '../../../fixtures/pythonic/pythonicCompletions.ts';

const parse = (format: string, text: string, pieces = 0) => {
  const p = getFormat(format).createParser();
  if (pieces) for (const ch of text) p.push(ch);
  else p.push(text);
  p.finish();
  return p.result();
};

for (const fx of PYTHONIC_FIXTURES) {
  test(`${fx.format}: ${fx.name} (${fx.source})`, () => {
    for (const streamed of [0, 1]) {
      const r = parse(fx.format, fx.text, streamed);
      assert.deepEqual(
        r.calls.map((c) => [c.name, c.arguments]),
        fx.calls.map(([n, a]) => [n, a]),
        fx.name,
      );
      assert.equal(r.content, fx.content, fx.name);
      for (const c of r.calls) assert.equal(c.terminated, true);
    }
  });
}

test('an argument that is a name or a call is reported and the list stays text, as vLLM gives it back', () => {
  const r = parse('pythonic', '[search(query=q), get_weather(city=lookup("x"))]');
  assert.deepEqual(r.calls, []);
  assert.equal(r.content, '[search(query=q), get_weather(city=lookup("x"))]');
  assert.match(
    r.notes.map((n) => n.detail).join('\n'),
    /query: a bare name \(q\) is not a literal; get_weather: city: a call \(lookup\(…\)\)/u,
  );
});

test('positional arguments vLLM drops are noted; the call keeps its keywords', () => {
  const r = parse('pythonic', '[get_weather("Paris", unit="c")]');
  assert.deepEqual(
    r.calls.map((c) => c.arguments),
    ['{"unit": "c"}'],
  );
  assert.match(r.notes[0]!.detail, /positional argument/u);
});

test('a list after prose is content (vLLM reads a list only at the start); calls in a think block stay reasoning', () => {
  assert.deepEqual(parse('pythonic', 'Sure: [get_weather()]').calls, []);
  const r = parse('lfm2', '<think>call <|tool_call_start|>[f()]<|tool_call_end|></think>ok');
  assert.deepEqual(r.calls, []);
  assert.equal(r.content, 'ok');
  assert.deepEqual(
    r.notes.map((n) => n.kind),
    ['call-in-think'],
  );
});

test("LFM2's block never closed: the calls it holds are read and the block noted unterminated", () => {
  const r = parse('lfm2', 'Hi <|tool_call_start|>[get_weather(city="Paris")]');
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments, c.terminated]),
    [['get_weather', '{"city": "Paris"}', true]],
  );
  assert.ok(r.notes.some((n) => n.kind === 'unterminated-section'));
});

test("vLLM's lfm2 repairs (a raw line break inside a string) are not guessed: the block is text with the reason", () => {
  const r = parse('lfm2', "<|tool_call_start|>[exec(command='cat > f.py << EOF\nprint(1)\nEOF')]<|tool_call_end|>");
  assert.deepEqual(r.calls, []);
  assert.match(r.notes[0]!.detail, /not a Python list of calls/u);
});

test('detection: markup first — a list opening the text, Llama 4 python_start holding a list, Olmo 3 function_calls, LFM2 markers', async () => {
  const { detectFormatIn } = await import('../../../../src/core/formats/registry.ts');
  assert.equal(detectFormatIn('[get_weather(city="Paris")]')?.name, 'pythonic');
  assert.equal(detectFormatIn('[get_weather(city="Paris")]<|eot_id|>')?.name, 'pythonic');
  assert.equal(detectFormatIn('<|python_start|>[get_weather()]<|python_end|>')?.name, 'pythonic');
  assert.equal(detectFormatIn('<function_calls>get_weather()</function_calls>')?.name, 'pythonic');
  assert.equal(detectFormatIn('<|tool_call_start|>[get_weather()]<|tool_call_end|>')?.name, 'lfm2');
  assert.equal(detectFormatIn('[1, 2, 3]'), null);
});
