/** The screen for tokenizer patterns that backtrack without end: nested repetitions found, the real patterns pass. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestedRepetition, tokenizerPatterns } from '../../../src/core/tokens/regexBacktracking.ts';
import { QWEN2_PATTERN } from '../../../src/core/tokens/qwenPretokenizer.ts';
import { LLAMA3_PATTERN } from '../../../src/core/formats/llama/llama3Pretokenizer.ts';
import { O200K_PATTERN } from '../../../src/core/formats/harmony/o200kHarmony.ts';

test('a repetition of something that repeats is found; escaped and bracketed parentheses are not groups', () => {
  assert.equal(nestedRepetition('(a+)+$'), '(a+)+');
  assert.equal(nestedRepetition('x|(\\w*)*'), '(\\w*)*');
  assert.equal(nestedRepetition('(?:a|b+){2,}'), '(?:a|b+){2,}');
  assert.equal(nestedRepetition('((ab)+c)*'), '((ab)+c)*');
  for (const safe of ['(a*)?', '(ab){2,3}', '[(+]+', '\\(a+\\)+', '\\s+(?!\\S)|\\s+']) assert.equal(nestedRepetition(safe), null, safe);
});

test("the pre-tokenizer patterns of GPT-2, Llama 3, Qwen2, o200k and DeepSeek-V3's sequence pass", () => {
  const gpt2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
  const deepseekV3 = ['[\\r\\n]', '\\s?[A-Za-zµÀ-ÖØ-öø-ƺ]+', '\\s?[!-/:-~！-／：-～‘-‟　-。]+', '\\s+$', '[一-龥ࠀ-一가-퟿]+', '\\p{N}+'];
  for (const p of [gpt2, LLAMA3_PATTERN, QWEN2_PATTERN, O200K_PATTERN, ...deepseekV3])
    assert.equal(nestedRepetition(String(p)), null, String(p));
});

test("a tokenizer.json's patterns: normalizer, pre-tokenizer sequence and decoder", () => {
  const json = {
    normalizer: { type: 'Replace', pattern: { Regex: 'n' }, content: ' ' },
    pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: 'p' } }, { type: 'ByteLevel' }] },
    decoder: { type: 'Replace', pattern: { String: 's' }, content: '' },
    model: { vocab: { Regex: 'not a pattern' } },
  };
  assert.deepEqual(tokenizerPatterns(json).sort(), ['n', 'p']);
});
