/**
 * Mistral's reference parser on vLLM's own test vectors (v11+ and pre-v11), whole and streamed (the split property
 * runs over the same fixtures in kit/formatSuite.test.ts), the ids the model writes after `[CALL_ID]`, detection
 * (markup, then the server's parser name, then the model name) and the call writer read back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { resolveFormat } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions, StreamingParser } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { MISTRAL_FIXTURES } from '../../../fixtures/mistral/mistralCompletions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst, oneShot } from '../kit/formatTestKit.ts';

const mistral = getFormat('mistral');
const make = (options?: ParserOptions) => mistral.createParser(options);

for (const fx of MISTRAL_FIXTURES) {
  test(`mistral one-shot parse: ${fx.name}`, () => {
    const r = oneShot(make, fx.text, fx.options);
    assert.deepEqual(
      r.calls.map((c) => c.id),
      fx.calls.map((_, i) => fx.ids?.[i] ?? ''),
      `${fx.name}: ids`,
    );
    // The kit's checks hold every id empty: the ids are compared above.
    checkFixture(withoutIds, fx, { argumentsVerbatim: false });
    for (const c of r.calls) if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

/** The parser, its result with the ids the model wrote left out. */
function withoutIds(options?: ParserOptions): StreamingParser {
  const p = make(options);
  return {
    push: (text) => p.push(text),
    finish: () => p.finish(),
    get state() {
      return p.state;
    },
    result: () => {
      const r = p.result();
      return { ...r, calls: r.calls.map((c) => ({ ...c, id: '' })) };
    },
  };
}

test('mistral: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of MISTRAL_FIXTURES) {
    checkDeltas(make, fx, ['[TOOL_CALLS]', '[ARGS]', '[CALL_ID]', '[THINK]', '[/THINK]', '</s>']);
    checkNameFirst(make, fx);
  }
});

test('mistral v11: the name goes out at [ARGS], the arguments as they are written', () => {
  const p = make();
  assert.equal(p.push('[TOOL_CALLS]get_wea'), null);
  assert.equal(p.state, 'call-id');
  assert.deepEqual(p.push('ther[ARGS]{"city": "Pa'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city": "Pa' } }],
  });
  assert.equal(p.state, 'call-arguments');
  assert.deepEqual(p.push('ris"} Done.'), { tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }], content: 'Done.' });
  assert.equal(p.state, 'content');
});

test('mistral pre-v11: each object of the list is a call when it closes; an object that is no call is kept nameless', () => {
  const p = make();
  assert.equal(p.push('[TOOL_CALLS] [{"name": "a", "arguments": {"x": 1'), null);
  assert.equal(p.state, 'call-arguments');
  assert.deepEqual(p.push('}}, '), { tool_calls: [{ index: 0, type: 'function', function: { name: 'a', arguments: '{"x": 1}' } }] });
  assert.equal(p.state, 'section');
  const r = oneShot(make, '[TOOL_CALLS][{"tool": "a"}]');
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments]),
    [['', '{"tool": "a"}']],
  );
});

test('mistral: parsing is linear', () => {
  checkLinear(make, '[TOOL_CALLS]f[ARGS]{"a": "x[1]{2}"} ');
  checkLinear(make, '[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}}] ');
});

test('mistral detection: markup first, then the server parser name, then the model name', () => {
  assert.equal(detectFormat('[TOOL_CALLS]f[ARGS]{}').name, 'mistral');
  const resolved = (meta: Record<string, unknown>, text: string | null = null) =>
    resolveFormat({ meta, ...(text ? { completion: { text } } : {}) } as never, null).format.name;
  assert.equal(resolved({ parser: 'mistral' }), 'mistral');
  for (const model of ['mistralai/Mistral-Small-3.2-24B-Instruct-2506', 'mistralai/Devstral-Small-2507', 'mistralai/Magistral-Small-2509'])
    assert.equal(resolved({ model }), 'mistral', model);
  // A Hermes fine-tune on a Mistral base writes Hermes calls.
  assert.equal(resolved({ model: 'NousResearch/Hermes-2-Pro-Mistral-7B' }), 'hermes');
  assert.equal(resolved({ model: 'mistralai/Devstral-Small-2507' }, '<tool_call>{"name": "f", "arguments": {}}</tool_call>'), 'hermes');
});

test('mistral call writer: what it writes parses back to the same calls', () => {
  const calls = [
    { name: 'get_weather', index: 0, arguments: '{"city": "Paris"}' },
    { name: 'get_time', index: 1, arguments: '{}' },
  ];
  const text = writeCompletion(mistral.callWriter, 'Checking.', calls);
  assert.equal(text, 'Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}');
  const r = oneShot(make, text);
  assert.equal(r.content, 'Checking.');
  assert.deepEqual(
    r.calls.map((c) => [c.name, c.arguments]),
    calls.map((c) => [c.name, c.arguments]),
  );
});
