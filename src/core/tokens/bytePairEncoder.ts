/**
 * A byte-level BPE tokenizer that keeps every token anchored to the text: the engine behind o200k_harmony, a local
 * tiktoken.model and a GGUF vocabulary. Special tokens are split out first (as tiktoken does with all specials
 * allowed: a completion's markers are what the model generated), the rest is cut into pieces by the model's
 * pre-tokenizer and each piece's UTF-8 bytes are merged by rank.
 * Byte strings are held as Latin-1 JavaScript strings (one char per byte) so they key plain Maps.
 * A token that ends inside a character (an emoji split over two tokens) gets the character when the character
 * ends in it, and says its own bytes in `bytes` — never a replacement character.
 */
import type { PieceSplitter, Token, Tokenizer } from './token.ts';

export type { PieceSplitter } from './token.ts';

/** How a vocabulary merges bytes. */
export interface BpeModel {
  /** Priority of merging two adjacent byte strings (lower merges first), or undefined when they never merge. */
  mergeRank(left: string, right: string): number | undefined;
  /** The vocabulary id of a byte string, or undefined. */
  idOf(bytes: string): number | undefined;
  /** tiktoken: a piece that is itself in the vocabulary is one token, merges or not. */
  readonly wholePieceFirst: boolean;
}

/** A tiktoken vocabulary (ranks are ids, and a merge's priority is the rank of what it makes). */
export function tiktokenModel(ranks: ReadonlyMap<string, number>): BpeModel {
  return { mergeRank: (l, r) => ranks.get(l + r), idOf: (b) => ranks.get(b), wholePieceFirst: true };
}

/**
 * A splitter from a global regular expression (`g` and `u` or `v` flags). Given as source text it is compiled on
 * first use: the pre-tokenizers' Unicode classes take ~1–2 ms each to compile, and the bundles declare several at
 * load, most of which a run never uses.
 */
export function regexSplitter(source: RegExp | string, flags = 'gu'): PieceSplitter {
  let compiled = typeof source === 'string' ? undefined : source;
  return (text, from, to, piece) => {
    const pattern = (compiled ??= new RegExp(source, flags));
    const segment = from === 0 && to === text.length ? text : text.slice(from, to);
    let last = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(segment); m !== null && m[0] !== ''; m = pattern.exec(segment)) {
      if (m.index > last) piece(from + last, from + m.index);
      piece(from + m.index, from + m.index + m[0].length);
      last = m.index + m[0].length;
      pattern.lastIndex = last;
    }
    if (last < segment.length) piece(from + last, to);
  };
}

/**
 * Patterns applied one after another, each to the pieces the previous one left (Hugging Face's Sequence of
 * `Split` pre-tokenizers with `Isolated` behaviour: matches and the text between them both become pieces).
 */
export function chainedSplitter(patterns: readonly RegExp[]): PieceSplitter {
  const stages = patterns.map((pattern) => regexSplitter(pattern));
  const run = (stage: number, text: string, from: number, to: number, piece: (start: number, end: number) => void): void => {
    const split = stages[stage];
    if (!split) {
      piece(from, to);
      return;
    }
    split(text, from, to, (start, end) => run(stage + 1, text, start, end, piece));
  };
  return (text, from, to, piece) => run(0, text, from, to, piece);
}

const PIECE_CACHE_LIMIT = 50_000;

export class BytePairEncoder implements Tokenizer {
  readonly approximate = false;
  /** Where a special token may start (its first characters), and the lengths to try there, longest first. */
  private readonly specialStart: RegExp | null;
  private readonly specialLengths: number[];
  /** Ids of recent pieces (completions repeat words, keys and indentation). */
  private readonly cache = new Map<string, Array<[bytes: string, id: number]>>();

  constructor(
    readonly name: string,
    private readonly model: BpeModel,
    private readonly split: PieceSplitter,
    private readonly specials: ReadonlyMap<string, number>,
  ) {
    // A thousand reserved names in one alternation would be tried at every character: look up by length instead.
    const texts = [...specials.keys()].filter((s) => s !== '');
    const firsts = [...new Set(texts.map((s) => s[0] as string))];
    this.specialStart = texts.length ? new RegExp(`[${firsts.map(escapeRegExp).join('')}]`, 'g') : null;
    this.specialLengths = [...new Set(texts.map((s) => s.length))].sort((a, b) => b - a);
  }

