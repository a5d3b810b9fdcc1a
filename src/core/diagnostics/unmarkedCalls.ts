/**
 * Tool calls written with no markup at all, in text a client reads as prose (content, reasoning): the call a server
 * left behind when it stripped the markers, or one the model wrote as text.
 *
 * - `call-colon`: Gemma's `call:NAME{key:value,…}` (its markers `<|tool_call>`…`<tool_call|>` or FunctionGemma's
 *   stripped or never written); arguments as vLLM's gemma4 / functiongemma parsers read them (kernel/gemmaArguments.ts).
 * - `pythonic`: `NAME(k=v, …)` or `[NAME(…), …]`; arguments as vLLM's pythonic parser reads them
 *   (kernel/pythonCallReader.ts).
 * - `invoke-xml`: `<invoke name="N"><parameter name="k">v</parameter></invoke>` (MiniMax M2's calls without their
 *   `<minimax:tool_call>` block, Anthropic's older XML); parameters typed by the tool's schema as vLLM's minimax_m2
 *   parser types them (vllm/tool_parsers/minimax_m2_tool_parser.py @ 9412856add437f03009a0804f61f3bed6731ddeb,
 *   `_parse_single_invoke`), strings without a schema.
 *
 * Judged against the request's tools: with a tool list, a `call:` or pythonic call counts only when it names an
 * offered tool, and an `<invoke>` too. Without one (the request or its tools are unknown), `call:` and `<invoke>`
 * still count where they stand on their own lines, and a pythonic list only when it is the whole text. The prose
 * guard (proseGuard.ts) decides what is talk about code. Spans in `covered` (markup a registered format's leak finding
 * already reports) are skipped: one finding per span.
 */
import { gemmaArgumentsJson, gemmaBodyEnd } from '../formats/kernel/gemmaArguments.ts';
import { extractTypesFromSchema } from '../formats/kernel/schemaCoercion.ts';
import { pyCallArguments, readPyCall, readPyCallList, type PyCall } from '../formats/kernel/pythonCallReader.ts';
import { dumpsObject, dumpsString, pyFloat, pyFloatRepr, pyIntText, pyJsonRoundTrip } from '../formats/kernel/pythonJson.ts';
import { formatNames, getFormat } from '../formats/registry.ts';
import type { ToolCallFormat, UnmarkedCallShape } from '../formats/toolCallFormat.ts';
import { ProseGuard, asksForCode, wholeFenceBody, type Span } from './proseGuard.ts';

export type { UnmarkedCallShape };

export interface UnmarkedCall {
  shape: UnmarkedCallShape;
  name: string;
  /** The arguments JSON as the engine would send them, or null when they cannot be turned (see `problems`). */
  arguments: string | null;
  /** What could not be turned, and what an engine drops. */
  problems: string[];
  start: number;
  end: number;
}

export interface UnmarkedScanOptions {
  /** The offered tools by name (their schemas type `<invoke>` parameters); null when the request's tools are unknown. */
  tools: ReadonlyMap<string, { function: { parameters?: unknown } }> | null;
  /** The user's last message, when known: a fenced block the user asked for is code, not a call. */
  userMessage?: string | null;
  /** Spans already reported as a registered format's leaked markup. */
  covered?: readonly Span[];
}

/** How each shape is written, for messages. */
export const SHAPE_LOOKS: Record<UnmarkedCallShape, string> = {
  'call-colon': 'call:name{key:value}',
  pythonic: 'name(key=value)',
  'invoke-xml': '<invoke name="…"><parameter name="…">',
};

/** The registered format whose calls take this shape once their markers are stripped, if any (the record's own first). */
export function formatWriting(
  shape: UnmarkedCallShape,
  recordFormat: ToolCallFormat | null,
  formats: readonly ToolCallFormat[] = formatNames().map(getFormat),
): ToolCallFormat | null {
  if (recordFormat?.unmarkedShape === shape) return recordFormat;
  return formats.find((f) => f.unmarkedShape === shape) ?? null;
}

const MAX_BLOCK = 200_000;
/** Candidates of one shape looked at in one text: hostile input with millions of `call:x{` costs a bounded scan. */
const MAX_CANDIDATES = 1000;

function* firstMatches(text: string, pattern: RegExp): Generator<RegExpExecArray> {
  let n = 0;
  for (const m of text.matchAll(pattern)) {
    if (++n > MAX_CANDIDATES) return;
    yield m;
  }
}

