/**
 * Splits a completion of one format into approximate tokens: each of the format's markers is one (special)
 * token, as in that model's vocabulary, and the text between splits with the pre-tokenizer. Without it a
 * `<tool_call>` would fall into four pieces and every marker would look split across tokens.
 */
import { pretokenize } from './approximatePretokenizer.ts';
import type { Token, Tokenizer } from './token.ts';

export class MarkerSplitter implements Tokenizer {
  readonly name: string;
  readonly approximate = true;
  private readonly pattern: RegExp | null;

  /** `format`: the format's name and its marker strings. */
  constructor(format: { readonly name: string; readonly markers: readonly string[] }) {
    this.name = `${format.name}-marker-splitter`;
    const markers = [...new Set(format.markers)].filter((m) => m !== '').sort((a, b) => b.length - a.length);
    this.pattern = markers.length ? new RegExp(markers.map((m) => m.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('|'), 'gu') : null;
  }

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    const pushText = (from: number, to: number): void => {
      let at = from;
      for (const piece of to > from ? pretokenize(text.slice(from, to)) : []) {
        tokens.push({ index: tokens.length, text: piece, charStart: at, charEnd: at + piece.length, special: false, approximate: true });
        at += piece.length;
      }
    };
    let last = 0;
    if (this.pattern) {
      this.pattern.lastIndex = 0;
      for (let m = this.pattern.exec(text); m; m = this.pattern.exec(text)) {
        pushText(last, m.index);
        const end = m.index + m[0].length;
        tokens.push({ index: tokens.length, text: m[0], charStart: m.index, charEnd: end, special: true, approximate: false });
        last = end;
      }
    }
    pushText(last, text.length);
    return tokens;
  }
}
