export type { Token, Tokenizer, TokenizedCompletion } from './token.ts';
export { KimiSplitter, specialAt } from './kimiSplitter.ts';
export { forEachPiece, pretokenize, KIMI_PRETOKENIZER_SOURCE } from './kimiPretokenizer.ts';
export { distribute, tokenizeCompletion } from './recordedTokens.ts';
export {
  FIRST_SPECIAL_ID,
  KIMI_LATER_SPECIAL_TOKENS,
  KIMI_NON_TOKEN_MARKERS,
  KIMI_SPECIAL_TOKENS,
  LAST_SPECIAL_ID,
  MAX_SPECIAL_LENGTH,
  isSpecialTokenId,
  isSpecialTokenText,
  specialTokenId,
  specialTokenText,
} from './kimiSpecialTokens.ts';
