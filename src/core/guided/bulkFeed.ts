/**
 * Feeding a completion to a matcher in bulk: the text, special tokens included, goes in strings of a few thousand
 * characters, and only a string the grammar refuses is halved until the refused unit is found. A unit is a code
 * point, or a whole special token's string (one token of the byte vocabulary), so the place reported and the
 * matcher's state there are those of feeding piece by piece (`feedByPiece`, what the what-if did before). Each call
 * into WASM costs about a microsecond besides xgrammar's own 60–90 ns a character, and feeding piece by piece made
 * several calls per tool call (each special token, each 64 characters) plus a token mask after every excluded one.
 *
 * A special token's string is accepted exactly when its token is: xgrammar matches a token of a byte vocabulary by
 * the text it decodes to (xgrammar.ts `grammarAccepts` relies on the same); test/core/guided/bulkFeed.test.ts
 * compares both ways on completions broken at every offset.
 */
import { nothingAllowed, readBitmask } from './allowedNext.ts';
import { pieces } from './completionPieces.ts';
import type { ByteVocabulary } from './byteVocabulary.ts';
import type { XgMatcher } from './xgrammarModule.ts';

/**
 * Characters per string handed to the matcher. Measured on web-xgrammar 0.1.27 (CPU time): xgrammar's cost per
 * character is flat from 64 characters up (free text ~60 ns, JSON in a call ~85 ns); longer strings only save calls.
 */
const CHUNK = 4096;

export type FeedOutcome = { ok: true } | { ok: false; offset: number; excluded: boolean };

const SURROGATE = /[\ud800-\udfff]/g;

/**
 * Whether text[from, to) holds a UTF-16 surrogate without its other half. Emscripten's UTF-8 conversion joins it with
 * whatever unit follows it in the string, so the bytes xgrammar sees depend on where the strings are cut: such text is
 * fed as it always was. Found with a plain character class and each surrogate's pair checked by hand: a regex with
 * look-around over a whole completion cost 1.3 ms on 144k characters of two-byte text, most of a prose-heavy what-if.
 */
export function hasLoneSurrogate(text: string, from: number, to: number): boolean {
  SURROGATE.lastIndex = from;
  for (let m = SURROGATE.exec(text); m && m.index < to; m = SURROGATE.exec(text)) {
    const i = m.index;
    if (text.charCodeAt(i) >= 0xdc00 || i + 1 >= to || (text.charCodeAt(i + 1) & 0xfc00) !== 0xdc00) return true;
    SURROGATE.lastIndex = i + 2;
  }
  return false;
}

/** A special-token string in the text: [start, end). */
interface Span {
  start: number;
  end: number;
  excluded: boolean;
}

/**
 * Feeds text[from, to) into the matcher; stops before the first refused unit. An excluded special token (`excludes`:
 * strings the tag forbids in free text) is accepted as a trigger that leads nowhere: when nothing is allowed after
 * it, the outcome is `excluded` at its start.
 */
export async function feedInBulk(
  matcher: XgMatcher,
  vocabulary: ByteVocabulary,
  excludes: ReadonlySet<string>,
  text: string,
  from: number,
  to: number,
): Promise<FeedOutcome> {
  if (hasLoneSurrogate(text, from, to)) return feedByPiece(matcher, vocabulary, excludes, text, from, to);
  // The special tokens' places are found only when a cut needs them: a short text the grammar takes whole needs none.
  let spans: Span[] | undefined;
  const specials = (): readonly Span[] =>
    (spans ??= pieces(text, from, to)
      .filter((p) => p.special)
      .map((p) => ({ start: p.start, end: p.start + p.text.length, excluded: excludes.has(p.text) })));
  const cuts = new UnitCuts(text, specials);
  // A matcher left dead by an excluded special token refuses whatever follows: that shows as the unit refused right
  // after the token (or as the end of the text), and only there is the token mask read.
  const deadAfter = async (at: number): Promise<Span | null> => {
    // Only an excluded string ending here can be such a token.
    if (![...excludes].some((e) => text.endsWith(e, at))) return null;
    const span = cuts.endingAt(at);
    if (!span?.excluded) return null;
    return nothingAllowed(readBitmask(await matcher.nextTokenBitmask(), vocabulary, '')) ? span : null;
  };
  let at = from;
  while (at < to) {
    const end = cuts.snap(Math.min(to, at + CHUNK), at, to);
    if (matcher.acceptString(text.slice(at, end))) {
      at = end;
      continue;
    }
    const refused = cuts.firstRefused(matcher, at, end);
    const dead = await deadAfter(refused);
    return dead ? { ok: false, offset: dead.start, excluded: true } : { ok: false, offset: refused, excluded: false };
  }
  const dead = await deadAfter(to);
  return dead ? { ok: false, offset: dead.start, excluded: true } : { ok: true };
}