  /** The ids of a text (for tests and the bench: no offsets kept). */
  encode(text: string): number[] {
    return this.tokenize(text).map((t) => t.id as number);
  }

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    const ordinary = (from: number, to: number): void => {
      if (to > from) this.split(text, from, to, (start, end) => this.pushPiece(text, start, end, tokens));
    };
    let last = 0;
    const start = this.specialStart;
    if (start) {
      start.lastIndex = 0;
      for (let m = start.exec(text); m !== null; m = start.exec(text)) {
        const found = this.specialAt(text, m.index);
        if (found === null) continue;
        ordinary(last, m.index);
        const end = m.index + found.length;
        tokens.push({
          index: tokens.length,
          text: found,
          charStart: m.index,
          charEnd: end,
          id: this.specials.get(found) as number,
          special: true,
          approximate: false,
        });
        last = end;
        start.lastIndex = end;
      }
    }
    ordinary(last, text.length);
    return tokens;
  }

  /** The longest special token at `at`, or null. */
  private specialAt(text: string, at: number): string | null {
    for (const length of this.specialLengths) {
      const candidate = text.slice(at, at + length);
      if (candidate.length === length && this.specials.has(candidate)) return candidate;
    }
    return null;
  }

  private pushPiece(text: string, start: number, end: number, tokens: Token[]): void {
    const piece = text.slice(start, end);
    const parts = this.encodePiece(piece);
    if (parts.length === 1) {
      const [, id] = parts[0] as [string, number];
      tokens.push({ index: tokens.length, text: piece, charStart: start, charEnd: end, id, special: false, approximate: false });
      return;
    }
    pushByteTokens(piece, start, parts, tokens);
  }

  private encodePiece(piece: string): Array<[string, number]> {
    const cached = this.cache.get(piece);
    if (cached) return cached;
    const bytes = Buffer.from(piece, 'utf8').toString('latin1');
    const out = this.merge(bytes);
    if (this.cache.size >= PIECE_CACHE_LIMIT) this.cache.clear();
    this.cache.set(piece, out);
    return out;
  }

  /** Merges a piece's bytes by rank until no adjacent pair merges (tiktoken's byte_pair_merge). */
  private merge(bytes: string): Array<[string, number]> {
    const model = this.model;
    if (model.wholePieceFirst) {
      const whole = model.idOf(bytes);
      if (whole !== undefined) return [[bytes, whole]];
    }
    const parts: string[] = Array.from({ length: bytes.length }, (_, i) => bytes[i] as string);
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < parts.length; i++) {
        const rank = model.mergeRank(parts[i] as string, parts[i + 1] as string);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) break;
      parts.splice(best, 2, (parts[best] as string) + (parts[best + 1] as string));
    }
    return parts.map((p) => {
      const id = model.idOf(p);
      if (id === undefined) throw new Error(`byte string ${byteEscapes(p)} is not in the vocabulary`);
      return [p, id];
    });
  }
}

/**
 * Appends the tokens of `segment` (at offset `start` of the completion) given each token's bytes, in order, whose
 * concatenation is the segment's UTF-8. A token's char range is rounded up to whole characters: a character split
 * over tokens belongs to the one it ends in, and every token that does not hold whole characters gets `bytes`.
 */
export function pushByteTokens(
  segment: string,
  start: number,
  parts: ReadonlyArray<readonly [bytes: string, id: number]>,
  tokens: Token[],
  special?: (id: number) => boolean,
): void {
  let byteAt = 0;
  let char = 0;
  let charBytes = 0;
  let tokenStartChar = 0;
  let tokenStartAligned = true;
  for (const [bytes, id] of parts) {
    byteAt += bytes.length;
    while (char < segment.length) {
      const width = utf8Width(segment, char);
      if (charBytes + width.bytes > byteAt) break;
      charBytes += width.bytes;
      char += width.units;
    }
    const aligned = charBytes === byteAt;
    const token: Token = {
      index: tokens.length,
      text: segment.slice(tokenStartChar, char),
      charStart: start + tokenStartChar,
      charEnd: start + char,
      id,
      special: special?.(id) ?? false,
      approximate: false,
    };
    if (!aligned || !tokenStartAligned) token.bytes = byteEscapes(bytes);
    tokens.push(token);
    tokenStartChar = char;
    tokenStartAligned = aligned;
  }
}

/** UTF-16 units and UTF-8 bytes of the character at `at` (a lone surrogate encodes as U+FFFD: 3 bytes). */
function utf8Width(s: string, at: number): { units: number; bytes: number } {
  const c = s.charCodeAt(at);
  if (c < 0x80) return { units: 1, bytes: 1 };
  if (c < 0x800) return { units: 1, bytes: 2 };
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(at + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return { units: 2, bytes: 4 };
  }
  return { units: 1, bytes: 3 };
}

/** `\xF0\x9F` for a byte string: how a token that is part of a character is shown. */
export function byteEscapes(bytes: string): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += `\\x${bytes.charCodeAt(i).toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
