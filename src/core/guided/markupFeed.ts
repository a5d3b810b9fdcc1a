/**
 * The what-if over the markup only. A structural tag whose top is `triggered_tags` lets free text through until one
 * of its triggers; after a tag it is back in that same free text, as at its start, when neither flag is set. Between
 * tags the matcher's state then depends only on the last few characters of free text (how much of a trigger or an
 * excluded string they begin), so a scan for the triggers and excluded strings stands in for a matcher step per
 * character: the matcher is fed only the window of free text before each trigger (as long as the longest pattern)
 * and each region from a trigger to its tag's end. Everything it is fed it is fed in order, in bulk (bulkFeed.ts),
 * so where it refuses, what it allows there and what it forces are those of feeding the whole text.
 *
 * Where that holds (the table, docs/guided-decoding.md "What the what-if feeds the matcher"):
 *
 * | top of the tag                                           | markup only | why                                              |
 * |----------------------------------------------------------|-------------|--------------------------------------------------|
 * | `triggered_tags`, neither flag (tool_choice `auto`)       | yes         | after a tag the grammar is where it started      |
 * | `triggered_tags` with `at_least_one`                      | no          | the first tag is owed: the state after it differs |
 * | `triggered_tags` with `stop_after_first`                  | no          | after the first tag no trigger opens another     |
 * | a tag's content holds `any_text`                          | no          | its end string may be its text: no proof it ended |
 * | `any_text` (no tools)                                     | yes         | free text throughout, scanned for the excludes   |
 * | `tags_with_separator` / a tag / a sequence (`required`, a named tool, a think block first: Harmony, `reasoning`) | no | no free text between tags to skip, or a prefix whose end the scan does not know |
 *
 * A tag is known to have ended where the text holds one of the top-level tags' end strings and the matcher may end
 * the output there (only the free text between tags can end the output). The free text after it is skipped only when
 * no pattern can have begun in the end string itself.
 *
 * Inside a tag, the bodies of its calls' JSON strings whose schema is a bare string are left out too: the opening and
 * the closing quote leave the matcher where the whole string does (stringBodySkips.ts has the proof and its limits).
 */
import type { StructuralTag, StructuralTagFormat } from '../formats/structuralTag/structuralTagFormat.ts';
import { walkFormats } from '../formats/structuralTag/structuralTagFormat.ts';
import { feedInBulk, hasLoneSurrogate, type FeedOutcome } from './bulkFeed.ts';
import type { ByteVocabulary } from './byteVocabulary.ts';
import { SPECIAL_SPLIT } from './completionPieces.ts';
import type { XgMatcher } from './xgrammarModule.ts';
import { bodySkips, skipPlan, type BodySkip, type SkipPlan } from './stringBodySkips.ts';

/**
 * Below this many characters the whole text is fed: one string to the matcher costs less than the scan's own set-up
 * (measured on the bench corpus's records, ~400 characters: 75 µs of CPU per record markup only, 57 whole).
 */
export const MARKUP_FEED_MIN_CHARS = 2048;

/** What the scan looks for in free text, for a tag the table says yes to. */
export interface MarkupPlan {
  /** Triggers and excluded strings: where the matcher has to see the text. */
  readonly patterns: readonly string[];
  /** The end strings of the top-level tags: where a tag may have ended. */
  readonly ends: readonly string[];
  /** The longest pattern's length. */
  readonly longest: number;
  /**
   * Any of the patterns, longest first (so a match is the longest pattern at its place): one pass over the free text
   * finds the next of them, where an `indexOf` per pattern read the text once for each.
   */
  readonly anyPattern: RegExp;
  /** Whether a UTF-16 unit is an ASCII character that no pattern holds. */
  reset(unit: number): boolean;
  /** The calls' tags, read for the string bodies that may be left out (stringBodySkips.ts); null: none are. */
  readonly bodies: SkipPlan | null;
}

const plans = new WeakMap<StructuralTag, MarkupPlan | null>();

function holdsAnyText(format: StructuralTagFormat): boolean {
  for (const f of walkFormats(format)) if (f.type === 'any_text') return true;
  return false;
}

