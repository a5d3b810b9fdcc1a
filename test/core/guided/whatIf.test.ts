import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenAt, whatIf, whatIfForRequest, type WhatIfRejected, type WhatIfResult } from '../../../src/core/guided/whatIf.ts';
import { compileKimiGrammar } from './kimiGrammar.ts';
import { tokenizeCompletion } from '../../../src/core/tokens/index.ts';
import { KimiSplitter } from '../../../src/core/formats/kimiK2/kimiSplitter.ts';
import { kimiSpecialTokenTable } from '../../../src/core/formats/kimiK2/kimiSpecialTokens.ts';
import type { Completion } from '../../../src/core/trace/record.ts';
import { call, section, TOOLS } from './fixtures.ts';

const splitter = new KimiSplitter();

async function run(text: string, finishReason: string | null = 'stop', reasoning?: 'skip' | 'constrain'): Promise<WhatIfResult> {
  const g = await compileKimiGrammar(TOOLS, 'auto');
  return whatIf(g, { text, tokens: splitter.tokenize(text), finishReason }, { reasoning });
}

function rejected(r: WhatIfResult): WhatIfRejected {
  assert.equal(r.accepted, false, 'expected a rejection');
  return r as WhatIfRejected;
}

test('valid completions are accepted', async () => {
  assert.deepStrictEqual(await run('Just text.'), { accepted: true, grammarStart: 0, endChecked: true });
  const r = await run('Two calls. ' + section(call('get_weather', 0, '{"city": "Oslo"}'), call('search', 1, '{"q": "x", "top_k": 20}')));
  assert.equal(r.accepted, true);
});

test('hallucinated tool name: offset, token, tool names', async () => {
  const text = section(call('img_gen', 0, '{}'));
  const r = rejected(await run(text));
  assert.equal(r.charOffset, text.indexOf('img_gen'));
  assert.equal(r.allowed, 'a tool name: one of get_weather, search, now');
  assert.match(r.produced, /^img_gen/);
  assert.equal(r.reason, 'rejected');
  const tokens = splitter.tokenize(text);
  const holder = tokens.find((t) => t.index === r.tokenIndex);
  assert.ok(holder && holder.charStart <= r.charOffset && r.charOffset < holder.charEnd);
});

test('schema violations name the schema fragment', async () => {
  const enumText = section(call('get_weather', 0, '{"city": "Paris", "unit": "kelvin"}'));
  const e = rejected(await run(enumText));
  assert.equal(e.charOffset, enumText.indexOf('kelvin'));
  assert.equal(e.allowed, 'one of "c", "f" for unit');

  const typeText = section(call('search', 0, '{"q": "x", "top_k": "3"}'));
  const t = rejected(await run(typeText));
  assert.equal(t.charOffset, typeText.indexOf('"3"'));
  assert.equal(t.allowed, 'an integer 1–20 for top_k');

  const rangeText = section(call('search', 0, '{"q": "x", "top_k": 0}'));
  assert.equal(rejected(await run(rangeText)).allowed, 'an integer 1–20 for top_k');

  const missing = section(call('get_weather', 0, '{"unit": "c"}'));
  const m = rejected(await run(missing));
  assert.equal(m.charOffset, missing.indexOf('unit'));
  assert.equal(m.allowed, 'a property name: "city" (required)');

  const early = section(call('search', 0, '{}'));
  const x = rejected(await run(early));
  assert.equal(x.charOffset, early.indexOf('}'));
  assert.equal(x.allowed, 'a property name: "q" (required)');
});

test('markup errors: id without functions., newline after call begin, text between calls', async () => {
  const noPrefix = section('<|tool_call_begin|>get_weather:0<|tool_call_argument_begin|>{"city": "P"}<|tool_call_end|>');
  const a = rejected(await run(noPrefix));
  assert.equal(a.charOffset, noPrefix.indexOf('get_weather'));
  assert.match(a.allowed, /^"functions\." then the tool name/);

  const newline = section('<|tool_call_begin|>\nfunctions.get_weather:0<|tool_call_argument_begin|>{"city": "P"}<|tool_call_end|>');
  const b = rejected(await run(newline));
  assert.equal(b.charOffset, newline.indexOf('\n'));
  assert.match(b.produced, /^\nfunctions/);

  const between = section(call('get_weather', 0, '{"city": "P"}') + ' and ' + call('search', 1, '{"q": "x"}'));
  const c = rejected(await run(between));
  assert.equal(c.charOffset, between.indexOf(' and '));
  assert.equal(c.allowed, 'one of: "<|tool_calls_section_end|>", "<|tool_call_begin|>"');
});

