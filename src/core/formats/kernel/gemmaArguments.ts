/**
 * The body of a Gemma-style call, `call:NAME{key:value,…}`, turned into the arguments JSON the engines send.
 *
 * Gemma 4 (vllm/tool_parsers/gemma4_tool_parser.py @ c31f17f4b150c829a866e3218b8420967bf7722a, `_parse_gemma4_args`):
 * keys are bare (the text up to `:`, trimmed); a string sits between `<|"|>` delimiters; `{…}` and `[…]` nest; any
 * other value runs to the next `,`, `}` or `]` and is `true`/`false`, an int (no `.`), a float (with a `.`), or else
 * the bare text as a string — so `null` stays the string "null", and a value whose delimiters were stripped
 * (`city:Paris`) is the string it reads as — unless the tool's schema describes the parameter: then the schema types
 * it, as vLLM's parser engine does at 017e9f4 (`gemmaArgumentsJson`). The arguments are `json.dumps(…, ensure_ascii=False)`. SGLang reads
 * values the same way (python/sglang/srt/function_call/gemma4_detector.py @ 008b79d2358b08adf9b6c879625030f890c8c4e2)
 * and, unlike vLLM's non-greedy regex, finds the body's end by balanced braces (`_find_matching_brace`), as
 * `gemmaBodyEnd` does: a nested object ends the body at its own brace, not at the first `}`.
 *
 * FunctionGemma (vllm/tool_parsers/functiongemma_tool_parser.py @ fe3771baa0a0c2bb9c0738c702f10a2301e89366): only
 * `key:<escape>value<escape>` pairs count, each value `json.loads`-ed when it parses and kept as text when not; a
 * value outside `<escape>` delimiters is dropped by vLLM, and reported here.
 */
import { dumpsArray, dumpsObject, dumpsString, pyFloat, pyFloatRepr, pyIntText, pyJsonRoundTrip } from './pythonJson.ts';
import { coerceToSchemaType, schemaTypes } from './schemaCoercion.ts';

export const GEMMA_STRING = '<|"|>';
export const FUNCTION_GEMMA_STRING = '<escape>';

/** Where the body that opens at `open` (a `{`) closes: the matching `}`, delimited strings skipped; -1 when it never does. */
export function gemmaBodyEnd(text: string, open: number, limit = 200_000): number {
  let depth = 0;
  const end = Math.min(text.length, open + limit);
  let i = open;
  while (i < end) {
    const delim = text.startsWith(GEMMA_STRING, i)
      ? GEMMA_STRING
      : text.startsWith(FUNCTION_GEMMA_STRING, i)
        ? FUNCTION_GEMMA_STRING
        : null;
    if (delim) {
      const close = text.indexOf(delim, i + delim.length);
      if (close < 0 || close >= end) return -1;
      i = close + delim.length;
      continue;
    }
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
    i++;
  }
  return -1;
}

/** Which reader: Gemma 4's notation, or FunctionGemma's `key:<escape>value<escape>` pairs. */
export type GemmaArgumentStyle = 'gemma4' | 'functiongemma';

/** A JSON schema object (what vLLM's `isinstance(…, dict)` admits), else undefined. */
type Schema = Record<string, unknown> | undefined;

function schemaObject(x: unknown): Schema {
  return x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}

/**
 * The JSON arguments of a call body (the text between its braces), and what could not be turned. Without a style
 * (text with no markup to tell), a body holding `<escape>` is read as FunctionGemma's.
 *
 * `properties`: the tool's `parameters.properties`. Gemma 4's bare values of a parameter the schema describes are
 * typed by it as vLLM types them (schemaCoercion.ts; vLLM's parser engine at 017e9f4 reads every value as text and
 * `_fix_arg_types` coerces it, recursing into `properties` and `items`), so `n:42` of a string parameter is "42"; a
 * bare value no schema describes is typed by its look (SGLang, llama.cpp's PEG parser, vLLM before its engine).
 * `<|"|>`-delimited strings stay strings whatever the schema says (docs/formats/gemma4.md says where vLLM differs).
 */
export function gemmaArgumentsJson(
  body: string,
  style: GemmaArgumentStyle = body.includes(FUNCTION_GEMMA_STRING) ? 'functiongemma' : 'gemma4',
  properties?: unknown,
): { json: string | null; problems: string[] } {
  if (style === 'functiongemma') return functionGemmaArguments(body);
  const problems: string[] = [];
  const json = gemmaObject(body, problems, 0, schemaObject(properties));
  return { json: problems.includes(TOO_DEEP) ? null : json, problems };
}

/** Nesting deeper than this is not read (vLLM's recursive reader would hit Python's recursion limit): reported. */
const MAX_DEPTH = 100;
const TOO_DEEP = `objects or arrays nested deeper than ${MAX_DEPTH} levels are not read`;

function functionGemmaArguments(body: string): { json: string; problems: string[] } {
  const entries: Array<[string, string]> = [];
  const problems: string[] = [];
  const pair = /(\w+):<escape>([\s\S]*?)<escape>/gu;
  let last = 0;
  for (const m of body.matchAll(pair)) {
    const between = body.slice(last, m.index).replace(/^[\s,]+|[\s,]+$/gu, '');
    if (between) problems.push(`${JSON.stringify(between)} is not a key:<escape>value<escape> pair: vLLM's functiongemma parser drops it`);
    const value = m[2] as string;
    entries.push([m[1] as string, pyJsonRoundTrip(value) ?? dumpsString(value)]);
    last = m.index + m[0].length;
  }
  const tail = body.slice(last).replace(/^[\s,]+|[\s,]+$/gu, '');
  if (tail) problems.push(`${JSON.stringify(tail)} is not a key:<escape>value<escape> pair: vLLM's functiongemma parser drops it`);
  return { json: dumpsObject(entries), problems };
}

