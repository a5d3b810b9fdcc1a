/**
 * Generation C's incremental text lexer: cuts text into marker literals and content, holding back a buffer
 * that is exactly a proper prefix of some marker until the next chunk decides. Only a buffer that is wholly
 * such a prefix is held: text before a possible marker goes out at once.
 */

export const CONTENT = '__content__';

export interface LexToken {
  /** A terminal name, or CONTENT. */
  terminal: string;
  value: string;
}

export class GenCLexer {
  buffer = '';
  private readonly literals: ReadonlyArray<readonly [text: string, terminal: string]>;
  private readonly firstChars: ReadonlySet<string>;
  private readonly prefixes: ReadonlySet<string>;
  /** The longest marker's length: a buffer this long or longer is no proper prefix of one. */
  private readonly longest: number;

  constructor(literals: ReadonlyArray<readonly [text: string, terminal: string]>) {
    this.literals = literals;
    this.firstChars = new Set(literals.map(([text]) => text[0] as string));
    const prefixes = new Set<string>();
    for (const [text] of literals) for (let i = 1; i < text.length; i++) prefixes.add(text.slice(0, i));
    this.prefixes = prefixes;
    this.longest = Math.max(0, ...literals.map(([text]) => text.length));
  }

  /** True when the text has no character a marker can start with. */
  plain(text: string): boolean {
    for (const ch of text) if (this.firstChars.has(ch)) return false;
    return true;
  }

  feed(text: string): LexToken[] {
    if (!this.buffer && this.plain(text)) return [{ terminal: CONTENT, value: text }];
    this.buffer += text;
    return this.drain(false);
  }

  flush(): LexToken[] {
    const tokens = this.buffer ? this.drain(true) : [];
    if (this.buffer) {
      tokens.push({ terminal: CONTENT, value: this.buffer });
      this.buffer = '';
    }
    return tokens;
  }

  private drain(final: boolean): LexToken[] {
    const tokens: LexToken[] = [];
    while (this.buffer) {
      if (this.plain(this.buffer)) {
        tokens.push({ terminal: CONTENT, value: this.buffer });
        this.buffer = '';
        break;
      }
      let best: readonly [string, string] | null = null;
      for (const lit of this.literals) {
        if (this.buffer.startsWith(lit[0]) && (best === null || lit[0].length > best[0].length)) best = lit;
      }
      // The length first: a set lookup hashes the whole buffer, which is the rest of the text when all of it is fed at once.
      if (!final && this.buffer.length < this.longest && this.prefixes.has(this.buffer)) {
        // Still undecided: wait for the next chunk. (A complete marker that is also the prefix of a longer
        // one would wait too; the Kimi markers have no such pair.)
        const buf = this.buffer;
        const longer = best !== null && this.literals.some(([t]) => t.length > buf.length && t.startsWith(buf));
        if (best === null || longer) break;
      }
      if (best !== null) {
        tokens.push({ terminal: best[1], value: best[0] });
        this.buffer = this.buffer.slice(best[0].length);
        continue;
      }
      const end = this.contentBoundary();
      const cut = end > 0 ? end : 1;
      tokens.push({ terminal: CONTENT, value: this.buffer.slice(0, cut) });
      this.buffer = this.buffer.slice(cut);
    }
    return tokens;
  }

  /** Where the next possible marker (complete, or a prefix running to the end) starts after position 0. */
  private contentBoundary(): number {
    const buf = this.buffer;
    for (let i = 1; i < buf.length; i++) {
      if (!this.firstChars.has(buf[i] as string)) continue;
      const rest = buf.length - i;
      for (const [text] of this.literals) {
        // Compared in place: no slice of the buffer at every candidate position.
        if (buf.startsWith(rest < text.length ? text.slice(0, rest) : text, i)) return i;
      }
    }
    return buf.length;
  }
}