test('excluded strings in free text: a call outside the section', async () => {
  const text = 'I will call it. ' + call('get_weather', 0, '{"city": "P"}');
  const r = rejected(await run(text));
  assert.equal(r.reason, 'excluded');
  assert.equal(r.charOffset, text.indexOf('<|tool_call_begin|>'));
  assert.equal(r.produced, '<|tool_call_begin|>');
  assert.match(r.allowed, /tool calls start with "<\|tool_calls_section_begin\|>"/);
});

test('end of output: a call cut short cannot end, unless the completion was truncated', async () => {
  const text = '<|tool_calls_section_begin|>' + call('get_weather', 0, '{"city": "P"').slice(0, -17);
  const r = rejected(await run(text, 'stop'));
  assert.equal(r.reason, 'cannot-end');
  assert.equal(r.charOffset, text.length);
  assert.equal(r.produced, '');
  assert.equal((await run(text, 'length')).accepted, true);
  // A stop token inside the text is where the model stopped.
  assert.equal((await run(section(call('now', 0, '{}')) + '<|im_end|>')).accepted, true);
});

test('reasoning is skipped by default (vLLM constrains after </think>), constrained on request', async () => {
  const text = '<think>maybe <|tool_call_begin|> here</think>' + section(call('now', 0, '{}'));
  const skipped = await run(text);
  assert.deepStrictEqual(skipped, { accepted: true, grammarStart: text.indexOf('<|tool_calls_section_begin|>'), endChecked: true });
  const constrained = rejected(await run(text, 'stop', 'constrain'));
  assert.equal(constrained.reason, 'excluded');
  assert.equal(constrained.charOffset, 0);
  // Unfinished reasoning: the grammar never started.
  assert.deepStrictEqual(await run('<think>still thinking'), { accepted: true, grammarStart: 21, endChecked: false });
});

test('recorded tokens: the token holding the offset is reported, markers split across tokens included', async () => {
  const text = section(call('img_gen', 0, '{}'));
  const at = text.indexOf('img_gen');
  const completion: Completion = {
    text,
    tokens: [
      { id: 163595, text: '<|tool_calls_section_begin|>' },
      { text: '<|tool_call_' }, // a marker split across two tokens
      { text: 'begin|>' },
      { text: 'functions' },
      { text: '.' },
      { text: 'img' },
      { text: text.slice(at + 3) },
    ],
    finish_reason: 'stop',
  };
  const tokenized = tokenizeCompletion(completion, splitter, kimiSpecialTokenTable);
  const g = await compileKimiGrammar(TOOLS, 'auto');
  const r = rejected(await whatIf(g, { text: tokenized.text, tokens: tokenized.tokens, finishReason: 'stop' }));
  assert.equal(r.charOffset, at);
  assert.equal(r.tokenIndex, 5);
  assert.equal(tokenAt([], 3), -1);
});

test('whatIfForRequest: no tag for the request is reported, not thrown', async () => {
  const none = await whatIfForRequest(
    { tools: TOOLS, tool_choice: 'required' },
    { text: 'x', tokens: [] },
    { format: 'kimi_k2', shape: 'pr36891' },
  );
  assert.equal(none.ran, false);
  const ran = await whatIfForRequest({ tools: TOOLS, tool_choice: 'required' }, { text: 'x', tokens: [] }, { format: 'kimi_k2' });
  assert.ok(ran.ran && !ran.result.accepted && ran.result.charOffset === 0 && ran.result.tokenIndex === -1);
});

// The speed budget (DESIGN §9) is a goal of `npm run bench` (bench/guidedBench.ts, ms per 1k tokens with its
// conditions), not a timed unit test that a loaded CI machine can fail; here the 4k-token run must be right.
test('a 4k-token completion with a compiled grammar is accepted, twice in a row', async () => {
  const g = await compileKimiGrammar(TOOLS, 'auto');
  let text = 'I will run several searches. ';
  for (let i = 0; text.length < 16_000; i++)
    text += call('search', i, `{"q": "topic number ${i} with some words", "top_k": ${(i % 20) + 1}}`);
  text = '<|tool_calls_section_begin|>' + text.slice(29) + '<|tool_calls_section_end|>';
  const tokens = splitter.tokenize(text);
  assert.ok(tokens.length > 1000, `${tokens.length} tokens`);
  const first = await whatIf(g, { text, tokens });
  const second = await whatIf(g, { text, tokens });
  assert.equal(first.accepted, true);
  assert.deepEqual(second, first, 'a matcher reused for the same grammar starts afresh');
});
