/**
 * DeepSeek-V3's pre-tokenizer (its tokenizer.json: three `Split` patterns in sequence; llama.cpp calls it
 * `deepseek-v3`), for a GGUF vocabulary, which names its pre-tokenizer but does not hold the patterns: digits in
 * threes, then runs of CJK ideographs and kana, then words, punctuation and whitespace. `\s` is Unicode White_Space.
 */
import { chainedSplitter } from '../../tokens/bytePairEncoder.ts';

const S = String.raw`\p{White_Space}`;
export const DEEPSEEK_V3_PATTERNS = [
  String.raw`\p{N}{1,3}`,
  String.raw`[\u4E00-\u9FA5\u3040-\u309F\u30A0-\u30FF]+`,
  [
    // ASCII punctuation (backslash and backtick included) followed by letters: `.foo`, `_bar`.
    '[!"#$%&\'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+',
    String.raw`[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+`,
    String.raw` ?[\p{P}\p{S}]+[\r\n]*`,
    String.raw`${S}*[\r\n]+`,
    String.raw`${S}+(?!\P{White_Space})`,
    String.raw`${S}+`,
  ].join('|'),
];

// Given as source text, compiled on first use (regexSplitter): their Unicode classes cost every start ~2–6 ms.
export const deepseekV3Splitter = chainedSplitter(DEEPSEEK_V3_PATTERNS);
