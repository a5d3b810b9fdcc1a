/**
 * o200k_harmony against an independent implementation: the `gpt-tokenizer` package's o200k_harmony (its own BPE
 * code and its own copy of the ranks). gpt-tokenizer recognises special tokens only at the start of its input, so
 * the reference encodes the text between specials and each special on its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode as referenceEncode } from 'gpt-tokenizer/encoding/o200k_harmony';
import { HARMONY_SPECIAL_TOKENS, o200kHarmony } from '../../../src/core/formats/harmony/o200kHarmony.ts';

const SPECIAL = /<\|(?:startoftext|endoftext|return|constrain|channel|start|end|message|call)\|>/gu;

function reference(text: string): number[] {
  const ids: number[] = [];
  let last = 0;
  for (const m of text.matchAll(SPECIAL)) {
    if (m.index > last) ids.push(...referenceEncode(text.slice(last, m.index)));
    ids.push(...referenceEncode(m[0], { allowedSpecial: 'all' }));
    last = m.index + m[0].length;
  }
  if (last < text.length) ids.push(...referenceEncode(text.slice(last)));
  return ids;
}

const COMPLETIONS = [
  // A tool call, the way gpt-oss writes it after `<|start|>assistant`.
  '<|channel|>analysis<|message|>The user wants the weather in Paris. Call get_weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris", "unit": "celsius"}<|call|>',
  // CJK, kana, Hangul and accents in arguments and in the final answer.
  '<|channel|>commentary to=functions.translate <|constrain|>json<|message|>{"text": "東京の天気は晴れです。서울은 비가 옵니다. Ça va? Tōkyō"}<|call|>',
  // Emoji: single code points, ZWJ sequences, flags, skin tones, a variation selector.
  '<|channel|>final<|message|>Done ✅ 😀 👩‍👩‍👧‍👦 🇫🇷 👍🏽 ❤️ 🧑🏿‍🚀<|return|>',
  // Whitespace runs: spaces, tabs, blank lines, CRLF, trailing whitespace before a special.
  '<|channel|>final<|message|>a    b\t\t\tc\n\n\n   d\r\n\r\n  \n\t e      <|end|>',
  // Every special token, contractions, digits, slashes, code.
  "<|startoftext|>I'm sure they'll say it's 12345678 /usr/local/bin; DON'T x/y//z<|endoftext|><|start|><|channel|><|constrain|><|message|><|call|><|return|><|end|>",
  'def f(x):\n    return {"a": [1, 2, 3], "b": None}  # 注释\n\n\nclass A:\n\tpass\n',
];

test('o200k_harmony: the same ids as gpt-tokenizer on Harmony completions (CJK, emoji, whitespace, every special)', () => {
  const tokenizer = o200kHarmony();
  for (const text of COMPLETIONS) assert.deepEqual(tokenizer.encode(text), reference(text), text);
});

test('o200k_harmony: special tokens carry the ids openai/harmony gives them', () => {
  // openai/harmony src/tiktoken_ext/public_encodings.rs (and the list).
  const expected: Record<string, number> = {
    '<|start|>': 200006,
    '<|end|>': 200007,
    '<|message|>': 200008,
    '<|channel|>': 200005,
    '<|constrain|>': 200003,
    '<|return|>': 200002,
    '<|call|>': 200012,
  };
  const table = new Map(HARMONY_SPECIAL_TOKENS);
  for (const [text, id] of Object.entries(expected)) {
    assert.equal(table.get(text), id, text);
    assert.deepEqual(
      o200kHarmony()
        .tokenize(`x${text}y`)
        .map((t) => [t.text, t.id, t.special]),
      [
        ['x', 87, false],
        [text, id, true],
        ['y', 88, false],
      ],
    );
  }
  // A reserved slot is one special token too; a look-alike is text.
  assert.equal(o200kHarmony().tokenize('<|reserved_200013|>')[0]?.id, 200013);
  assert.ok(
    o200kHarmony()
      .tokenize('<|channel |>')
      .every((t) => !t.special),
  );
});

test('o200k_harmony: tokens tile the text, and a token that splits a character shows its bytes, not U+FFFD', () => {
  const text = COMPLETIONS[2] as string;
  const tokens = o200kHarmony().tokenize(text);
  assert.equal(tokens.map((t) => t.text).join(''), text);
  let at = 0;
  for (const t of tokens) {
    assert.equal(t.charStart, at);
    assert.equal(text.slice(t.charStart, t.charEnd), t.text);
    assert.equal(t.approximate, false);
    assert.ok(!t.text.includes('\uFFFD'));
    at = t.charEnd;
  }
  const partial = tokens.filter((t) => t.bytes !== undefined);
  assert.ok(partial.length > 0, 'some emoji are split over tokens');
  for (const t of partial) assert.match(t.bytes as string, /^(?:\\x[0-9A-F]{2})+$/u);
  // 👩 (F0 9F 91 A9) comes as F0 9F 91 + A9: the first holds no whole character, the second ends it.
  const woman = o200kHarmony().tokenize('👩');
  assert.deepEqual(
    woman.map((t) => [t.text, t.bytes]),
    [
      ['', '\\xF0\\x9F\\x91'],
      ['👩', '\\xA9'],
    ],
  );
});
