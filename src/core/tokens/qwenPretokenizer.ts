/**
 * The Qwen2/Qwen2.5/Qwen3 pre-tokenizer (their tokenizer.json's Split pattern; llama.cpp calls it `qwen2`), for a
 * GGUF vocabulary, which names its pre-tokenizer but does not hold the pattern. Unlike o200k it takes single digits
 * and no case classes. `\s` there is the Unicode White_Space property, and `(?i:'s)` also matches `'ſ`. Shared by
 * the formats whose models are Qwen's (Hermes / Qwen3, Qwen3-Coder).
 */
import { regexSplitter } from './bytePairEncoder.ts';

const S = String.raw`\p{White_Space}`;
export const QWEN2_PATTERN = [
  String.raw`'[sS\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]`,
  String.raw`[^\r\n\p{L}\p{N}]?\p{L}+`,
  String.raw`\p{N}`,
  String.raw` ?[^${S}\p{L}\p{N}]+[\r\n]*`,
  String.raw`${S}*[\r\n]+`,
  String.raw`${S}+(?!\P{White_Space})`,
  String.raw`${S}+`,
].join('|');

export const qwen2Splitter = regexSplitter(QWEN2_PATTERN);
