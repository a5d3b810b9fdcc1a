import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  KimiSplitter,
  KIMI_SPECIAL_TOKENS,
  pretokenize,
  specialTokenId,
  specialTokenText,
  tokenizeCompletion,
} from '../../../src/core/tokens/index.ts';

const shared = fileURLToPath(new URL('../../../../shared/data/kimi/', import.meta.url));
const CORPUS = [
  'Hello world, it\'s a test. I\'LL go; don\'t WORRY.',
  '好的，我来查一下北京的天气。今天是2025年08月15日',
  'function f(x) {\n  return x + 12345;\n}\n\n\n  indented\ttab',
  '{"city": "Paris", "top_k": 20, "nested": {"a": [1, 2, 3]}}',
  'emoji 😀🌦️ mixed ÀÉÎ naïve café 123456789',
  '   leading and trailing spaces   \r\n windows lines\r\n',
];

test('pretokenize tiles its input on varied text', () => {
  for (const s of CORPUS) assert.equal(pretokenize(s).join(''), s);
  // Random strings from a mixed alphabet.
  const alphabet = ['a', 'Z', ' ', '\n', '\r', '中', '文', '1', '😀', "'", 's', '{', '"', 'é', '\t'];
  let seed = 7;
  for (let n = 0; n < 300; n++) {
    let s = '';
    for (let i = 0; i < 30; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      s += alphabet[seed % alphabet.length];
    }
    assert.equal(pretokenize(s).join(''), s);
  }
});

test('pretokenize splits like the documented pattern', () => {
  assert.deepEqual(pretokenize("I'LL don't"), ["I'LL", " don't"]);
  assert.deepEqual(pretokenize('12345'), ['123', '45']);
  assert.deepEqual(pretokenize('北京天气ok'), ['北京天气', 'ok']);
});

test('pretokenize agrees with the reference JS translation in ../shared', (t) => {
  const file = shared + 'pat_str.js-v-flag.txt';
  if (!existsSync(file)) {
    t.skip('../shared not present: reference pre-tokenizer pattern not compared');
    return;
  }
  const reference = new RegExp(readFileSync(file, 'utf8').trim(), 'gv');
  for (const s of CORPUS) assert.deepEqual(pretokenize(s), s.match(reference) ?? [], JSON.stringify(s));
});

test('special token table agrees with the K2-Instruct config in ../shared', (t) => {
  const file = shared + 'special_tokens.K2-Instruct.json';
  if (!existsSync(file)) {
    t.skip('../shared not present: special-token ids not compared');
    return;
  }
  const table = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  for (const [text, id] of KIMI_SPECIAL_TOKENS) {
    if (text === '<think>' || text === '</think>') {
      assert.ok(table[`<|reserved_token_${id}|>`] === id, `${text} sits in reserved slot ${id}`);
      continue;
    }
    assert.equal(table[text], id, text);
  }
});

test('special tokens: ids both ways, reserved slots by pattern', () => {
  assert.equal(specialTokenId('<|tool_call_begin|>'), 163597);
  assert.equal(specialTokenText(163595), '<|tool_calls_section_begin|>');
  assert.equal(specialTokenId('<|reserved_token_163700|>'), 163700);
  assert.equal(specialTokenId('<|tool_call_section_begin|>'), undefined, 'singular spelling is not a token');
});

test('splitter: specials are exact single tokens, text is approximate, offsets tile the text', () => {
  const text = 'Hi <|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|><|tool_calls_section_end|><|im_end|>';
  const tokens = new KimiSplitter().tokenize(text);
  assert.equal(tokens.map((t) => t.text).join(''), text);
  let at = 0;
  for (const tk of tokens) {
    assert.equal(tk.charStart, at);
    at = tk.charEnd;
  }
  const specials = tokens.filter((t) => t.special);
  assert.deepEqual(specials.map((t) => t.id), [163595, 163597, 163598, 163599, 163596, 163586]);
  assert.ok(specials.every((t) => !t.approximate));
  assert.ok(tokens.filter((t) => !t.special).every((t) => t.approximate && t.id === undefined));
});