/** The table above: a plan when the markup-only feed gives what the whole-text feed gives, else null. */
export function markupPlan(tag: StructuralTag): MarkupPlan | null {
  if (plans.has(tag)) return plans.get(tag) ?? null;
  const plan = planOf(tag);
  plans.set(tag, plan);
  return plan;
}

function planOf(tag: StructuralTag): MarkupPlan | null {
  const top = tag.format;
  let patterns: string[];
  let ends: string[] = [];
  if (top.type === 'any_text') {
    patterns = [...(top.excludes ?? [])];
  } else if (top.type === 'triggered_tags') {
    if (top.at_least_one || top.stop_after_first) return null;
    if (top.triggers.length === 0 || top.triggers.some((t) => t.length === 0)) return null;
    if (top.tags.some((t) => holdsAnyText(t.content))) return null;
    patterns = [...top.triggers, ...(top.excludes ?? [])];
    ends = top.tags.flatMap((t) => (Array.isArray(t.end) ? t.end : [t.end]));
    if (ends.length === 0 || ends.some((e) => e.length === 0)) return null;
  } else {
    return null;
  }
  if (patterns.some((p) => p.length === 0)) return null;
  const held = new Set<number>();
  for (const p of patterns) for (let i = 0; i < p.length; i++) held.add(p.charCodeAt(i));
  const byLength = [...new Set(patterns)].sort((a, b) => b.length - a.length);
  return {
    patterns,
    ends,
    longest: Math.max(0, ...patterns.map((p) => p.length)),
    anyPattern: byLength.length ? new RegExp(byLength.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g') : /(?!)/g,
    reset: (unit) => unit < 0x80 && !held.has(unit),
    bodies: skipPlan(tag),
  };
}

const SPECIALS = new RegExp(SPECIAL_SPLIT.source, 'g');

/** The special tokens' strings in text[from, to), as the bulk feed cuts them (leftmost, longest string first). */
function specialSpans(text: string, from: number, to: number): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  const re = SPECIALS;
  re.lastIndex = 0;
  const slice = text.slice(from, to);
  for (let m = re.exec(slice); m; m = re.exec(slice)) {
    starts.push(from + m.index);
    ends.push(from + m.index + m[0].length);
  }
  return { starts, ends };
}

/**
 * Feeds text[from, to) to a matcher fresh at the top of the tag, skipping free text where the plan allows; the
 * outcome (and the matcher's state where it stopped) are those of `feedInBulk` over the whole range.
 */
