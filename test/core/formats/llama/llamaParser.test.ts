import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LlamaParser, parseLlama } from '../../../../src/core/formats/llama/llamaParser.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { LLAMA_FIXTURES } from '../../../fixtures/llamaCompletions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new LlamaParser(options);

for (const fx of LLAMA_FIXTURES) {
  test(`llama one-shot parse: ${fx.name}`, () => {
    assert.match(fx.source, /^https:\/\//u, `${fx.name}: names its source`);
    checkFixture(make, fx, { argumentsVerbatim: true });
  });
}

test('llama: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of LLAMA_FIXTURES) {
    checkDeltas(make, fx, ['<|python_tag|>', '<|eom_id|>', '<|eot_id|>', '<|eot|>']);
    checkNameFirst(make, fx);
  }
});

test('llama: the name goes out as soon as its string closes; arguments stream as written (OpenAI tool_calls deltas)', () => {
  const p = new LlamaParser();
  assert.equal(p.push('<|python_tag|>{"name": "get_wea'), null);
  assert.deepEqual(p.push('ther", "parameters": {"ci'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }],
  });
  assert.deepEqual(p.push('ty": "Paris"}}; {"name": "f", "parameters": {}}'), {
    tool_calls: [
      { index: 0, function: { arguments: 'ty": "Paris"}' } },
      { index: 1, type: 'function', function: { name: 'f', arguments: '{}' } },
    ],
  });
});

test('llama: leading blanks wait until the first character says whether a bare call follows', () => {
  const p = new LlamaParser();
  assert.equal(p.push('\n  '), null);
  assert.deepEqual(p.push('Sure.'), { content: '\n  Sure.' });
  const q = new LlamaParser();
  assert.equal(q.push('\n  '), null);
  assert.deepEqual(q.push('{"name": "f"'), { tool_calls: [{ index: 0, type: 'function', function: { name: 'f' } }] });
  assert.equal(parseLlama(' \n').content, ' \n');
});

test("llama: call spans run from the object's brace to its closing brace; <|python_tag|> is a marker", () => {
  const text = 'ok <|python_tag|>{"name": "f", "parameters": {"a": 1}}<|eom_id|>';
  const r = parseLlama(text);
  const c = r.calls[0];
  assert.ok(c);
  assert.equal(text.slice(c.span.start, c.span.end), '{"name": "f", "parameters": {"a": 1}}');
  assert.equal(c.terminated, true);
  assert.deepEqual(
    r.markers.map((m) => [m.name, m.text]),
    [
      ['call-begin', '<|python_tag|>'],
      ['end-of-turn', '<|eom_id|>'],
    ],
  );
});

test('llama: startInReasoning changes nothing (Llama has no reasoning block)', () => {
  for (const fx of LLAMA_FIXTURES) assert.deepEqual(parseLlama(fx.text, { startInReasoning: true }), parseLlama(fx.text), fx.name);
});

test('llama: parsing is linear in the input', () => {
  checkLinear(
    make,
    '<|python_tag|>{"name": "search", "parameters": {"query": "a {b} \\"c\\"", "n": [1, 2]}}; {"name": "f", "parameters": {}}<|eom_id|>Text. ',
  );
  checkLinear(make, '{"name": "f", "parameters": {"x": "' + 'y'.repeat(50) + '"}} ');
});

test('llama: thousands of calls in one push are read in a loop, not one stack frame per call', () => {
  const calls = Array.from({ length: 10_000 }, (_, i) => `{"name": "f", "parameters": {"i": ${i}}}`);
  const r = parseLlama(`<|python_tag|>${calls.join('; ')}<|eom_id|>`);
  assert.equal(r.calls.length, 10_000);
  assert.equal(r.calls[9_999]?.arguments, '{"i": 9999}');
  assert.ok(r.calls.every((c) => c.terminated));
});

test('llama: push after finish is an error', () => {
  const p = new LlamaParser();
  p.finish();
  assert.throws(() => p.push('x'), /LlamaParser: push\(\) after finish\(\)/u);
});
