/**
 * Gemma 4's and FunctionGemma's reference parser (the Gemma call family over the one Gemma argument reader) on vLLM's
 * own test vectors, whole and streamed (the split property runs over the same fixtures in kit/formatSuite.test.ts),
 * detection (markup, then the server's parser name, then the model name) and the call writer read back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { FUNCTION_GEMMA_FIXTURES, GEMMA4_FIXTURES } from '../../../fixtures/gemma4/gemma4Completions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst, oneShot } from '../kit/formatTestKit.ts';

const gemma4 = getFormat('gemma4');
const functionGemma = getFormat('functiongemma');
const make4 = (options?: ParserOptions) => gemma4.createParser(options);
const makeF = (options?: ParserOptions) => functionGemma.createParser(options);

for (const [label, make, fixtures, leaks] of [
  ['gemma4', make4, GEMMA4_FIXTURES, ['<|tool_call>', '<tool_call|>', '<|channel>', '<channel|>', '<|"|>']],
  ['functiongemma', makeF, FUNCTION_GEMMA_FIXTURES, ['<start_function_call>', '<end_function_call>', '<escape>']],
] as const) {
  for (const fx of fixtures) {
    test(`${label} one-shot parse: ${fx.name}`, () => {
      checkFixture(make, fx, { argumentsVerbatim: false });
      for (const c of oneShot(make, fx.text, fx.options).calls)
        if (c.name) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
    });
  }
  test(`${label}: deltas never carry empty strings or markup; names go out before arguments`, () => {
    for (const fx of fixtures) {
      checkDeltas(make, fx, leaks);
      checkNameFirst(make, fx);
    }
  });
}

test('gemma4: the name goes out at its {, the arguments whole at the end token', () => {
  const p = make4();
  assert.equal(p.push('<|tool_call>call:get_wea'), null);
  assert.equal(p.state, 'call-id');
  assert.deepEqual(p.push('ther{city:<|"|>Pa'), { tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather' } }] });
  assert.equal(p.state, 'call-arguments');
  assert.equal(p.push('ris<|"|>,days:3}'), null);
  assert.deepEqual(p.push('<tool_call|>'), { tool_calls: [{ index: 0, function: { arguments: '{"city": "Paris", "days": 3}' } }] });
  assert.equal(p.state, 'content');
});

test('gemma4: the thought channel name is no reasoning, held back until it is decided', () => {
  const p = make4();
  assert.equal(p.push('<|channel>tho'), null);
  assert.equal(p.push('ught\n'), null);
  assert.deepEqual(p.push('Hm.'), { reasoning_content: 'Hm.' });
  // A channel that does not start with its name is reasoning from the first character.
  const q = oneShot(make4, '<|channel>Just thinking<channel|>Hi');
  assert.equal(q.reasoning, 'Just thinking');
  assert.equal(q.content, 'Hi');
  // The channel name alone is no reasoning (vLLM gives None).
  assert.equal(oneShot(make4, '<|channel>thought<channel|>Hi').reasoning, null);
});

test('gemma4: a prompt that opened the channel starts in reasoning, with no name to strip', () => {
  const r = oneShot(make4, 'thinking on.<channel|>Answer.', { startInReasoning: true });
  assert.equal(r.reasoning, 'thinking on.');
  assert.equal(r.content, 'Answer.');
});

test('gemma4: a nested object ends the body at its own brace; text after the body inside the call is noted', () => {
  const r = oneShot(make4, '<|tool_call>call:f{a:{b:1}} junk<tool_call|>');
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments]),
    [['f', '{"a": {"b": 1}}']],
  );
  assert.deepEqual(
    r.notes.map((n) => n.kind),
    ['text-in-section'],
  );
});

test('gemma4 and functiongemma: parsing is linear, headers that never reach { included', () => {
  checkLinear(make4, '<|tool_call>call:' + 'x'.repeat(40));
  checkLinear(make4, '<|tool_call>call:f{a:<|"|>x<|"|>}<tool_call|> ');
  checkLinear(makeF, '<start_function_call>call:f{a:<escape>x<escape>}<end_function_call> ');
});

test('gemma detection: markup first, then the server parser name, then the model name', () => {
  assert.equal(detectFormat('<|tool_call>call:f{}<tool_call|>').name, 'gemma4');
  assert.equal(detectFormat('<start_function_call>call:f{}<end_function_call>').name, 'functiongemma');
  const resolved = (meta: Record<string, unknown>, text: string | null = null) =>
    resolveFormat({ meta, ...(text ? { completion: { text } } : {}) } as never, null).format.name;
  assert.equal(resolved({ parser: 'gemma4' }), 'gemma4');
  assert.equal(resolved({ parser: 'functiongemma' }), 'functiongemma');
  assert.equal(resolved({ model: 'google/gemma-4-31b-it' }), 'gemma4');
  assert.equal(resolved({ model: 'google/functiongemma-270m-it' }), 'functiongemma');
  // Gemma 3 writes pythonic calls, not Gemma 4's.
  assert.notEqual(resolved({ model: 'google/gemma-3-27b-it' }), 'gemma4');
  // Markup decides over the model name.
  assert.equal(resolved({ model: 'google/gemma-4-31b-it' }, '<start_function_call>call:f{}<end_function_call>'), 'functiongemma');
});

test('gemma call writers: what they write parses back to the same calls', () => {
  const calls = [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris", "days": 3, "opts": {"metric": true, "tags": ["a", "b"]}}' },
    { name: 'get_time', index: 1, arguments: '{}' },
  ];
  for (const format of [gemma4, functionGemma]) {
    const text = writeCompletion(format.callWriter, 'Checking.', calls);
    const r = oneShot((o) => format.createParser(o), text);
    assert.equal(r.content, 'Checking.', format.name);
    assert.deepEqual(
      r.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      `${format.name}: ${text}`,
    );
  }
  assert.equal(
    writeCompletion(gemma4.callWriter, '', [{ name: 'f', index: 0, arguments: '{"s": "x", "n": 42}' }]),
    '<|tool_call>call:f{s:<|"|>x<|"|>,n:42}<tool_call|>',
  );
});
