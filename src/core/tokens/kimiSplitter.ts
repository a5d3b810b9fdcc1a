/**
 * An approximate Kimi tokenizer for completions recorded without tokens: every special token is one token with
 * its real id (exact), and the text between splits with the Kimi pre-tokenizer (approximate: BPE may split a
 * piece further). The real BPE needs the user's local tiktoken.model and can implement `Tokenizer` later.
 */
import { KIMI_NON_TOKEN_MARKERS, MAX_SPECIAL_LENGTH, specialTokenId } from './kimiSpecialTokens.ts';
import { pretokenize } from './kimiPretokenizer.ts';
import type { Token, Tokenizer } from './token.ts';

const SPECIAL_START = /<\||<think>|<\/think>|\[(?:BOS|EOS|EOT)\]/gu;

export class KimiSplitter implements Tokenizer {
  readonly name = 'kimi-splitter';
  readonly approximate = true;

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    const pushText = (from: number, to: number) => {
      if (to <= from) return;
      let at = from;
      for (const piece of pretokenize(text.slice(from, to))) {
        tokens.push({ index: tokens.length, text: piece, charStart: at, charEnd: at + piece.length, special: false, approximate: true });
        at += piece.length;
      }
    };
    let last = 0;
    SPECIAL_START.lastIndex = 0;
    for (let m = SPECIAL_START.exec(text); m; m = SPECIAL_START.exec(text)) {
      const start = m.index;
      const special = this.specialAt(text, start);
      if (!special) continue;
      pushText(last, start);
      tokens.push({ index: tokens.length, text: special.text, charStart: start, charEnd: start + special.text.length, id: special.id, special: true, approximate: false });
      last = start + special.text.length;
      SPECIAL_START.lastIndex = last;
    }
    pushText(last, text.length);
    return tokens;
  }

  private specialAt(text: string, at: number): { text: string; id: number } | null {
    if (text.startsWith('<think>', at)) return { text: '<think>', id: specialTokenId('<think>') as number };
    if (text.startsWith('</think>', at)) return { text: '</think>', id: specialTokenId('</think>') as number };
    const close = text.indexOf(text[at] === '[' ? ']' : '|>', at);
    if (close < 0 || close - at > MAX_SPECIAL_LENGTH) return null;
    const candidate = text.slice(at, close + (text[at] === '[' ? 1 : 2));
    // The singular section spellings are not in the vocabulary: they stay text.
    if (KIMI_NON_TOKEN_MARKERS.includes(candidate)) return null;
    const id = specialTokenId(candidate);
    return id === undefined ? null : { text: candidate, id };
  }
}
