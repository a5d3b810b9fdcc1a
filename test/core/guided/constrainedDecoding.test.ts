/**
 * Constrained decoding of scripted output (the embedded endpoint's guided mode): what the grammar accepts passes
 * unchanged; hallucinated tools, schema breaks and missing section markers come out as valid calls; the output
 * always ends, and the result is accepted by the same grammar and valid against the tool's schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { compileKimiGrammar, KIMI_MARKUP } from './kimiGrammar.ts';
import { constrainCompletion } from '../../../src/core/guided/constrainedDecoding.ts';
import { parseKimiK2 } from '../../../src/core/formats/kimiK2/kimiK2Parser.ts';
import { ToolSchemas } from '../../../src/core/schema/toolSchemas.ts';
import { TOOLS, call, section } from './fixtures.ts';

async function constrain(text: string, toolChoice: 'auto' | 'required' = 'auto') {
  const grammar = await compileKimiGrammar(TOOLS, toolChoice);
  const out = await constrainCompletion(grammar, KIMI_MARKUP, text);
  assert.ok(out.complete, `generation ended: ${out.text}`);
  assert.ok(await grammarAccepts(grammar, out.text), `grammar accepts its own output: ${out.text}`);
  return out;
}

function validCalls(text: string) {
  const parsed = parseKimiK2(text);
  const schemas = new ToolSchemas();
  for (const c of parsed.calls) {
    const tool = TOOLS.find((t) => t.function.name === c.name);
    assert.ok(tool, `declared tool: ${c.name}`);
    const check = schemas.check(tool, JSON.parse(c.arguments));
    assert.ok(
      check.kind === 'ok' || check.kind === 'no-schema',
      `schema-valid arguments for ${c.name}: ${c.arguments} ${JSON.stringify(check)}`,
    );
  }
  return parsed;
}

test('what the grammar accepts passes through unchanged', async () => {
  const text = `Checking. ${section(call('get_weather', 0, '{"city": "Paris", "unit": "c"}'), call('search', 1, '{"q": "x", "top_k": 3}'))}`;
  const out = await constrain(text);
  assert.equal(out.text, text);
  assert.equal(out.firstChange, null);
  assert.equal(out.forced + out.dropped, 0);
  const plain = await constrain('Just text, no call.');
  assert.equal(plain.text, 'Just text, no call.');
});

test('a hallucinated tool name becomes a declared tool, its arguments kept where the schema allows', async () => {
  const text = `Let me check. ${section(call('get_weather_v2', 0, '{"city": "Paris"}'))}`;
  const out = await constrain(text);
  assert.notEqual(out.text, text);
  const parsed = validCalls(out.text);
  assert.equal(parsed.calls.length, 1);
  assert.equal(parsed.calls[0]?.name, 'get_weather');
  assert.deepEqual(JSON.parse(parsed.calls[0]?.arguments ?? ''), { city: 'Paris' });
  assert.equal(out.firstChange, text.indexOf('_v2'));
  assert.equal(parsed.content, 'Let me check. ');
});

test('an unknown name with no shared prefix still ends as a valid call of a declared tool', async () => {
  const out = await constrain(section(call('lookup_flights', 0, '{"from": "CDG", "to": "NRT"}')));
  const parsed = validCalls(out.text);
  assert.equal(parsed.calls.length, 1);
});

test('schema breaks: a missing required property, a wrong type, an out-of-range integer, a bad enum', async () => {
  for (const args of ['{"unit": "c"}', '{"city": {"unexpected": true}}', '{"city": 42}', '{"city": "Paris", "unit": "kelvin"}']) {
    const out = await constrain(section(call('get_weather', 0, args)));
    const parsed = validCalls(out.text);
    assert.equal(parsed.calls.length, 1, args);
    assert.equal(parsed.calls[0]?.name, 'get_weather');
    assert.ok(out.firstChange !== null, args);
  }
  const out = await constrain(section(call('search', 0, '{"q": "kimi", "top_k": 500}')));
  const args = JSON.parse(validCalls(out.text).calls[0]?.arguments ?? '');
  assert.equal(args.q, 'kimi');
  assert.ok(args.top_k >= 1 && args.top_k <= 20, JSON.stringify(args));
});

test('a call without the section begin gets one; free text stays as written', async () => {
  const text = `Sure. ${call('get_weather', 0, '{"city": "Oslo"}')}`;
  const out = await constrain(text);
  const parsed = validCalls(out.text);
  assert.equal(parsed.calls.length, 1);
  assert.ok(out.text.startsWith('Sure. <|tool_calls_section_begin|>'), out.text);
});

test('required: plain text is turned into a call; truncated arguments are completed', async () => {
  const forced = await constrain('I think I know the answer already.', 'required');
  assert.equal(validCalls(forced.text).calls.length, 1);
  const cut = await constrain(
    `${section('')}`.slice(0, 28) + '<|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"q": "unfinished',
  );
  const parsed = validCalls(cut.text);
  assert.equal(parsed.calls.length, 1);
  assert.ok(JSON.parse(parsed.calls[0]?.arguments ?? '').q.startsWith('unfinished'));
});

test('reasoning before </think> is left alone; the stop token and what follows it are kept', async () => {
  const text = `<think>maybe functions.nope:0 {}</think>${section(call('get_weather_v2', 0, '{"city": "Rome"}'))}<|im_end|>`;
  const grammar = await compileKimiGrammar(TOOLS, 'auto');
  const out = await constrainCompletion(grammar, KIMI_MARKUP, text);
  assert.ok(out.text.startsWith('<think>maybe functions.nope:0 {}</think>'));
  assert.ok(out.text.endsWith('<|im_end|>'));
  assert.equal(validCalls(out.text.slice(0, -'<|im_end|>'.length)).calls[0]?.name, 'get_weather');
});
