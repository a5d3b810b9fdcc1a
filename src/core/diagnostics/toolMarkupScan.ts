/**
 * Tool-call markup of any registered format in a piece of text a client reads as prose (a response's content or
 * reasoning), whatever format the record was detected as. Each format is asked through the registry for its leak
 * fragments, its other marker spellings (Kimi's `<|reserved_token_N|>`) and its parser; nothing here knows a format
 * by name. The calls a format's parser finds in the text are the calls that were written but never delivered.
 * Special-token shapes of no registered format (`<|…|>`, `<｜…｜>`, `▁` inside angle brackets) are found too.
 */
import { registeredFormats } from '../formats/registry.ts';
import type { ToolCallFormat } from '../formats/toolCallFormat.ts';

type Tools = ReadonlyArray<{ function: { name: string; parameters?: unknown } }>;

export interface MarkupCall {
  index: number;
  /** The id as written (empty for formats whose model writes none). */
  id: string;
  name: string;
  arguments: string;
  terminated: boolean;
  /** Offsets in the scanned text (as written, other spellings included). */
  start: number;
  end: number;
  argumentsStart: number | null;
  argumentsEnd: number | null;
}

export interface FormatMarkup {
  format: ToolCallFormat;
  /** The format's first leak fragment (or marker spelling) in the text; `marker` when it is another spelling. */
  first: { start: number; end: number; text: string; marker?: string };
  /** The calls the format's own parser finds in the text (markup calls only). */
  calls: MarkupCall[];
  /**
   * A whole tool-call marker of the format (or another spelling of one) is in the text, or its parser found calls;
   * false when only a piece of a marker matched (`<|tool_call`, `tool_call>`), which other markup may share.
   */
  complete: boolean;
}

/** The format's whole tool-call markers: its leak fragments that are markers, and their other spellings. */
function wholeMarkers(format: ToolCallFormat): string[] {
  return [...format.leakFragments.filter((f) => format.markers.includes(f)), ...(format.markerSpellings ?? []).map((s) => s.spelling)];
}

/** The earliest leak fragment of `format` in `text`, or another spelling of one of its markers, or null. */
export function firstLeakFragment(format: ToolCallFormat, text: string): FormatMarkup['first'] | null {
  let first: FormatMarkup['first'] | null = null;
  const consider = (f: string, marker?: string): void => {
    const at = text.indexOf(f);
    if (at >= 0 && (!first || at < first.start || (at === first.start && f.length > first.text.length)))
      first = { start: at, end: at + f.length, text: f, ...(marker ? { marker } : {}) };
  };
  for (const f of format.leakFragments) consider(f);
  for (const s of format.markerSpellings ?? []) consider(s.spelling, s.marker);
  return first;
}

/** The text with the format's other marker spellings written as its markers, and a map back to the original offsets. */
function canonical(format: ToolCallFormat, text: string): { text: string; original: (at: number) => number } {
  const spellings = (format.markerSpellings ?? []).filter((s) => text.includes(s.spelling));
  if (!spellings.length) return { text, original: (at) => at };
  const pattern = new RegExp(spellings.map((s) => s.spelling.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('|'), 'gu');
  const byText = new Map(spellings.map((s) => [s.spelling, s.marker]));
  const swaps: Array<{ from: number; to: number; origFrom: number; origTo: number }> = [];
  let out = '';
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    const marker = byText.get(m[0]) as string;
    out += text.slice(last, m.index);
    swaps.push({ from: out.length, to: out.length + marker.length, origFrom: m.index, origTo: m.index + m[0].length });
    out += marker;
    last = m.index + m[0].length;
  }
  out += text.slice(last);
  const original = (at: number): number => {
    let shift = 0;
    for (const s of swaps) {
      if (at < s.from) break;
      if (at < s.to) return s.origFrom;
      shift = s.origTo - s.to;
    }
    return at + shift;
  };
  return { text: out, original };
}

/** The calls `format`'s parser finds in `text` read as a whole completion (other marker spellings included). */
export function parseMarkupCalls(format: ToolCallFormat, text: string, tools?: Tools): MarkupCall[] {
  const { text: readable, original } = canonical(format, text);
  const parser = format.createParser(tools ? { tools } : {});
  parser.push(readable);
  parser.finish();
  return parser
    .result()
    .calls.filter((c) => c.source === 'markup')
    .map((c, index) => ({
      index,
      id: c.id,
      name: c.name,
      arguments: c.arguments,
      terminated: c.terminated,
      start: original(c.span.start),
      end: original(c.span.end),
      argumentsStart: c.argumentsSpan ? original(c.argumentsSpan.start) : null,
      argumentsEnd: c.argumentsSpan ? original(c.argumentsSpan.end) : null,
    }));
}

/**
 * Every registered format whose markup is in `text`, earliest first, each with the calls its parser finds there.
 * Formats sharing a marker (Hermes and Qwen3-Coder both write `<tool_call>`) each appear; `bestMarkup` picks one.
 */