const SEPARATORS = ' ,\n\t';

/** `_parse_gemma4_args`: a `key:value,…` text as a JSON object; `props` types its bare values. */
function gemmaObject(s: string, problems: string[], depth: number, props: Schema): string {
  if (depth > MAX_DEPTH) {
    if (!problems.includes(TOO_DEEP)) problems.push(TOO_DEEP);
    return '{}';
  }
  const entries: Array<[string, string]> = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && SEPARATORS.includes(s[i] as string)) i++;
    if (i >= n) break;
    const keyStart = i;
    while (i < n && s[i] !== ':') i++;
    if (i >= n) break;
    const key = s.slice(keyStart, i).trim();
    const schema = props && Object.prototype.hasOwnProperty.call(props, key) ? schemaObject(props[key]) : undefined;
    i++;
    while (i < n && ' \n\t'.includes(s[i] as string)) i++;
    if (i >= n) {
      entries.push([key, '""']);
      break;
    }
    if (s.startsWith(GEMMA_STRING, i)) {
      i += GEMMA_STRING.length;
      const close = s.indexOf(GEMMA_STRING, i);
      if (close < 0) {
        entries.push([key, dumpsString(s.slice(i))]);
        break;
      }
      entries.push([key, dumpsString(s.slice(i, close))]);
      i = close + GEMMA_STRING.length;
    } else if (s[i] === '{' || s[i] === '[') {
      const open = s[i] as string;
      const [inner, next] = nested(s, i, open, open === '{' ? '}' : ']');
      entries.push([key, nestedJson(inner, open, problems, depth, schema)]);
      i = next;
    } else {
      const start = i;
      while (i < n && !',}]'.includes(s[i] as string)) i++;
      entries.push([key, bareValue(s.slice(start, i), problems, schema)]);
    }
  }
  return dumpsObject(entries);
}

/** An object or array value, typed by its schema's `properties` or `items` (vLLM recurses only into those). */
function nestedJson(inner: string, open: string, problems: string[], depth: number, schema: Schema): string {
  return open === '{'
    ? gemmaObject(inner, problems, depth + 1, schemaObject(schema?.properties))
    : gemmaArray(inner, problems, depth + 1, schemaObject(schema?.items));
}

/** `_parse_gemma4_array`; `items` (the array's item schema) types its bare values. */
function gemmaArray(s: string, problems: string[], depth: number, items: Schema): string {
  if (depth > MAX_DEPTH) {
    if (!problems.includes(TOO_DEEP)) problems.push(TOO_DEEP);
    return '[]';
  }
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && SEPARATORS.includes(s[i] as string)) i++;
    if (i >= n) break;
    if (s.startsWith(GEMMA_STRING, i)) {
      i += GEMMA_STRING.length;
      const close = s.indexOf(GEMMA_STRING, i);
      if (close < 0) {
        out.push(dumpsString(s.slice(i)));
        break;
      }
      out.push(dumpsString(s.slice(i, close)));
      i = close + GEMMA_STRING.length;
    } else if (s[i] === '{' || s[i] === '[') {
      const open = s[i] as string;
      const [inner, next] = nested(s, i, open, open === '{' ? '}' : ']');
      out.push(nestedJson(inner, open, problems, depth, items));
      i = next;
    } else {
      const start = i;
      while (i < n && !',]'.includes(s[i] as string)) i++;
      out.push(bareValue(s.slice(start, i), problems, items));
    }
  }
  return dumpsArray(out);
}

/** The text inside the bracket at `at` and the index past its close (the rest of the text when it never closes, as vLLM's partial read). */
function nested(s: string, at: number, open: string, close: string): [string, number] {
  let depth = 1;
  let i = at + 1;
  while (i < s.length && depth > 0) {
    if (s.startsWith(GEMMA_STRING, i)) {
      const next = s.indexOf(GEMMA_STRING, i + GEMMA_STRING.length);
      i = next < 0 ? s.length : next + GEMMA_STRING.length;
      continue;
    }
    if (s[i] === open) depth++;
    else if (s[i] === close) depth--;
    i++;
  }
  return depth > 0 ? [s.slice(at + 1, i), i] : [s.slice(at + 1, i - 1), i];
}

/**
 * A bare value: typed by its schema when one describes it (vLLM's `coerce_to_schema_type`), else `_parse_gemma4_value`
 * of SGLang and the older vLLM: true/false, an int, a float (only with a `.`), else the text.
 */
function bareValue(raw: string, problems: string[], schema: Schema): string {
  const v = raw.trim();
  if (!v) return '""';
  if (schema) return coerceToSchemaType(v, schemaTypes(schema));
  if (v === 'true' || v === 'false') return v;
  if (v.includes('.')) {
    const f = pyFloat(v);
    if (f !== null) {
      const repr = pyFloatRepr(f);
      if (repr !== null) return repr;
      problems.push(`${v} reads as a float json.dumps writes as ${Number.isNaN(f) ? 'NaN' : 'Infinity'} (not JSON)`);
      return dumpsString(v);
    }
    return dumpsString(v);
  }
  return pyIntText(v) ?? dumpsString(v);
}
