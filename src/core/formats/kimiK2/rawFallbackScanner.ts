/**
 * Recognises the raw fallback a model writes when it forgets the special tokens: `functions.name:0 {"a": 1}`.
 * Fed content text in pieces, it passes text through and holds back only a candidate call, so streaming and
 * one-shot parsing stay identical. JSON is followed by brace depth (strings and escapes respected).
 */
import type { CharRange } from '../toolCallFormat.ts';

export type RawFallbackPiece =
  | { kind: 'text'; text: string; at: number }
  | { kind: 'call'; id: string; arguments: string; span: CharRange; idSpan: CharRange; argumentsSpan: CharRange };

const PREFIX = 'functions.';
const isNameChar = (c: string): boolean => /[A-Za-z0-9_.-]/u.test(c);
const isWordChar = (c: string): boolean => /[A-Za-z0-9_.]/u.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

type Stage = 'idle' | 'prefix' | 'name' | 'index' | 'space' | 'json';

export class RawFallbackScanner {
  private stage: Stage = 'idle';
  private pending = '';
  private pendingAt = 0;
  private lastChar = '';
  private idEnd = 0;
  private jsonStart = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private digits = 0;

  feed(text: string, at: number): RawFallbackPiece[] {
    const out: RawFallbackPiece[] = [];
    let i = 0;
    while (i < text.length) {
      if (this.stage === 'idle') {
        // Fast path: copy text up to the next possible `functions.` start.
        let f = text.indexOf('f', i);
        while (f >= 0 && isWordChar(f > 0 ? (text[f - 1] as string) : this.lastChar)) {
          f = text.indexOf('f', f + 1);
        }
        const stop = f < 0 ? text.length : f;
        if (stop > i) {
          out.push({ kind: 'text', text: text.slice(i, stop), at: at + i });
          this.lastChar = text[stop - 1] as string;
        }
        if (f < 0) break;
        this.stage = 'prefix';
        this.pending = 'f';
        this.pendingAt = at + f;
        i = f + 1;
        continue;
      }
      const c = text[i] as string;
      if (this.step(c, out)) i++;
    }
    return out;
  }

  /** End of content (a marker or the end of the stream): whatever is held is plain text. */
  flush(_at: number): RawFallbackPiece[] {
    const out: RawFallbackPiece[] = [];
    if (this.stage !== 'idle') this.fail(out);
    return out;
  }

  /** Consumes `c` and returns true, or returns false when `c` must be looked at again from idle. */
  private step(c: string, out: RawFallbackPiece[]): boolean {
    switch (this.stage) {
      case 'prefix':
        if (PREFIX[this.pending.length] === c) {
          this.pending += c;
          if (this.pending.length === PREFIX.length) this.stage = 'name';
          return true;
        }
        break;
      case 'name':
        if (isNameChar(c)) {
          this.pending += c;
          return true;
        }
        if (c === ':' && this.pending.length > PREFIX.length) {
          this.pending += c;
          this.stage = 'index';
          this.digits = 0;
          return true;
        }
        break;
      case 'index':
        if (isDigit(c)) {
          this.pending += c;
          this.digits++;
          return true;
        }
        if (this.digits > 0 && (isSpace(c) || c === '{')) {
          this.idEnd = this.pendingAt + this.pending.length;
          this.stage = 'space';
          return this.step(c, out);
        }
        break;
      case 'space':
        if (isSpace(c)) {
          this.pending += c;
          return true;
        }
        if (c === '{') {
          this.jsonStart = this.pendingAt + this.pending.length;
          this.pending += c;
          this.stage = 'json';
          this.depth = 1;
          this.inString = false;
          this.escaped = false;
          return true;
        }
        break;
      case 'json':
        this.pending += c;
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === '\\') this.escaped = true;
          else if (c === '"') this.inString = false;
        } else if (c === '"') this.inString = true;
        else if (c === '{') this.depth++;
        else if (c === '}' && --this.depth === 0) this.complete(out);
        return true;
      case 'idle':
        return false;
    }
    this.fail(out);
    return false;
  }

  private complete(out: RawFallbackPiece[]): void {
    const start = this.pendingAt;
    const end = start + this.pending.length;
    const idLength = this.idEnd - start;
    out.push({
      kind: 'call',
      id: this.pending.slice(0, idLength),
      arguments: this.pending.slice(this.jsonStart - start),
      span: { start, end },
      idSpan: { start, end: this.idEnd },
      argumentsSpan: { start: this.jsonStart, end },
    });
    this.lastChar = '}';
    this.reset();
  }

  private fail(out: RawFallbackPiece[]): void {
    if (this.pending) {
      out.push({ kind: 'text', text: this.pending, at: this.pendingAt });
      this.lastChar = this.pending[this.pending.length - 1] as string;
    }
    this.reset();
  }

  private reset(): void {
    this.stage = 'idle';
    this.pending = '';
  }
}

/** Detection without recovery: raw fallback calls in a piece of content, by regex. */
export function findRawFallbackCalls(text: string): Array<{ id: string; start: number; end: number }> {
  const found: Array<{ id: string; start: number; end: number }> = [];
  const re = /(?<![A-Za-z0-9_.])functions\.[A-Za-z0-9_.-]+:\d+(?=\s*\{)/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) found.push({ id: m[0], start: m.index, end: m.index + m[0].length });
  return found;
}