export function findUnmarkedCalls(text: string, options: UnmarkedScanOptions): UnmarkedCall[] {
  if (!text) return [];
  const tools = options.tools && options.tools.size > 0 ? options.tools : null;
  const asked = options.userMessage ? asksForCode(options.userMessage) : false;
  const whole = wholeFenceBody(text);
  const guard = new ProseGuard(text, { unfenced: whole && !asked ? whole : null });
  const covered = options.covered ?? [];
  const free = (start: number, end: number): boolean => !guard.inCode(start, end) && !covered.some(([a, b]) => start < b && a < end);
  const out: UnmarkedCall[] = [];

  // call:NAME{…}
  const colon: Array<UnmarkedCall> = [];
  for (const m of firstMatches(text, /call:([\w.-]+)\{/gu)) {
    const before = text[m.index - 1];
    if (before !== undefined && !/[\s>]/u.test(before)) continue;
    const open = m.index + m[0].length - 1;
    const close = gemmaBodyEnd(text, open, MAX_BLOCK);
    if (close < 0) continue;
    const name = m[1] as string;
    if (tools && !tools.has(name)) continue;
    const { json, problems } = gemmaArgumentsJson(text.slice(open + 1, close));
    colon.push({ shape: 'call-colon', name, arguments: json, problems, start: m.index, end: close + 1 });
  }
  const colonSpans = colon.map((c): Span => [c.start, c.end]);
  for (const c of colon)
    if (free(c.start, c.end) && guard.standsAlone(c.start, c.end, colonSpans) && !guard.introducedAsExample(c.start)) out.push(c);

  // <invoke name=…>…</invoke>
  const invokes: UnmarkedCall[] = [];
  let close = -1;
  for (const m of firstMatches(text, /<invoke name=/gu)) {
    // One look-ahead for the closing tag serves every opener before it.
    if (close < m.index) close = text.indexOf('</invoke>', m.index);
    if (close < 0) break;
    if (close - m.index > MAX_BLOCK) continue;
    const block = text.slice(m.index + m[0].length, close);
    const head = /^([^>]+)>/u.exec(block);
    if (!head) continue;
    const name = unquote(head[1] as string);
    if (tools && !tools.has(name)) continue;
    const schema = tools?.get(name)?.function.parameters;
    invokes.push({ shape: 'invoke-xml', name, ...invokeArguments(block, schema), start: m.index, end: close + '</invoke>'.length });
  }
  const invokeSpans = invokes.map((c): Span => [c.start, c.end]);
  for (const c of invokes)
    if (free(c.start, c.end) && guard.standsAlone(c.start, c.end, invokeSpans, true) && !guard.introducedAsExample(c.start)) out.push(c);

  // [NAME(…), …] and NAME(…)
  out.push(...pythonicCalls(text, tools, guard, free));
  return out.sort((a, b) => a.start - b.start);
}

function pythonicCalls(
  text: string,
  tools: UnmarkedScanOptions['tools'],
  guard: ProseGuard,
  free: (start: number, end: number) => boolean,
): UnmarkedCall[] {
  const out: UnmarkedCall[] = [];
  const asCalls = (calls: readonly PyCall[]): UnmarkedCall[] =>
    calls.map((c) => ({ shape: 'pythonic', name: c.name, ...argumentsOf(c), start: c.start, end: c.end }));
  if (!tools) {
    // No tool list: only a list of calls that is the whole text (markers and tags aside), as vLLM's parser wants it.
    const at = text.indexOf('[');
    const list = at >= 0 ? readPyCallList(text, at) : null;
    if (list && free(list.start, list.end) && guard.standsAlone(list.start, list.end) && isWholeText(text, list.start, list.end))
      out.push(...asCalls(list.calls));
    return out;
  }
  const patterns = callPatternsOf(tools);
  if (!patterns) return out;
  const taken: Span[] = [];
  // Lists first: a list is one block, and its calls are not looked at again one by one.
  for (const m of firstMatches(text, patterns.list)) {
    if (taken.some(([a, b]) => m.index >= a && m.index < b)) continue;
    const list = readPyCallList(text, m.index);
    if (!list) continue;
    taken.push([list.start, list.end]);
    if (free(list.start, list.end) && guard.standsAlone(list.start, list.end) && !guard.introducedAsExample(list.start))
      out.push(...asCalls(list.calls));
  }
  const singles: PyCall[] = [];
  for (const m of firstMatches(text, patterns.single)) {
    if (taken.some(([a, b]) => m.index >= a && m.index < b)) continue;
    const call = readPyCall(text, m.index);
    if (call) singles.push(call);
  }
  const spans = singles.map((c): Span => [c.start, c.end]);
  for (const c of singles)
    if (free(c.start, c.end) && guard.standsAlone(c.start, c.end, spans) && !guard.introducedAsExample(c.start)) out.push(...asCalls([c]));
  return out;
}

/**
 * Each tool set's patterns for its tools called Python-style, made once: the analysis hands the records of one tool set
 * one map (analysis.ts), and matchAll copies a pattern, so one is shared. Null: no name a Python call could have.
 */
const callPatterns = new WeakMap<ReadonlyMap<string, unknown>, { list: RegExp; single: RegExp } | null>();

function callPatternsOf(tools: ReadonlyMap<string, unknown>): { list: RegExp; single: RegExp } | null {
  let patterns = callPatterns.get(tools);
  if (patterns !== undefined) return patterns;
  const names = [...tools.keys()].filter((n) => /^[A-Za-z_]\w*$/u.test(n));
  const alternation = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('|');
  patterns = names.length
    ? { list: new RegExp(`\\[\\s*(?:${alternation})\\s*\\(`, 'gu'), single: new RegExp(`(?<![\\w.])(?:${alternation})\\s*\\(`, 'gu') }
    : null;
  callPatterns.set(tools, patterns);
  return patterns;
}

function argumentsOf(call: PyCall): { arguments: string | null; problems: string[] } {
  const { json, problems } = pyCallArguments(call);
  return { arguments: json, problems };
}

/** Nothing but tags, special tokens and whitespace outside [start, end). */
function isWholeText(text: string, start: number, end: number): boolean {
  const strip = (s: string): string => s.replace(/<\|[^<>|\s]{0,64}\|?>|<[^<>|\s]{1,64}\|>|<\/?[A-Za-z_][\w:.-]{0,40}>/gu, '').trim();
  return strip(text.slice(0, start)) === '' && strip(text.slice(end)) === '';
}

/** vLLM minimax_m2 `_extract_name`: trimmed, one pair of matching quotes removed. */
function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))) ? t.slice(1, -1) : t;
}

