/**
 * The one rule for tool-call markup leaked into a client's content (docs/diagnostics.md, "Which format a leak is"):
 *
 * 1. The content's markup is found: each registered format's whole markers (its `leakSignature` openers and
 *    closers, the markers among its `leakFragments`, and other spellings of them), the pieces a split marker leaves
 *    (the rest of its `leakFragments`, unless they lie inside a whole marker or a special-token shape), the
 *    special-token shapes of no registered format, and the named calls each format's parser reads there.
 * 2. Markup that overlaps, or is apart only by text without a blank line, is one span.
 * 3. A span is the format's whose parser reads the most named calls in it — calls naming one of the request's tools
 *    first, then calls with a name a tool could have — (then: more of its own markers there, the record's format,
 *    registration order). A span no parser reads a call from, and that opens with a special-token
 *    shape of no registered format, is unknown markup. Otherwise it is the format's that owns every marker in it and whose declared body (`leakSignature.body`) matches the text after its opener — ties to the
 *    record's format; markers alone (an opener or a closer with nothing else) are a fragment of that format that
 *    claims no call. A span holding a special-token shape of no registered format, or markers no single format owns,
 *    or a body no owner writes, is unknown markup (`unknown-markup-in-content`), never another format's leak.
 *
 * Nothing here names a format: each one's declarations are read through the registry, so a new format joins the
 * rule by declaring its `leakSignature`, `leakFragments` and parser.
 */
import { registeredFormats } from '../formats/registry.ts';
import type { ToolCallFormat } from '../formats/toolCallFormat.ts';
import { findUnknownMarkup, parseMarkupCalls, type MarkupCall, type UnknownMarkup } from './toolMarkupScan.ts';

type Tools = ReadonlyArray<{ function: { name: string; parameters?: unknown } }>;

/** What a marker does in a format: opens or closes a call (or section), sits inside one, or is a piece of one. */
export type MarkerRole = 'opener' | 'closer' | 'inner' | 'piece';

/** One occurrence of registered markup in the content, with the formats it belongs to and its role in each. */
export interface MarkupToken {
  start: number;
  end: number;
  text: string;
  /** Format name → role. A marker two formats share (`<tool_call>`) has two owners. */
  owners: Map<string, MarkerRole>;
  /** The marker this text stands for, when it is another spelling of one (`<|reserved_token_163595|>`). */
  marker?: string;
}

/** A span that only opens, only closes, or is markers with nothing between them; `piece`: a split marker's remains. */
export type LeakFragment = 'opener-only' | 'closer-only' | 'markers-only' | 'piece';

