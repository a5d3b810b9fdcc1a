import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Token } from '../../../../src/core/tokens/index.ts';
import { KIMI_SPECIAL_TOKENS } from '../../../../src/core/formats/kimiK2/kimiSpecialTokens.ts';
import { KimiSplitter } from '../../../../src/core/formats/kimiK2/kimiSplitter.ts';
import { seededRandom } from '../../tokens/sharedData.ts';
import { assertLinear16 } from '../../../linearTime.ts';

const splitter = new KimiSplitter();

function assertTiles(tokens: Token[], text: string): void {
  let at = 0;
  for (const [i, t] of tokens.entries()) {
    assert.equal(t.index, i);
    assert.equal(t.charStart, at, `token ${i} starts where the previous ended`);
    assert.equal(t.charEnd, at + t.text.length);
    assert.equal(text.slice(t.charStart, t.charEnd), t.text);
    at = t.charEnd;
  }
  assert.equal(at, text.length, 'tokens cover the whole text');
}

test('splitter: name and approximate flag', () => {
  assert.equal(splitter.name, 'kimi-splitter');
  assert.equal(splitter.approximate, true);
  assert.deepEqual(splitter.tokenize(''), []);
});

test('splitter: specials are exact single tokens with ids, text pieces are approximate without ids', () => {
  const text =
    'Hi <|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|><|tool_calls_section_end|><|im_end|>';
  const tokens = splitter.tokenize(text);
  assertTiles(tokens, text);
  const specials = tokens.filter((t) => t.special);
  assert.deepEqual(
    specials.map((t) => t.id),
    [163595, 163597, 163598, 163599, 163596, 163586],
  );
  assert.ok(specials.every((t) => !t.approximate));
  const pieces = tokens.filter((t) => !t.special);
  assert.ok(pieces.every((t) => t.approximate && t.id === undefined));
  assert.deepEqual(
    pieces.map((t) => t.text),
    ['Hi', ' ', 'functions', '.f', ':', '0', '{"', 'a', '":', ' ', '1', '}'],
  );
});

test('splitter: every table entry, reserved slots and think tags', () => {
  for (const [text, id] of KIMI_SPECIAL_TOKENS) {
    const tokens = splitter.tokenize(`a${text}b`);
    assert.deepEqual(
      tokens.map((t) => [t.text, t.special, t.id]),
      [
        ['a', false, undefined],
        [text, true, id],
        ['b', false, undefined],
      ],
      text,
    );
  }
  const tokens = splitter.tokenize('<think>hm</think><|reserved_token_163700|>[BOS]x[EOS]');
  assert.deepEqual(
    tokens.map((t) => [t.text, t.special, t.id]),
    [
      ['<think>', true, 163606],
      ['hm', false, undefined],
      ['</think>', true, 163607],
      ['<|reserved_token_163700|>', true, 163700],
      ['[BOS]', true, 163584],
      ['x', false, undefined],
      ['[EOS]', true, 163585],
    ],
  );
});

test('splitter: the singular section spellings stay text', () => {
  const text = '<|tool_call_section_begin|>x<|tool_call_section_end|>';
  const tokens = splitter.tokenize(text);
  assertTiles(tokens, text);
  assert.ok(tokens.every((t) => !t.special && t.approximate));
});

test('splitter: near misses, nesting and unterminated candidates', () => {
  const cases: Array<[string, string[]]> = [
    ['<|<|im_end|>', ['<|im_end|>']],
    ['<|im_end|<|im_end|>', ['<|im_end|>']],
    ['[[EOS]]', ['[EOS]']],
    ['<<think>>', ['<think>']],
    ['<|im_end', []],
    ['x <| y |> z [1, 2] <think >', []],
    ['<|', []],
    ['[', []],
    ['<|' + 'a'.repeat(100) + '|>', []],
  ];
  for (const [text, specials] of cases) {
    const tokens = splitter.tokenize(text);
    assertTiles(tokens, text);
    assert.deepEqual(
      tokens.filter((t) => t.special).map((t) => t.text),
      specials,
      text,
    );
  }
});

test('splitter: random mixes of specials and text tile and find every special', () => {
  const specials = KIMI_SPECIAL_TOKENS.map(([text]) => text);
  // No `<` or `[` in the text parts, so they cannot form a special with their neighbours.
  const alphabet = [...'ab Z\n1中😀{}":,|>]_'];
  const next = seededRandom(3);
  for (let n = 0; n < 500; n++) {
    let text = '';
    const expected: string[] = [];
    for (let part = next(8); part > 0; part--) {
      if (next(3) === 0) {
        const s = specials[next(specials.length)] as string;
        text += s;
        expected.push(s);
      } else {
        for (let i = next(12); i > 0; i--) text += alphabet[next(alphabet.length)];
      }
    }
    const tokens = splitter.tokenize(text);
    assertTiles(tokens, text);
    assert.deepEqual(
      tokens.filter((t) => t.special).map((t) => t.text),
      expected,
      JSON.stringify(text),
    );
  }
});

test('splitter: linear time on 100k tokens of text and on many unterminated candidates', () => {
  const text = 'word '.repeat(100_000);
  assert.equal(splitter.tokenize(text).length, 100_001, '"word", 99,999 × " word", and the final space');
  assert.equal(splitter.tokenize('ab<|tool_call_begin|>cd '.repeat(20_000)).filter((t) => t.special).length, 20_000);
  const open = '<|'.repeat(100_000) + '['.repeat(100_000);
  assertTiles(splitter.tokenize(open), open);

  const families: Array<[string, (n: number) => string]> = [
    ['plain words', (n) => 'word '.repeat(n)],
    ['special tokens', (n) => 'ab<|tool_call_begin|>cd '.repeat(n / 5)],
    ['unterminated candidates', (n) => '<|'.repeat(n) + '['.repeat(n)],
  ];
  for (const [name, make] of families) {
    const small = make(10_000);
    const big = make(160_000);
    assertLinear16(
      name,
      () => splitter.tokenize(small),
      () => splitter.tokenize(big),
    );
  }
});
