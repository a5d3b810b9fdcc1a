export type { Token, Tokenizer, TokenizedCompletion } from './token.ts';
export type { SpecialTokens } from './specialTokens.ts';
export { forEachPiece, pretokenize, KIMI_PRETOKENIZER_SOURCE } from './approximatePretokenizer.ts';
export { distribute, tokenizeCompletion } from './recordedTokens.ts';