export interface LeakSpan {
  start: number;
  end: number;
  /** The format the span is attributed to, or null: unknown markup (reported as unknown-markup-in-content). */
  format: ToolCallFormat | null;
  /** Set when the span is markers alone (or pieces of one): it claims no call. */
  fragment: LeakFragment | null;
  /** The calls the attributed format's parser reads in the span, named ones only. */
  calls: MarkupCall[];
  /** The registered markup in the span, in order. */
  tokens: MarkupToken[];
  /** Special-token shapes of no registered format in the span (beside an attributed leak, or the unknown markup itself). */
  unknown: UnknownMarkup[];
  /**
   * Why a span is unknown markup: it holds a special-token shape of no registered format (`shape`), markers no
   * single format owns all of (`mixed`), or a body none of its markers' formats writes (`body`); null when attributed.
   */
  unknownWhy: 'shape' | 'mixed' | 'body' | null;
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/** The markup of a format that `findTokens` looks for, derived once per format (formats do not change). */
interface FormatMarkup {
  /** Its whole markers with their roles (other spellings under the marker they stand for). */
  whole: Array<{ text: string; role: MarkerRole; marker?: string }>;
  /** Its leak fragments that are no whole marker: pieces a split marker leaves. */
  pieces: string[];
}

const markupOf = new WeakMap<ToolCallFormat, FormatMarkup>();

function formatMarkup(format: ToolCallFormat): FormatMarkup {
  let m = markupOf.get(format);
  if (!m) {
    const { openers, closers } = format.leakSignature;
    const role = (t: string): MarkerRole => (openers.includes(t) ? 'opener' : closers.includes(t) ? 'closer' : 'inner');
    const texts = new Set([...openers, ...closers, ...format.leakFragments.filter((f) => format.markers.includes(f))]);
    const whole = [
      ...[...texts].map((text) => ({ text, role: role(text) })),
      ...(format.markerSpellings ?? []).map((s) => ({ text: s.spelling, role: role(s.marker), marker: s.marker })),
    ];
    const wholeTexts = new Set(whole.map((w) => w.text));
    m = { whole, pieces: format.leakFragments.filter((piece) => !wholeTexts.has(piece)) };
    markupOf.set(format, m);
  }
  return m;
}

/** The registered markup in `text`: whole markers first, then pieces that lie in no whole marker and no unknown shape. */
function findTokens(text: string, formats: readonly ToolCallFormat[], unknown: readonly UnknownMarkup[]): MarkupToken[] {
  const byRange = new Map<string, MarkupToken>();
  const add = (start: number, t: string, format: ToolCallFormat, role: MarkerRole, marker?: string): void => {
    const key = `${start}:${t.length}`;
    let token = byRange.get(key);
    if (!token) {
      token = { start, end: start + t.length, text: t, owners: new Map(), ...(marker ? { marker } : {}) };
      byRange.set(key, token);
    }
    if (!token.owners.has(format.name)) token.owners.set(format.name, role);
  };
  for (const format of formats)
    for (const m of formatMarkup(format).whole) for (const at of occurrences(text, m.text)) add(at, m.text, format, m.role, m.marker);
  const whole = [...byRange.values()];
  const inside = (start: number, end: number): boolean =>
    whole.some((w) => w.start < end && start < w.end) || unknown.some((u) => u.start < end && start < u.end);
  for (const format of formats)
    for (const piece of formatMarkup(format).pieces)
      for (const at of occurrences(text, piece)) if (!inside(at, at + piece.length)) add(at, piece, format, 'piece');
  if (byRange.size === 0) return [];
  // A longer token wins over a shorter one it holds (pieces of two formats at one place: `<tool_call` in `<tool_call>`).
  const all = [...byRange.values()].sort((a, b) => a.start - b.start || b.end - a.end);
  return all.filter((t) => !all.some((o) => o !== t && o.start <= t.start && t.end <= o.end && o.end - o.start > t.end - t.start));
}

const BLANK_LINE = /\n[ \t]*\n/u;

/** A name a tool could have: letters, digits and `_.:-`, no blanks, quotes or brackets. */
const TOOL_NAME = /^[\p{L}\p{N}_.:-]+$/u;

interface Item {
  start: number;
  end: number;
}

/** Groups items into spans: overlapping, or apart only by text without a blank line. */
function groupSpans<T extends Item>(text: string, items: readonly T[]): T[][] {
  const sorted = [...items].sort((a, b) => a.start - b.start || a.end - b.end);
  const groups: T[][] = [];
  let end = -1;
  for (const item of sorted) {
    const last = groups[groups.length - 1];
    if (last && (item.start <= end || !BLANK_LINE.test(text.slice(end, item.start)))) {
      last.push(item);
      end = Math.max(end, item.end);
    } else {
      groups.push([item]);
      end = item.end;
    }
  }
  return groups;
}

type SpanItem =
  | (Item & { kind: 'token'; token: MarkupToken })
  | (Item & { kind: 'unknown'; shape: UnknownMarkup })
  | (Item & { kind: 'call'; format: ToolCallFormat; call: MarkupCall });

function fragmentOf(tokens: readonly MarkupToken[], format: ToolCallFormat): LeakFragment {
  const roles = new Set(tokens.map((t) => t.owners.get(format.name)));
  if (roles.has('piece')) return 'piece';
  if (roles.size === 1 && roles.has('opener')) return 'opener-only';
  if (roles.size === 1 && roles.has('closer')) return 'closer-only';
  return 'markers-only';
}

/** The text of the span that is not markup, after its first opener (or from its start). */
function bodyOf(text: string, span: Item, tokens: readonly MarkupToken[], format: ToolCallFormat | null): string {
  const opener = format ? tokens.find((t) => t.owners.get(format.name) === 'opener') : undefined;
  let out = '';
  let at = opener ? opener.end : span.start;
  for (const t of tokens) {
    if (t.end <= at) continue;
    out += text.slice(at, Math.max(at, t.start));
    at = Math.max(at, t.end);
  }
  return out + text.slice(at, span.end);
}

function attributeSpan(
  text: string,
  items: readonly SpanItem[],
  formats: readonly ToolCallFormat[],
  context: ToolCallFormat | null,
  tools: Tools | undefined,
): LeakSpan {
  const start = Math.min(...items.map((i) => i.start));
  const end = Math.max(...items.map((i) => i.end));
  const tokens = items.flatMap((i) => (i.kind === 'token' ? [i.token] : []));
  const unknown = items.flatMap((i) => (i.kind === 'unknown' ? [i.shape] : []));
  const rank = (f: ToolCallFormat): number => formats.indexOf(f);
  const owned = (f: ToolCallFormat): number => tokens.filter((t) => t.owners.has(f.name)).length;
  const byEvidence = (a: ToolCallFormat, b: ToolCallFormat): number =>
    owned(b) - owned(a) || Number(b === context) - Number(a === context) || rank(a) - rank(b);
  const span = { start, end, tokens, unknown };
  // A parser reads named calls here: the format with the most calls naming one of the request's tools, then the most
  // whose name could be a tool's at all (another format's parser may take a JSON list for a name: GLM's, in Granite
  // 3.1's `<tool_call>[{…}]`), then the most named calls, then the one with more of its markers here.
  const calls = new Map<ToolCallFormat, MarkupCall[]>();
  for (const i of items) if (i.kind === 'call') calls.set(i.format, [...(calls.get(i.format) ?? []), i.call]);
  const toolNames = new Set((tools ?? []).map((t) => t.function.name));
  const count = (f: ToolCallFormat, which: (c: MarkupCall) => boolean): number => (calls.get(f) ?? []).filter(which).length;
  const ofTools = (f: ToolCallFormat): number => count(f, (c) => toolNames.has(c.name));
  const wellNamed = (f: ToolCallFormat): number => count(f, (c) => TOOL_NAME.test(c.name));
  const readers = [...calls.keys()].sort(
    (a, b) =>
      ofTools(b) - ofTools(a) ||
      wellNamed(b) - wellNamed(a) ||
      (calls.get(b)?.length ?? 0) - (calls.get(a)?.length ?? 0) ||
      byEvidence(a, b),
  );
  const reader = readers[0];
  if (reader) return { ...span, format: reader, fragment: null, calls: calls.get(reader) ?? [], unknownWhy: null };
  const unknownSpan = (why: NonNullable<LeakSpan['unknownWhy']>): LeakSpan => ({
    ...span,
    format: null,
    fragment: null,
    calls: [],
    unknownWhy: why,
  });
  // A shape of no registered format with no registered opener in the span is that markup's opener: the registered
  // markers after it are part of it (LFM2's `<|tool_call_start|>…<|tool_call_end|>`). After a registered opener, a
  // shape is only beside the leak (an end-of-turn token), reported on its own.
  if (unknown.length && !tokens.some((t) => [...t.owners.values()].includes('opener') && t.start < unknown[0]!.start))
    return unknownSpan('shape');
  // No call read: the formats that own every marker in the span, and whose declared body the span's body matches.
  const owners = formats.filter((f) => tokens.every((t) => t.owners.has(f.name)));
  if (!owners.length) return unknownSpan('mixed');
  const fitting = owners.filter((f) => {
    const body = bodyOf(text, span, tokens, f);
    return body.trim() === '' || f.leakSignature.body === undefined || f.leakSignature.body.test(body);
  });
  const format = [...fitting].sort(byEvidence)[0];
  if (!format) return unknownSpan('body');
  const body = bodyOf(text, span, tokens, format).trim();
  const fragment = body === '' ? fragmentOf(tokens, format) : null;
  return { ...span, format, fragment, calls: [], unknownWhy: null };
}

let last: { text: string; tools: Tools | undefined; context: string | null; spans: LeakSpan[] } | null = null;

/**
 * Every span of tool-call markup in `text` (a response's content), each attributed to one registered format or to
 * none (unknown markup), in order. `context` is the record's format: it breaks ties between formats that share
 * markers. The last answer is kept: the content checks of one record all ask for it.
 */
export function attributeLeaks(text: string, tools: Tools | undefined, context: ToolCallFormat | null): LeakSpan[] {
  if (last && last.text === text && last.tools === tools && last.context === (context?.name ?? null)) return last.spans;
  const formats = registeredFormats();
  const unknown = findUnknownMarkup(text);
  const tokens = findTokens(text, formats, unknown);
  // Pushed, not spread from two maps: a spread is compiled for its arrays' element kinds and deoptimised by the first
  // text with markup.
  const items: SpanItem[] = [];
  for (const token of tokens) items.push({ kind: 'token', start: token.start, end: token.end, token });
  for (const shape of unknown) items.push({ kind: 'unknown', start: shape.start, end: shape.end, shape });
  // Only formats with markup here are asked to parse (their body tags count: Qwen3-Coder's `<function=`).
  for (const format of formats) {
    if (!tokens.some((t) => t.owners.has(format.name))) continue;
    for (const call of parseMarkupCalls(format, text, tools))
      if (call.name.trim() !== '') items.push({ kind: 'call', start: call.start, end: call.end, format, call });
  }
  const spans = groupSpans(text, items).map((group) => attributeSpan(text, group, formats, context, tools));
  last = { text, tools, context: context?.name ?? null, spans };
  return spans;
}

/** The text the span's finding quotes first: its first registered marker, else its first shape. */
export function firstMarkup(span: LeakSpan): { start: number; end: number; text: string; marker?: string } {
  const token = span.tokens[0];
  const shape = span.unknown[0];
  if (token && (!shape || token.start <= shape.start)) return token;
  return shape ?? { start: span.start, end: span.end, text: '' };
}