export function scanToolMarkup(text: string, tools?: Tools): FormatMarkup[] {
  const found: FormatMarkup[] = [];
  for (const format of registeredFormats()) {
    const first = firstLeakFragment(format, text);
    if (!first) continue;
    const calls = parseMarkupCalls(format, text, tools);
    found.push({ format, first, calls, complete: calls.length > 0 || wholeMarkers(format).some((m) => text.includes(m)) });
  }
  return found.sort((a, b) => a.first.start - b.first.start);
}

/** The format that explains the markup best: the most calls parsed, then the earliest markup (registration order on ties). */
export function bestMarkup(found: readonly FormatMarkup[]): FormatMarkup | null {
  let best: FormatMarkup | null = null;
  for (const f of found)
    if (!best || f.calls.length > best.calls.length || (f.calls.length === best.calls.length && f.first.start < best.first.start)) best = f;
  return best;
}

// ---- shapes of no registered format ------------------------------------------------------------------

/**
 * Special-token shapes: namespaced tool-call tags (MiniMax's `<minimax:tool_call>`, M3's namespace token `]<]minimax[>[`), `<|name|>` with ASCII bars (and the half-barred `<|name>` / `<name|>` of Gemma 4), full-width or double bars (`<｜…｜>`, `<‖…‖>`, DeepSeek's DSML
 * `<｜DSML｜function_calls>`, closing forms `</｜…｜…>`), SentencePiece's `▁` inside angle brackets, and upper-case
 * bracket tags naming a tool or call (`[TOOL_CALL]…[/TOOL_CALL]`, the block OpenFang 0.3.37's text-call parser
 * looks for, RightNow-AI/openfang#354; Mistral's own `[TOOL_CALLS]` is a registered marker, so never this). Bounded
 * lengths keep the scan linear and stop prose from matching.
 */
const SHAPES =
  /\]<\][A-Za-z0-9_]{1,32}\[>\[|<\/?[A-Za-z][\w.-]{0,31}:[\w.-]{0,32}(?:tool|call|function|invoke)[\w.-]{0,32}>|<\/?\|[A-Za-z0-9_.:=/-]{1,64}\|>|<\|[A-Za-z0-9_]{1,32}>|<[A-Za-z0-9_]{1,32}\|>|<\/?[\uFF5C\u2016]{1,2}[^<>\s\uFF5C\u2016]{1,64}[\uFF5C\u2016]{1,2}[^<>\s]{0,64}>?|<[^<>\s]{0,32}\u2581[^<>\s]{0,32}>|\[\/?[A-Z0-9_]{0,32}(?:TOOL|CALL|FUNCTION|INVOKE)[A-Z0-9_]{0,32}\]/gu;

export interface UnknownMarkup {
  text: string;
  start: number;
  end: number;
}

/** What `findUnknownMarkup` needs of the registry, derived once per set of registered formats. */
interface KnownMarkup {
  /** Every registered marker and other spelling: a shape that is one of them is no unknown markup. */
  known: Set<string>;
  /** Every format's whole markers, in registration order. */
  whole: string[];
}

const knownMarkup = new WeakMap<readonly ToolCallFormat[], KnownMarkup>();

function knownMarkupOf(formats: readonly ToolCallFormat[]): KnownMarkup {
  let k = knownMarkup.get(formats);
  if (!k) {
    k = {
      known: new Set(formats.flatMap((f) => [...f.markers, ...(f.markerSpellings ?? []).map((s) => s.spelling)])),
      whole: formats.flatMap(wholeMarkers),
    };
    knownMarkup.set(formats, k);
  }
  return k;
}

/** Special-token shapes in `text` that are no registered format's marker, spelling or leak fragment. */
export function findUnknownMarkup(text: string): UnknownMarkup[] {
  const { known, whole } = knownMarkupOf(registeredFormats());
  // Where registered formats' whole markers sit: a shape overlapping one belongs to that format. (A shape that
  // only shares a piece with a marker, like Gemma's `<|tool_call>`, is not that format's.) Found only once a shape
  // is: most text has none (this ran on every record's content).
  let claimed: Array<[number, number]> | null = null;
  const out: UnknownMarkup[] = [];
  for (const m of text.matchAll(SHAPES)) {
    const start = m.index;
    const end = start + m[0].length;
    if (known.has(m[0])) continue;
    claimed ??= claimedRanges(text, whole);
    if (claimed.some(([a, b]) => a < end && start < b)) continue;
    out.push({ text: m[0], start, end });
  }
  return out;
}

function claimedRanges(text: string, whole: readonly string[]): Array<[number, number]> {
  const claimed: Array<[number, number]> = [];
  for (const frag of whole)
    for (let at = text.indexOf(frag); at >= 0; at = text.indexOf(frag, at + frag.length)) claimed.push([at, at + frag.length]);
  return claimed;
}
