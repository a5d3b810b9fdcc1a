/**
 * Anchors a completion's recorded tokens to its text. Recorded tokens are ground truth where they agree with
 * the text. Where the engine gave ids without text (vLLM `token_id:N`) or text that does not match (byte
 * fragments), the text between the nearest exact anchors is shared out over the run and marked approximate.
 * Where the engine decoded with skip_special_tokens, the special strings are put back and the text rebuilt.
 * Tokens that cannot be reconciled with the text fall back to the splitter when they carry no ids.
 */
import type { Completion, RecordedToken } from '../trace/record.ts';
import { pretokenize } from './approximatePretokenizer.ts';
import type { SpecialTokens } from './specialTokens.ts';
import type { Token, TokenizedCompletion, Tokenizer } from './token.ts';

/** Shares `segment` over `count` tokens: pre-tokenizer pieces when there are enough, else code points. */
export function distribute(segment: string, count: number): string[] {
  if (count <= 0) return [];
  let units = pretokenize(segment);
  if (units.length < count) units = Array.from(segment);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * units.length) / count);
    const to = Math.floor(((i + 1) * units.length) / count);
    out.push(units.slice(from, to).join(''));
  }
  return out;
}

/**
 * `fallback` splits the text when there are no usable recorded tokens; a function is called only then (a model's
 * real tokenizer may have to be read from disk first). `specials`: the special tokens recorded ids and texts are
 * recognised by.
 */
export function tokenizeCompletion(
  completion: Completion,
  fallback: Tokenizer | (() => Tokenizer),
  specials: SpecialTokens,
): TokenizedCompletion {
  const text = completion.text;
  const recorded = completion.tokens;
  if (recorded === undefined) return splitterResult(text, fallback);
  if (recorded.length === 0) {
    if (text === '') return { text, tokens: [], origin: 'recorded', source: 'recorded', tokenizer: 'recorded' };
    return splitterResult(text, fallback, 'the record has an empty token list for a non-empty completion');
  }
  const direct = directTiling(text, recorded, specials);
  if (direct !== null) return direct;
  const entries = recorded.map((t) => classify(t, specials));
  const aligned = new Aligner(text, entries).run();
  const hasIds = recorded.some((t) => t.id !== undefined);
  if (aligned.unplaceable !== null) return splitterResult(text, fallback, `${aligned.unplaceable}; ${APPROX}`);
  if (aligned.problem !== null && !hasIds) {
    return splitterResult(text, fallback, `${aligned.problem}, and the tokens carry no ids; ${APPROX}`);
  }
  const result: TokenizedCompletion = {
    text: aligned.texts.join(''),
    tokens: buildTokens(entries, aligned.texts, aligned.approximate, specials),
    origin: 'recorded',
    source: 'recorded',
    tokenizer: 'recorded',
  };
  if (aligned.rebuilt) result.rebuilt = true;
  if (aligned.problem !== null)
    result.warning = `${aligned.problem}; the tokens keep their ids, their text is approximate where they disagree`;
  return result;
}

const APPROX = 'showing an approximate split instead';

function splitterResult(text: string, fallback: Tokenizer | (() => Tokenizer), warning?: string): TokenizedCompletion {
  const tokenizer = typeof fallback === 'function' ? fallback() : fallback;
  const tokens = tokenizer.tokenize(text);
  const result: TokenizedCompletion = {
    text,
    tokens,
    origin: 'splitter',
    source: tokenizer.approximate ? 'approximate' : 're-encoded',
    tokenizer: tokenizer.name,
  };
  if (warning !== undefined) result.warning = warning;
  return result;
}

interface Entry {
  recorded: RecordedToken;
  /** known: has its own text; unknown: no text (ids only); special: a special token (text from the table if none). */
  kind: 'known' | 'unknown' | 'special';
  /** The text this token should have in the completion ('' when unknown). */
  expect: string;
}

function classify(t: RecordedToken, specials: SpecialTokens): Entry {
  const idText = t.id !== undefined ? specials.textOf(t.id) : undefined;
  if (idText !== undefined) {
    // The id is ground truth: its recorded text counts only when it is a spelling of a special token.
    return { recorded: t, kind: 'special', expect: specials.idOf(t.text) !== undefined ? t.text : idText };
  }
  if (t.text === '') return { recorded: t, kind: 'unknown', expect: '' };
  if (specials.idOf(t.text) !== undefined) return { recorded: t, kind: 'special', expect: t.text };
  return { recorded: t, kind: 'known', expect: t.text };
}

