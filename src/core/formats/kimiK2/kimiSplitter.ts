/**
 * An approximate Kimi tokenizer for completions recorded without tokens: every special token is one token with
 * its real id (exact: tiktoken splits specials out first, as here), and the text between splits with the Kimi
 * pre-tokenizer (approximate: the BPE may split a piece further). The real BPE needs the user's local
 * tiktoken.model and can implement `Tokenizer` later.
 */
import { MAX_SPECIAL_LENGTH, specialTokenId } from './kimiSpecialTokens.ts';
import { forEachPiece } from '../../tokens/approximatePretokenizer.ts';
import type { Token, Tokenizer } from '../../tokens/token.ts';

// Every special string starts with `<` (`<|…|>`, `<think>`, `</think>`) or `[` (`[BOS]` …).
const CANDIDATE = /[<[]/g;

export class KimiSplitter implements Tokenizer {
  readonly name = 'kimi-splitter';
  readonly approximate = true;

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    const pushPiece = (start: number, end: number): void => {
      tokens.push({
        index: tokens.length,
        text: text.slice(start, end),
        charStart: start,
        charEnd: end,
        special: false,
        approximate: true,
      });
    };
    let last = 0;
    CANDIDATE.lastIndex = 0;
    for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
      const start = m.index;
      const found = specialAt(text, start);
      if (found === null) continue;
      forEachPiece(text, last, start, pushPiece);
      const end = start + found.text.length;
      tokens.push({
        index: tokens.length,
        text: found.text,
        charStart: start,
        charEnd: end,
        id: found.id,
        special: true,
        approximate: false,
      });
      last = end;
      CANDIDATE.lastIndex = end;
    }
    forEachPiece(text, last, text.length, pushPiece);
    return tokens;
  }
}

/** The special token starting at `at`, looking at most MAX_SPECIAL_LENGTH characters ahead. */
export function specialAt(text: string, at: number): { text: string; id: number } | null {
  const window = text.slice(at, at + MAX_SPECIAL_LENGTH);
  let candidate: string;
  if (window.startsWith('<|')) {
    const close = window.indexOf('|>', 2);
    if (close < 0) return null;
    candidate = window.slice(0, close + 2);
  } else if (window.startsWith('[')) {
    const close = window.indexOf(']', 1);
    if (close < 0) return null;
    candidate = window.slice(0, close + 1);
  } else if (window.startsWith('<think>')) {
    candidate = '<think>';
  } else if (window.startsWith('</think>')) {
    candidate = '</think>';
  } else {
    return null;
  }
  // The singular section spellings (KIMI_NON_TOKEN_MARKERS) are not in the table: they stay text.
  const id = specialTokenId(candidate);
  return id === undefined ? null : { text: candidate, id };
}