test('splitter: singular section markers and <think> tags', () => {
  const tokens = new KimiSplitter().tokenize('<think>hm</think><|tool_call_section_begin|>');
  assert.deepEqual(tokens.slice(0, 3).map((t) => [t.text, t.special]), [['<think>', true], ['hm', false], ['</think>', true]]);
  assert.ok(tokens.slice(3).every((t) => !t.special), 'the singular spelling stays text');
});

test('recorded tokens whose texts tile the completion are used as they are', () => {
  const tokens = [{ text: 'Hi ', id: 5, logprob: -0.1 }, { text: '<|tool_calls_section_begin|>', id: 163595 }, { text: 'x', id: 6 }];
  const r = tokenizeCompletion({ text: tokens.map((t) => t.text).join(''), tokens }, new KimiSplitter());
  assert.equal(r.origin, 'recorded');
  assert.deepEqual(r.tokens.map((t) => [t.text, t.special, t.approximate, t.id]), [['Hi ', false, false, 5], ['<|tool_calls_section_begin|>', true, false, 163595], ['x', false, false, 6]]);
  assert.equal(r.tokens[0]?.logprob, -0.1);
});

test('token_id:N tokens (ids, no text): specials placed exactly, runs share the text', () => {
  const text = 'Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city":"Oslo"}<|tool_call_end|><|tool_calls_section_end|>';
  const ids = [1001, 1002, 1003, 1004, 163595, 163597, 1005, 1006, 1007, 163598, 1008, 1009, 163599, 163596];
  const r = tokenizeCompletion({ text, tokens: ids.map((id) => ({ id, text: '' })) }, new KimiSplitter());
  assert.equal(r.origin, 'recorded');
  assert.equal(r.text, text);
  assert.equal(r.tokens.map((t) => t.text).join(''), text);
  assert.equal(r.tokens[4]?.text, '<|tool_calls_section_begin|>');
  assert.ok(r.tokens.slice(0, 4).every((t) => t.approximate && t.text !== ''));
  assert.deepEqual(r.tokens.map((t) => t.id), ids);
});

test('skip_special_tokens text is rebuilt from the ids', () => {
  const tokens = [{ id: 1, text: 'Sure.' }, { id: 163595, text: '' }, { id: 163597, text: '' }, { id: 2, text: 'functions.f:0' }, { id: 163598, text: '' }, { id: 3, text: '{}' }, { id: 163599, text: '' }, { id: 163596, text: '' }];
  const r = tokenizeCompletion({ text: 'Sure.functions.f:0{}', tokens }, new KimiSplitter());
  assert.equal(r.rebuilt, true);
  assert.equal(r.text, 'Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>');
});

test('a marker recorded as three text tokens stays three ordinary tokens', () => {
  const tokens = [{ id: 1, text: '<|tool_calls_' }, { id: 2, text: 'section_' }, { id: 3, text: 'begin|>' }];
  const r = tokenizeCompletion({ text: '<|tool_calls_section_begin|>', tokens }, new KimiSplitter());
  assert.equal(r.tokens.length, 3);
  assert.ok(r.tokens.every((t) => !t.special && !t.approximate));
});

test('inconsistent recorded tokens fall back to the splitter with a warning', () => {
  const r = tokenizeCompletion({ text: 'abc<|im_end|>', tokens: [{ text: 'zzz' }, { text: '<|tool_call_end|>' }] }, new KimiSplitter());
  assert.equal(r.origin, 'splitter');
  assert.match(r.warning ?? '', /do not match/);
  assert.equal(r.tokens.map((t) => t.text).join(''), 'abc<|im_end|>');
});

test('splitter is fast enough for 100k tokens (sanity, not a benchmark)', () => {
  const text = 'word '.repeat(100_000);
  const tokens = new KimiSplitter().tokenize(text);
  assert.equal(tokens.length, 100_001, '"word", 99,999 × " word", and the final space');
});