/**
 * Case (a): the recorded texts tile the completion text, no special token is missing, no code point is cut. The
 * tokens are those `buildTokens` makes of the classified entries, built in the same pass (a long completion's
 * tokens are most of its analysis's allocations); null at the first token that does not tile.
 */
function directTiling(text: string, recorded: readonly RecordedToken[], specials: SpecialTokens): TokenizedCompletion | null {
  const tokens: Token[] = [];
  let at = 0;
  for (let i = 0; i < recorded.length; i++) {
    const r = recorded[i] as RecordedToken;
    const t = r.text;
    // classify(): special by id, else (with text) by spelling.
    const special = r.id !== undefined && specials.textOf(r.id) !== undefined ? true : t !== '' && specials.idOf(t) !== undefined;
    if (special && t === '') return null;
    if (!text.startsWith(t, at)) return null;
    const end = at + t.length;
    if (cutsCodePoint(text, end)) return null;
    tokens.push(newToken(i, t, at, special, false, r, specials));
    at = end;
  }
  if (at !== text.length) return null;
  return { text, tokens, origin: 'recorded', source: 'recorded', tokenizer: 'recorded' };
}

function buildTokens(entries: Entry[], texts: string[], approximate: boolean[], specials: SpecialTokens): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as Entry;
    const t = texts[i] ?? '';
    tokens.push(newToken(i, t, at, e.kind === 'special', approximate[i] ?? true, e.recorded, specials));
    at += t.length;
  }
  return tokens;
}

function newToken(
  index: number,
  text: string,
  at: number,
  special: boolean,
  approximate: boolean,
  recorded: RecordedToken,
  specials: SpecialTokens,
): Token {
  const token: Token = { index, text, charStart: at, charEnd: at + text.length, special, approximate };
  const id = recorded.id ?? (special ? specials.idOf(text) : undefined);
  if (id !== undefined) token.id = id;
  if (recorded.logprob !== undefined) token.logprob = recorded.logprob;
  if (recorded.top !== undefined) token.top = recorded.top;
  return token;
}

