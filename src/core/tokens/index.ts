export type { Token, Tokenizer, TokenizedCompletion } from './token.ts';
export { KimiSplitter } from './kimiSplitter.ts';
export { pretokenize, KIMI_PRETOKENIZER_SOURCE } from './kimiPretokenizer.ts';
export { distribute, tokenizeCompletion } from './recordedTokens.ts';
export {
  KIMI_NON_TOKEN_MARKERS,
  KIMI_SPECIAL_TOKENS,
  isSpecialTokenId,
  specialTokenId,
  specialTokenText,
} from './kimiSpecialTokens.ts';
