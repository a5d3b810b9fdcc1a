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
 * `Split` pre-tokenizers with `Isolated` behaviour: matches and the text between them both become pieces). Patterns
 * given as source text are compiled on first use (`gu`), as regexSplitter's.
 */
export function chainedSplitter(patterns: readonly (RegExp | string)[]): PieceSplitter {
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
    const parts = bytes.length <= SHORT_PIECE ? mergeByScan(model, bytes) : mergeByHeap(model, bytes);
    return parts.map((p) => {
      const id = model.idOf(p);
      if (id === undefined) throw new Error(`byte string ${byteEscapes(p)} is not in the vocabulary`);
      return [p, id];
    });
  }
}

/**
 * Up to this many bytes a piece is merged by scanning its pairs after every merge (quadratic, and quickest for the
 * words most pieces are); a longer one through a heap of its pairs (n log n): a 50 kB run of letters took 37 s.
 */
const SHORT_PIECE = 64;

/** tiktoken's byte_pair_merge as it is written: the lowest-ranked adjacent pair (the leftmost of equals) merges next. */
export function mergeByScan(model: BpeModel, bytes: string): string[] {
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
    if (best < 0) return parts;
    parts.splice(best, 2, (parts[best] as string) + (parts[best + 1] as string));
  }
}

/**
 * The same merges in the same order, the pairs kept in a heap ordered by rank and then by position (the leftmost of
 * equals first, as the scan takes it). Parts are a linked list of byte ranges named by where they start; a pair in
 * the heap is stale once either of its parts has changed since (their versions say so).
 */
export function mergeByHeap(model: BpeModel, bytes: string): string[] {
  const n = bytes.length;
  const end = new Int32Array(n);
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const version = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    end[i] = i + 1;
    next[i] = i + 1 < n ? i + 1 : -1;
    prev[i] = i - 1;
  }
  const heap = new PairHeap();
  const offer = (left: number): void => {
    const right = left < 0 ? -1 : (next[left] as number);
    if (left < 0 || right < 0) return;
    const rank = model.mergeRank(bytes.slice(left, end[left]), bytes.slice(right, end[right]));
    if (rank !== undefined) heap.push(rank, left, version[left] as number, right, version[right] as number);
  };
  for (let i = 0; i + 1 < n; i++) offer(i);
  for (let pair = heap.pop(); pair !== null; pair = heap.pop()) {
    const [left, leftVersion, right, rightVersion] = pair;
    if (version[left] !== leftVersion || version[right] !== rightVersion || next[left] !== right) continue;
    end[left] = end[right] as number;
    const after = next[right] as number;
    next[left] = after;
    if (after >= 0) prev[after] = left;
    version[left]++;
    version[right]++;
    offer(prev[left] as number);
    offer(left);
  }
  const parts: string[] = [];
  for (let i = 0; i >= 0; i = next[i] as number) parts.push(bytes.slice(i, end[i]));
  return parts;
}

/** A binary min-heap of pairs by (rank, left position). */
class PairHeap {
  private readonly items: Array<[rank: number, left: number, leftVersion: number, right: number, rightVersion: number]> = [];

  push(rank: number, left: number, leftVersion: number, right: number, rightVersion: number): void {
    const items = this.items;
    items.push([rank, left, leftVersion, right, rightVersion]);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The lowest pair's [left, leftVersion, right, rightVersion], or null when none is left. */
  pop(): [number, number, number, number] | null {
    const items = this.items;
    const top = items[0];
    if (top === undefined) return null;
    const last = items.pop() as (typeof items)[number];
    if (items.length > 0) {
      items[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(l, m)) m = l;
        if (r < items.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return [top[1], top[2], top[3], top[4]];
  }

  private less(a: number, b: number): boolean {
    const x = this.items[a] as [number, number, number, number, number];
    const y = this.items[b] as [number, number, number, number, number];
    return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    [items[a], items[b]] = [items[b] as (typeof items)[number], items[a] as (typeof items)[number]];
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