/** `_parse_single_invoke`'s parameters, each typed by the tool's schema (strings without one). */
function invokeArguments(block: string, parameters: unknown): { arguments: string | null; problems: string[] } {
  const props =
    parameters &&
    typeof parameters === 'object' &&
    (parameters as { properties?: unknown }).properties &&
    typeof (parameters as { properties?: unknown }).properties === 'object'
      ? (parameters as { properties: Record<string, unknown> }).properties
      : {};
  const entries: Array<[string, string]> = [];
  const problems: string[] = [];
  // `<parameter name=(.*?)</parameter>`, found with indexOf: linear even when no parameter closes.
  for (let pos = 0; ;) {
    const at = block.indexOf('<parameter name=', pos);
    if (at < 0) break;
    const close = block.indexOf('</parameter>', at);
    if (close < 0) break;
    pos = close + '</parameter>'.length;
    const p = /^([^>]+)>([\s\S]*)$/u.exec(block.slice(at + '<parameter name='.length, close));
    if (!p) continue;
    const key = unquote(p[1] as string);
    const value = (p[2] as string).trim();
    const types = Object.hasOwn(props, key) ? extractTypesFromSchema(props[key]) : ['string'];
    const json = typedValue(value, types);
    if (json === null) {
      problems.push(`${key}: ${JSON.stringify(value)} overflows a float (vLLM's int(float(…)) raises)`);
      continue;
    }
    entries.push([key, json]);
  }
  return { arguments: problems.length ? null : dumpsObject(entries), problems };
}

/** `_convert_param_value_with_types`, as JSON text; null where vLLM raises (a float that overflows). */
function typedValue(value: string, types: readonly string[]): string | null {
  if (['null', 'none', 'nil'].includes(value.toLowerCase())) return 'null';
  const have = new Set(types.map((t) => t.toLowerCase()));
  for (const t of ['integer', 'int', 'number', 'float', 'boolean', 'bool', 'object', 'array', 'string', 'str', 'text']) {
    if (!have.has(t)) continue;
    if (t === 'string' || t === 'str' || t === 'text') return dumpsString(value);
    if (t === 'integer' || t === 'int') {
      const i = pyIntText(value);
      if (i !== null) return i;
    } else if (t === 'number' || t === 'float') {
      const f = pyFloat(value);
      if (f === null || Number.isNaN(f)) continue;
      if (!Number.isFinite(f)) return null;
      return Number.isInteger(f) ? BigInt(f).toString() : (pyFloatRepr(f) as string);
    } else if (t === 'boolean' || t === 'bool') {
      const v = value.toLowerCase().trim();
      if (['true', '1', 'yes', 'on'].includes(v)) return 'true';
      if (['false', '0', 'no', 'off'].includes(v)) return 'false';
    } else {
      const j = pyJsonRoundTrip(value);
      if (j !== null) return j;
    }
  }
  return pyJsonRoundTrip(value) ?? dumpsString(value);
}