export async function feedMarkupOnly(
  matcher: XgMatcher,
  vocabulary: ByteVocabulary,
  excludes: ReadonlySet<string>,
  plan: MarkupPlan,
  text: string,
  from: number,
  to: number,
): Promise<FeedOutcome> {
  // Such text is fed piece by piece, and how it is cut changes the bytes xgrammar sees (bulkFeed.ts): all of it, then.
  if (hasLoneSurrogate(text, from, to)) return feedInBulk(matcher, vocabulary, excludes, text, from, to);
  const spans = specialSpans(text, from, to);
  /** The start of the first special token's string that ends after `offset`, if any (binary search). */
  const spanStartAfter = (offset: number): number | undefined => {
    let lo = 0;
    let hi = spans.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((spans.ends[mid] as number) <= offset) lo = mid + 1;
      else hi = mid;
    }
    return spans.starts[lo];
  };
  /** The start of the special token's string that holds `offset` inside it, else `offset`. */
  const outOfSpan = (offset: number): number => {
    const start = spanStartAfter(offset);
    return start !== undefined && start < offset ? start : offset;
  };
  /** The first place at or after `scan` where a whole pattern starts that ends after `after`, inside the range, or `to`. */
  const nextPattern = (scan: number, after: number): number => {
    const re = plan.anyPattern;
    re.lastIndex = scan;
    for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
      const i = m.index;
      // The longest pattern here; a shorter one at the same place may still end inside the range.
      for (const p of plan.patterns) if (i + p.length > after && i + p.length <= to && text.startsWith(p, i)) return i;
      re.lastIndex = i + 1;
    }
    return to;
  };
  /** The end of the first end string that starts at or after `at` and ends on a cut inside the range, or -1. */
  const nextEnd = (at: number): number => {
    let first = -1;
    for (const e of plan.ends) {
      for (let i = text.indexOf(e, at); i >= 0 && (first < 0 || i + e.length < first); i = text.indexOf(e, i + 1)) {
        const end = i + e.length;
        if (end > to) break;
        if (outOfSpan(end) === end) {
          first = end;
          break;
        }
      }
    }
    return first;
  };
  /**
   * Where the free text in [at, before) may be skipped to: the last character there that no pattern holds (an ASCII
   * one: its byte is in no pattern's UTF-8), outside a special token's string; `at` when there is none. Reading such a
   * character leaves nothing of a pattern begun, whatever the free text before it, so the matcher reads it (and what
   * follows) in the state the whole-text feed reads it in.
   */
  const lastReset = (at: number, before: number): number => {
    for (let i = before - 1; i > at; i--) {
      if (plan.reset(text.charCodeAt(i)) && outOfSpan(i) === i) return i;
    }
    return at;
  };
  const stop = vocabulary.stopIds[0] as number;
  /** The output may end here: the matcher is in the free text between tags (tried with a stop token, then undone). */
  const mayEnd = (): boolean => {
    if (!matcher.acceptToken(stop)) return false;
    matcher.rollBack(1);
    return true;
  };

  /** Whether the character at `i` is plain text, in no special token's string. */
  const plainAt = (i: number): boolean => {
    const start = spanStartAfter(i);
    return start === undefined || start > i;
  };
  /**
   * Feeds text[from, to) leaving out the string bodies in `skips` (stringBodySkips.ts) where the matcher shows it is
   * inside the tag (the output may not end after the opening quote: no reading of the text is in free text) and both
   * quotes are plain text. Returns where the matcher now is: `to`, or past it when a body left out runs on beyond it.
   */
  const feedSkipping = async (from: number, to: number, skips: readonly BodySkip[]): Promise<{ outcome: FeedOutcome; at: number }> => {
    let cursor = from;
    for (const skip of skips) {
      if (skip.start < cursor) continue;
      if (skip.start >= to) break;
      if (skip.start > cursor) {
        const outcome = await feedInBulk(matcher, vocabulary, excludes, text, cursor, skip.start);
        if (!outcome.ok) return { outcome, at: cursor };
        cursor = skip.start;
      }
      if (!plainAt(skip.start - 1) || !plainAt(skip.end) || mayEnd()) continue;
      cursor = skip.end;
    }
    if (cursor >= to) return { outcome: { ok: true }, at: cursor };
    return { outcome: await feedInBulk(matcher, vocabulary, excludes, text, cursor, to), at: to };
  };

  let at = from;
  for (;;) {
    // The matcher is in the free text at `at` (at the top of the tag, or where the output may end after a tag).
    const pattern = nextPattern(Math.max(from, at - plan.longest + 1), at);
    const skipTo = lastReset(at, pattern);
    if (skipTo > at) at = skipTo;
    if (pattern >= to || plan.ends.length === 0) return feedInBulk(matcher, vocabulary, excludes, text, at, to);
    // The string bodies of the calls in the tag this trigger opens that need not be fed.
    const skips = plan.bodies ? bodySkips(plan.bodies, text, pattern, to) : [];
    // From the pattern on, in order, up to each end string in turn until the output may end there.
    let search = pattern;
    for (;;) {
      const end = nextEnd(search);
      if (end < 0) return (await feedSkipping(at, to, skips)).outcome;
      const fed = await feedSkipping(at, end, skips);
      if (!fed.outcome.ok) return fed.outcome;
      at = fed.at;
      // Past `end`: inside a string body left out, where the output cannot end.
      if (at === end && mayEnd()) break;
      search = at;
    }
    if (at >= to) return { ok: true };
  }
}
