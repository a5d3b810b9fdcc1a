/**
 * Llama 3's pre-tokenizer (the pattern of its tiktoken BPE, cl100k's; llama.cpp calls it `llama-bpe`), for the
 * `tiktoken.model` (ranks only) and GGUF vocabularies, which do not hold the pattern: digits in threes, letters with
 * one leading non-letter, punctuation runs with their line breaks. `\s` is Unicode White_Space; `(?i:'s|…)` is
 * spelled out (JavaScript has no inline flags here).
 */
import { regexSplitter } from '../../tokens/bytePairEncoder.ts';

const S = String.raw`\p{White_Space}`;
export const LLAMA3_PATTERN = [
  String.raw`'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]`,
  String.raw`[^\r\n\p{L}\p{N}]?\p{L}+`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^${S}\p{L}\p{N}]+[\r\n]*`,
  String.raw`${S}*[\r\n]+`,
  String.raw`${S}+(?!\P{White_Space})`,
  String.raw`${S}+`,
].join('|');

export const llama3Splitter = regexSplitter(LLAMA3_PATTERN);