/** True when offset `at` falls between the two halves of a surrogate pair. */
function cutsCodePoint(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

// How far ahead (in characters) a run of tokens without matching text is assumed to reach, per token: bounds the
// search for the next anchor so a text full of mismatches stays linear.
const REACH_UNKNOWN = 256;
const REACH_MAX = 4096;
// Enough following text to tell a short token's real place from an accidental earlier occurrence.
const NEEDLE_MIN = 16;

// How engines show a token that ends inside a character: U+FFFD, a lone surrogate, `\xNN` escapes (OpenAI).
// Only consulted for a text that already failed to match.
const FRAGMENT = /\uFFFD|\p{Cs}|\\x[0-9a-fA-F]{2}/u;

interface Alignment {
  texts: string[];
  approximate: boolean[];
  rebuilt: boolean;
  /** Recorded texts that did not match, or text no token covers (recoverable when tokens carry ids). */
  problem: string | null;
  /** Text no token can take without reordering the output: the recorded tokens cannot be used. */
  unplaceable: string | null;
}

/**
 * One left-to-right pass. Tokens whose text matches at the cursor are placed exactly; the others (no text,
 * mismatched text, special tokens the decoder skipped) wait in `pending` until the next exact anchor, and the
 * text up to it is shared among them. Special strings not in the text are inserted (the text is rebuilt).
 */
class Aligner {
  private readonly texts: string[] = [];
  private readonly approximate: boolean[] = [];
  private cursor = 0;
  private pending: number[] = [];
  /** Unknown (text-less) tokens in `pending`, and how far the run plausibly reaches. */
  private pendingUnknown = 0;
  private pendingReach = 0;
  /** A token of the pending run was already counted as a mismatch. */
  private pendingCounted = false;
  private rebuilt = false;
  private mismatches = 0;
  private firstMismatch: { index: number; at: number } | null = null;
  private orphans = 0;
  private unplaceable: string | null = null;
  /** Next occurrence of each special string at or after `from` (-1: none), so repeated searches stay linear. */
  private readonly nextSeen = new Map<string, { from: number; at: number }>();

  constructor(
    private readonly text: string,
    private readonly entries: Entry[],
  ) {}

  run(): Alignment {
    for (let i = 0; i < this.entries.length && this.unplaceable === null; i++) {
      const e = this.entries[i] as Entry;
      if (e.kind === 'unknown') this.enqueue(i);
      else if (e.kind === 'known') this.known(i, e.expect);
      else this.special(i, e.expect);
    }
    if (this.unplaceable === null) {
      if (this.pending.length > 0) this.flush(this.text.length);
      else if (this.cursor < this.text.length) this.orphan(this.entries.length - 1, this.text.length);
    }
    return {
      texts: this.texts,
      approximate: this.approximate,
      rebuilt: this.rebuilt,
      problem: this.problem(),
      unplaceable: this.unplaceable,
    };
  }

  private problem(): string | null {
    const parts: string[] = [];
    if (this.mismatches > 0 && this.firstMismatch !== null) {
      const { index, at } = this.firstMismatch;
      const own = (this.entries[index] as Entry).expect;
      parts.push(
        `${this.mismatches} recorded token text${this.mismatches === 1 ? ' does' : 's do'} not match the completion text ` +
          `(first: completion.tokens[${index}] ${JSON.stringify(clip(own))} at character ${at}, where the text has ${JSON.stringify(clip(this.text.slice(at, at + own.length)))})`,
      );
    }
    if (this.orphans > 0)
      parts.push(`${this.orphans} stretch${this.orphans === 1 ? ' of text is' : 'es of text are'} covered by no recorded token`);
    return parts.length > 0 ? parts.join('; ') : null;
  }

  private place(i: number, text: string, approximate: boolean): void {
    this.texts[i] = text;
    this.approximate[i] = approximate;
  }

  /** `s` occurs at `at` in the text without cutting a code point at either end. */
  private matchesAt(s: string, at: number): boolean {
    return this.text.startsWith(s, at) && !cutsCodePoint(this.text, at) && !cutsCodePoint(this.text, at + s.length);
  }

  private known(i: number, own: string): void {
    if (this.pending.length === 0) {
      if (this.matchesAt(own, this.cursor)) {
        this.place(i, own, false);
        this.cursor += own.length;
      } else {
        this.mismatch(i);
      }
      return;
    }
    // Re-anchor: find this token, and what follows it, within the reach of the pending run.
    let needle = own;
    for (let j = i + 1; j < this.entries.length && needle.length < NEEDLE_MIN; j++) {
      const next = this.entries[j] as Entry;
      if (next.kind !== 'known' || FRAGMENT.test(next.expect)) break;
      needle += next.expect;
    }
    // Tokens with (mismatched) text cover at least something: look past the cursor first.
    const first = this.pendingUnknown < this.pending.length ? 1 : 0;
    let p = this.findWithin(needle, first, this.reach());
    // What follows may itself not match: then the token alone; and, last, the place right at the cursor.
    if (p < 0 && needle !== own) p = this.findWithin(own, first, this.reach());
    if (p < 0 && first > 0) p = this.findWithin(own, 0, 0);
    if (p >= 0 && this.matchesAt(own, p)) {
      this.flush(p);
      this.place(i, own, false);
      this.cursor += own.length;
    } else {
      this.mismatch(i);
    }
  }

  private mismatch(i: number): void {
    const own = (this.entries[i] as Entry).expect;
    // Byte fragments are how engines show part of a character: expected, not a sign of a wrong record.
    if (!FRAGMENT.test(own)) this.noteMismatch(i);
    this.enqueue(i);
  }

  private noteMismatch(i: number): void {
    this.pendingCounted = true;
    this.mismatches++;
    this.firstMismatch ??= { index: i, at: this.cursor };
  }

  private enqueue(i: number): void {
    const e = this.entries[i] as Entry;
    this.pending.push(i);
    if (e.kind === 'unknown') this.pendingUnknown++;
    this.pendingReach += e.kind === 'unknown' ? REACH_UNKNOWN : Math.max(2 * e.expect.length, NEEDLE_MIN);
  }

  private special(i: number, s: string): void {
    if (this.pending.length > 0) {
      // The run ends where this string next occurs (searched without bound, memoised so still linear). Only a
      // string that does not occur again was skipped: taking a later occurrence for skipped would duplicate it.
      const p = this.nextOccurrence(s);
      if (p >= 0) {
        this.flush(p);
        this.place(i, s, false);
        this.cursor += s.length;
      } else {
        // Skipped by the decoder: inserted among the pending run when it is shared out.
        this.enqueue(i);
      }
      return;
    }
    if (this.matchesAt(s, this.cursor)) {
      this.place(i, s, false);
      this.cursor += s.length;
    } else if (this.skippedHere(i, s)) {
      this.place(i, s, false);
      this.rebuilt = true;
    } else {
      // The string comes later: the text before it belongs to no token.
      const p = this.nextOccurrence(s);
      this.orphan(i - 1, p);
      if (this.unplaceable !== null) return;
      this.place(i, s, false);
      this.cursor += s.length;
    }
  }

  /** Special string `s` is not at the cursor: was it skipped here, rather than preceded by uncovered text? */
  private skippedHere(i: number, s: string): boolean {
    if (this.nextOccurrence(s) < 0) return true;
    const next = this.entries[i + 1];
    if (next === undefined) return this.cursor === this.text.length;
    if (next.kind === 'unknown') return true;
    return this.matchesAt(next.expect, this.cursor);
  }

  /** Text [cursor, end) that no token covers: the previous token takes it, if that keeps the order. */
  private orphan(previous: number, end: number): void {
    const e = this.entries[previous];
    const uncovered = JSON.stringify(clip(this.text.slice(this.cursor, end)));
    if (e === undefined || e.kind === 'special') {
      this.unplaceable = `the completion text ${uncovered} at offset ${this.cursor} is covered by no recorded token`;
      return;
    }
    this.orphans++;
    this.place(previous, (this.texts[previous] ?? '') + this.text.slice(this.cursor, end), true);
    this.cursor = end;
  }

  /** Shares text [cursor, end) among the pending run; skipped special tokens keep their string between. */
  private flush(end: number): void {
    // Mismatched texts that end up covering far more text than their own length are not byte fragments.
    if (this.pendingUnknown === 0 && !this.pendingCounted && end - this.cursor > this.reach()) this.noteMismatch(this.pending[0] as number);
    const receivers = this.pending.filter((j) => (this.entries[j] as Entry).kind !== 'special');
    const shares = distribute(this.text.slice(this.cursor, end), receivers.length);
    let k = 0;
    for (const j of this.pending) {
      const e = this.entries[j] as Entry;
      if (e.kind === 'special') {
        // Its string is exact; where it sat among the run is inferred.
        this.place(j, e.expect, true);
        this.rebuilt = true;
      } else {
        this.place(j, shares[k++] ?? '', true);
      }
    }
    this.pending = [];
    this.pendingUnknown = 0;
    this.pendingReach = 0;
    this.pendingCounted = false;
    this.cursor = end;
  }

  /** How much text the pending run plausibly covers. */
  private reach(): number {
    return Math.min(this.pendingReach, REACH_MAX);
  }

  /** First place of `needle` from `first` to `limit` characters after the cursor that cuts no code point. */
  private findWithin(needle: string, first: number, limit: number): number {
    const window = this.text.slice(this.cursor, this.cursor + limit + needle.length);
    for (let p = window.indexOf(needle, first); p >= 0 && p <= limit; p = window.indexOf(needle, p + 1)) {
      const at = this.cursor + p;
      if (!cutsCodePoint(this.text, at) && !cutsCodePoint(this.text, at + needle.length)) return at;
    }
    return -1;
  }

  private nextOccurrence(s: string): number {
    const seen = this.nextSeen.get(s);
    if (seen !== undefined && seen.from <= this.cursor && (seen.at < 0 || seen.at >= this.cursor)) return seen.at;
    const at = this.text.indexOf(s, this.cursor);
    this.nextSeen.set(s, { from: this.cursor, at });
    return at;
  }
}

function clip(s: string): string {
  return s.length > 24 ? `${s.slice(0, 24)}…` : s;
}