/** Where the text may be cut: between code points, never inside a special token's string. */
class UnitCuts {
  constructor(
    private readonly text: string,
    private readonly specials: () => readonly Span[],
  ) {}

  /** The first special token whose string ends after `offset` (binary search; spans are in text order). */
  private firstEndingAfter(offset: number): Span | undefined {
    const specials = this.specials();
    let lo = 0;
    let hi = specials.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((specials[mid] as Span).end <= offset) lo = mid + 1;
      else hi = mid;
    }
    return specials[lo];
  }

  /** The special token whose string holds `offset` (start ≤ offset < end). */
  private spanAt(offset: number): Span | undefined {
    const span = this.firstEndingAfter(offset);
    return span && span.start <= offset ? span : undefined;
  }

  /** The special token whose string ends at `offset`. */
  endingAt(offset: number): Span | undefined {
    const span = this.firstEndingAfter(offset - 1);
    return span?.end === offset ? span : undefined;
  }

  /** Where the unit starting at `offset` ends. */
  private unitEnd(offset: number): number {
    const span = this.spanAt(offset);
    if (span) return span.end;
    const pair = (this.text.charCodeAt(offset) & 0xfc00) === 0xd800 && (this.text.charCodeAt(offset + 1) & 0xfc00) === 0xdc00;
    return offset + (pair ? 2 : 1);
  }

  /** `offset` moved to a cut in (lo, hi]: out of a special token's string, off the middle of a surrogate pair. */
  snap(offset: number, lo: number, hi: number): number {
    if (offset >= hi) return hi;
    const span = this.spanAt(offset);
    let cut = offset;
    if (span && span.start < offset) cut = span.start > lo ? span.start : span.end;
    else if ((this.text.charCodeAt(offset) & 0xfc00) === 0xdc00 && (this.text.charCodeAt(offset - 1) & 0xfc00) === 0xd800) cut = offset + 1;
    return Math.min(Math.max(cut, this.unitEnd(lo)), hi);
  }

  /**
   * The start of the first unit of text[lo, hi) the matcher refuses, the matcher being at `lo` and refusing the
   * whole: halves accepted move it on, refused ones leave it (a refused string changes nothing).
   */
  firstRefused(matcher: XgMatcher, lo: number, hi: number): number {
    while (this.unitEnd(lo) < hi) {
      let mid = this.snap(lo + ((hi - lo) >> 1), lo, hi);
      if (mid >= hi) mid = this.unitEnd(lo);
      if (matcher.acceptString(this.text.slice(lo, mid))) lo = mid;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * Piece by piece, as the what-if fed before bulk feeding: each special token with acceptToken, text in strings of 64
 * UTF-16 units, and a refused string again one code point at a time.
 */
export async function feedByPiece(
  matcher: XgMatcher,
  vocabulary: ByteVocabulary,
  excludes: ReadonlySet<string>,
  text: string,
  from: number,
  to: number,
): Promise<FeedOutcome> {
  for (const p of pieces(text, from, to)) {
    if (p.special) {
      if (!matcher.acceptToken(vocabulary.specialIds.get(p.text) as number)) return { ok: false, offset: p.start, excluded: false };
      if (excludes.has(p.text) && nothingAllowed(readBitmask(await matcher.nextTokenBitmask(), vocabulary, ''))) {
        return { ok: false, offset: p.start, excluded: true };
      }
      continue;
    }
    for (let i = 0; i < p.text.length;) {
      let end = Math.min(i + 64, p.text.length);
      const last = p.text.charCodeAt(end - 1);
      if (end < p.text.length && last >= 0xd800 && last <= 0xdbff) end++;
      const chunk = p.text.slice(i, end);
      if (!matcher.acceptString(chunk)) {
        let at = 0;
        for (const ch of chunk) {
          if (!matcher.acceptString(ch)) return { ok: false, offset: p.start + i + at, excluded: false };
          at += ch.length;
        }
        return { ok: false, offset: p.start + i + at, excluded: false };
      }
      i = end;
    }
  }
  return { ok: true };
}
