/**
 * The string bodies of a call's JSON arguments that the markup-only feed may leave out (markupFeed.ts). Inside a
 * value whose schema is a bare `{"type": "string"}`, xgrammar's JSON-schema converter (cpp/json_schema_converter.cc
 * @ mlc-ai/xgrammar b1bf0bdc, the commit that made web-xgrammar 0.1.27: `ParseStringSchema` with no format, pattern,
 * minLength or maxLength, `AddJSONHelperRules`) writes
 *
 *   basic_string ::= "\"" basic_string_sub
 *   basic_string_sub ::= ("\"" | [^\0-\x1f\"\\\r\n] basic_string_sub | "\\" basic_escape basic_string_sub) (= [ \n\t]* [,}\]:])
 *   basic_escape ::= ["\\/bfnrt] | "u" [A-Fa-f0-9]{4}
 *
 * After the opening quote the grammar is at the start of `basic_string_sub`; a character of the class, or an escape,
 * brings it back there. So after a body made only of those, the grammar is where it was after the opening quote:
 * feeding `"` then the closing quote leaves the matcher in the state that feeding `"body"` does (the same language
 * from there on; test/core/guided/stringBodySkips.test.ts checks the rule against the real matcher).
 *
 * Where a body may be left out is found by walking the tag entered at a trigger the way its grammar reads it: the
 * tag's begin, its calls (a begin naming one tool, constants and `\d+` before the arguments, the arguments, the end),
 * and the arguments with a JSON scan that follows the tool's schema. Any doubt ends the walk (no more bodies left out
 * in that tag): a schema that is not provably a bare string there (`anyOf`, `$ref`, `additionalProperties` other than
 * false, a key with an escape, any keyword outside a short list), a body the rule would refuse (a control character,
 * a bad escape), a string not closed before the end of the fed text, a tag this walk does not know. Two things the
 * walk cannot see are checked by the feed when it gets there (markupFeed.ts): that the grammar did enter the tag at
 * this trigger (no other trigger begins before the opening quote, and the output may not end after it: no reading of
 * the text is still in free text), and that no cut lands inside a special token's string.
 */
import type { JsonObject } from '../trace/record.ts';
import type { StructuralTag, StructuralTagFormat, TagFormat } from '../formats/structuralTag/structuralTagFormat.ts';

/** A string body that may be left out: the characters in [start, end), `end` being its closing quote. */
export interface BodySkip {
  readonly start: number;
  readonly end: number;
}

/** What precedes a call's arguments after its begin: constants, or a run of digits (`\d+`). */
type Lead = { kind: 'const'; value: string } | { kind: 'digits' };

interface CallTag {
  readonly begin: string;
  readonly lead: readonly Lead[];
  readonly schema: SchemaNode;
  readonly end: string;
}

/** A tag a trigger opens: one call, or calls with a separator between them (a section). */
type EntryTag =
  | { kind: 'call'; call: CallTag }
  | { kind: 'section'; begin: string; calls: readonly CallTag[]; separator: string; end: string }
  | { kind: 'unknown'; begin: string };

export interface SkipPlan {
  readonly triggers: readonly string[];
  readonly entries: readonly EntryTag[];
}

/**
 * What the walk knows of a value's schema: `string` (a bare string: its body may be left out), `any` (xgrammar's
 * `basic_any`: every string in it is a `basic_string`), an object's properties, an array's items, `json` (a value
 * whose every string is a JSON string, nothing of it left out), or null (doubt: the walk ends there).
 */
type SchemaNode =
  | 'string'
  | 'any'
  | 'json'
  | { readonly names: readonly string[]; readonly schemas: readonly unknown[]; readonly consistent: boolean }
  | { readonly items: unknown; readonly consistent: boolean }
  | null;

/** Keywords xgrammar's converter reads nothing from (annotations). */
const ANNOTATIONS = new Set([
  'description',
  'title',
  '$comment',
  '$schema',
  '$id',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const OBJECT_KEYS = new Set([...ANNOTATIONS, 'type', 'properties', 'required', 'additionalProperties']);
const ARRAY_KEYS = new Set([...ANNOTATIONS, 'type', 'items']);
const STRING_KEYS = new Set([...ANNOTATIONS, 'type']);
/** A string of these keeps to JSON's string syntax (literals, or `[^"\\\r\n]` characters): its end is its first unescaped quote. */
const JSON_STRING_KEYS = new Set([...ANNOTATIONS, 'type', 'enum', 'const', 'minLength', 'maxLength']);

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (s: JsonObject, allowed: ReadonlySet<string>) => Object.keys(s).every((k) => allowed.has(k));

/**
 * Whether every string the schema's grammar reads is written in JSON's string syntax, so that a JSON scan finds where
 * it ends: no `pattern`, `format`, `patternProperties` or `propertyNames` anywhere (their regexes may take a quote).
 */
function jsonConsistent(schema: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (Array.isArray(schema)) return schema.every((s) => jsonConsistent(s, depth + 1));
  if (!isObject(schema)) return true;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' || key === 'format' || key === 'patternProperties' || key === 'propertyNames') return false;
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      if (isObject(value) && !Object.values(value).every((s) => jsonConsistent(s, depth + 1))) return false;
      continue;
    }
    if (!jsonConsistent(value, depth + 1)) return false;
  }
  return true;
}

/** `nodeOf` of the schemas seen, by `consistent` (a tool's schema is read once, not at every value). */
const nodes = [new WeakMap<JsonObject, SchemaNode>(), new WeakMap<JsonObject, SchemaNode>()] as const;

/** The walk's view of a schema; `consistent`: the tool's whole schema is `jsonConsistent`. */
function nodeOf(schema: unknown, consistent: boolean): SchemaNode {
  if (schema === true) return 'any';
  if (!isObject(schema)) return consistent ? 'json' : null;
  const seen = nodes[consistent ? 1 : 0];
  let node = seen.get(schema);
  if (node === undefined) seen.set(schema, (node = readNode(schema, consistent)));
  return node;
}

function readNode(schema: JsonObject, consistent: boolean): SchemaNode {
  if (Object.keys(schema).every((k) => ANNOTATIONS.has(k))) return 'any';
  if (schema.type === 'string' && onlyKeys(schema, STRING_KEYS)) return 'string';
  if (schema.type === 'object' && onlyKeys(schema, OBJECT_KEYS) && isObject(schema.properties)) {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return consistent ? 'json' : null;
    // A name holding a quote or a backslash is never read from the text as it is written: such a key is undeclared.
    const declared = Object.entries(schema.properties).filter(([name]) => !/["\\]/.test(name));
    return { names: declared.map(([name]) => name), schemas: declared.map(([, s]) => s), consistent };
  }
  if (schema.type === 'array' && onlyKeys(schema, ARRAY_KEYS) && schema.items !== undefined) return { items: schema.items, consistent };
  if (schema.type === 'string' && onlyKeys(schema, JSON_STRING_KEYS)) return 'json';
  return consistent ? 'json' : null;
}

function callOf(t: TagFormat): CallTag | null {
  if (typeof t.end !== 'string') return null;
  const elements: StructuralTagFormat[] = t.content.type === 'sequence' ? t.content.elements : [t.content];
  const args = elements[elements.length - 1];
  if (args?.type !== 'json_schema' || (args.style !== undefined && args.style !== 'json')) return null;
  const lead: Lead[] = [];
  for (const [i, e] of elements.slice(0, -1).entries()) {
    if (e.type === 'const_string') lead.push({ kind: 'const', value: e.value });
    else if (e.type === 'regex' && (e.pattern === '\\d+' || e.pattern === '[0-9]+')) {
      // Digits end where a constant that starts with no digit begins: no other reading.
      const after = elements[i + 1];
      if (after?.type !== 'const_string' || after.value === '' || /^[0-9]/.test(after.value)) return null;
      lead.push({ kind: 'digits' });
    } else return null;
  }
  const consistent = jsonConsistent(args.json_schema);
  return { begin: t.begin, lead, schema: nodeOf(args.json_schema, consistent), end: t.end };
}

function entryOf(t: TagFormat): EntryTag {
  const call = callOf(t);
  if (call) return { kind: 'call', call };
  if (t.content.type === 'tags_with_separator' && typeof t.end === 'string') {
    const calls = t.content.tags.map(callOf);
    if (calls.every((c): c is CallTag => c !== null))
      return { kind: 'section', begin: t.begin, calls, separator: t.content.separator, end: t.end };
  }
  return { kind: 'unknown', begin: t.begin };
}

const plans = new WeakMap<StructuralTag, SkipPlan | null>();

/** The tags a trigger of the tag's top `triggered_tags` opens, read for the walk; null for any other top. */
export function skipPlan(tag: StructuralTag): SkipPlan | null {
  if (plans.has(tag)) return plans.get(tag) ?? null;
  const top = tag.format;
  const plan = top.type === 'triggered_tags' ? { triggers: top.triggers, entries: top.tags.map(entryOf) } : null;
  plans.set(tag, plan);
  return plan;
}

/** The one string of `begins` that starts at `at` (null when none does, or several: the walk would have to guess). */
function oneAt<T>(text: string, at: number, items: readonly T[], begin: (t: T) => string): T | null {
  let found: T | null = null;
  for (const item of items) {
    if (!text.startsWith(begin(item), at)) continue;
    if (found !== null) return null;
    found = item;
  }
  return found;
}

const beginOf = (e: EntryTag) => (e.kind === 'call' ? e.call.begin : e.begin);

/** Thrown to end the walk where it cannot be sure; the bodies found before stand. */
class Doubt extends Error {}

/**
 * The string bodies to leave out in the tag a trigger opens at `entry`, up to `to` (the end of the fed text), in
 * text order. Only bodies whose opening quote comes before the next trigger in the text.
 */
export function bodySkips(plan: SkipPlan, text: string, entry: number, to: number): BodySkip[] {
  const skips: BodySkip[] = [];
  const tag = oneAt(text, entry, plan.entries, beginOf);
  if (!tag || tag.kind === 'unknown') return skips;
  let nextTrigger = to;
  for (const t of plan.triggers) {
    const i = text.indexOf(t, entry + 1);
    if (i >= 0 && i < nextTrigger) nextTrigger = i;
  }
  const scan = new ArgumentScan(text, Math.min(to, nextTrigger), to, skips);
  try {
    if (tag.kind === 'call') {
      scan.call(tag.call, entry);
      return skips;
    }
    let at = entry + tag.begin.length;
    for (;;) {
      // Where the section's end could also begin, the grammar may have left the calls: stop reading.
      const call = text.startsWith(tag.end, at) ? null : oneAt(text, at, tag.calls, (c) => c.begin);
      if (!call) return skips;
      at = scan.call(call, at);
      if (tag.separator !== '') {
        if (!text.startsWith(tag.separator, at) || text.startsWith(tag.end, at)) return skips;
        at += tag.separator.length;
      }
    }
  } catch (err) {
    if (err instanceof Doubt) return skips;
    throw err;
  }
}

/**
 * Shorter bodies are fed: leaving one out costs a stop-token try and another string handed to the matcher, about
 * 3 µs, what xgrammar takes for 15–25 characters of a string (measured on the bench's calls-only completion, whose
 * 20-character strings cost 7 % more CPU left out than fed).
 */
export const MIN_BODY_CHARS = 64;

/** Characters that end a run of a string body: a control character, a quote, a backslash. */
// eslint-disable-next-line no-control-regex -- the control characters are what the rule refuses
const BODY_STOP = /[\u0000-\u001f"\\]/g;
const HEX4 = /^[0-9A-Fa-f]{4}$/;
const NUMBER = /[-+.eE0-9]+/y;

class ArgumentScan {
  constructor(
    private readonly text: string,
    /** A body is left out only when its opening quote is before this (the next trigger). */
    private readonly quoteBefore: number,
    private readonly to: number,
    private readonly skips: BodySkip[],
  ) {}

  /** Reads a call at `at` (its begin there); returns where its end string ends. */
  call(call: CallTag, at: number): number {
    const { text } = this;
    at += call.begin.length;
    for (const lead of call.lead) {
      if (lead.kind === 'const') {
        if (!text.startsWith(lead.value, at)) throw new Doubt();
        at += lead.value.length;
      } else {
        const digitsFrom = at;
        while (at < this.to && text.charCodeAt(at) >= 0x30 && text.charCodeAt(at) <= 0x39) at++;
        if (at === digitsFrom) throw new Doubt();
      }
    }
    at = this.value(at, call.schema, 0);
    if (!text.startsWith(call.end, at)) throw new Doubt();
    return at + call.end.length;
  }

  private space(at: number): number {
    const { text } = this;
    for (; at < this.to; at++) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) break;
    }
    return at;
  }

  /** A JSON value at `at` with the schema `node`; returns where it ends. */
  private value(at: number, node: SchemaNode, depth: number): number {
    if (node === null || depth > 128 || at >= this.to) throw new Doubt();
    const { text } = this;
    const c = text.charCodeAt(at);
    if (c === 0x22) return this.string(at, node === 'string' || node === 'any');
    if (c === 0x7b) return this.object(at, node, depth);
    if (c === 0x5b) return this.array(at, node, depth);
    if (c === 0x74 && text.startsWith('true', at)) return at + 4;
    if (c === 0x66 && text.startsWith('false', at)) return at + 5;
    if (c === 0x6e && text.startsWith('null', at)) return at + 4;
    NUMBER.lastIndex = at;
    if (NUMBER.test(text)) return NUMBER.lastIndex;
    throw new Doubt();
  }

  private object(at: number, node: Exclude<SchemaNode, null>, depth: number): number {
    const { text } = this;
    const properties = typeof node === 'object' && 'names' in node ? node : null;
    if (!properties && node !== 'any' && node !== 'json') throw new Doubt();
    at = this.space(at + 1);
    if (text.charCodeAt(at) === 0x7d) return at + 1;
    for (;;) {
      if (text.charCodeAt(at) !== 0x22) throw new Doubt();
      const keyEnd = this.string(at, false);
      let child: SchemaNode;
      if (!properties) child = node;
      else {
        // The key as written is a declared name (a key written with an escape is not the literal the grammar holds).
        const length = keyEnd - at - 2;
        const { names } = properties;
        let k = 0;
        while (k < names.length && ((names[k] as string).length !== length || !text.startsWith(names[k] as string, at + 1))) k++;
        child = k < names.length ? nodeOf(properties.schemas[k], properties.consistent) : null;
        if (child === null && properties.consistent) child = 'json';
      }
      at = this.space(keyEnd);
      if (text.charCodeAt(at) !== 0x3a) throw new Doubt();
      at = this.value(this.space(at + 1), child, depth + 1);
      at = this.space(at);
      const c = text.charCodeAt(at);
      if (c === 0x7d) return at + 1;
      if (c !== 0x2c) throw new Doubt();
      at = this.space(at + 1);
    }
  }

  private array(at: number, node: Exclude<SchemaNode, null>, depth: number): number {
    const { text } = this;
    const items =
      typeof node === 'object' && 'items' in node ? nodeOf(node.items, node.consistent) : node === 'any' || node === 'json' ? node : null;
    at = this.space(at + 1);
    if (text.charCodeAt(at) === 0x5d) return at + 1;
    for (;;) {
      at = this.space(this.value(at, items, depth + 1));
      const c = text.charCodeAt(at);
      if (c === 0x5d) return at + 1;
      if (c !== 0x2c) throw new Doubt();
      at = this.space(at + 1);
    }
  }

  /**
   * A JSON string at `at` (its opening quote); returns where it ends (after the closing quote). `bare`: its schema is
   * a bare string, so its body is left out when the rule takes all of it.
   */
  private string(at: number, bare: boolean): number {
    const { text, to } = this;
    const start = at + 1;
    // Character by character while the string is short (most keys and values), then by a regular expression, which
    // finds the next quote, backslash or control character of a long body faster but costs a match object each time.
    let i = start;
    for (const short = Math.min(to, start + MIN_BODY_CHARS); i < short;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return i + 1;
      i = c === 0x5c ? this.escape(i) : c < 0x20 ? this.refused() : i + 1;
    }
    BODY_STOP.lastIndex = i;
    for (let m = BODY_STOP.exec(text); m && m.index < to; m = BODY_STOP.exec(text)) {
      const j = m.index;
      const c = text.charCodeAt(j);
      if (c === 0x22) {
        if (bare && at < this.quoteBefore && j - start >= MIN_BODY_CHARS) this.skips.push({ start, end: j });
        return j + 1;
      }
      BODY_STOP.lastIndex = c === 0x5c ? this.escape(j) : this.refused();
    }
    throw new Doubt(); // Not closed before the end of the fed text.
  }

  /** Where the escape at `i` (its backslash) ends; a doubt when the rule refuses it. */
  private escape(i: number): number {
    const { text } = this;
    const e = text.charCodeAt(i + 1);
    if (e === 0x75) {
      if (i + 6 > this.to || !HEX4.test(text.slice(i + 2, i + 6))) throw new Doubt();
      return i + 6;
    }
    // " \ / b f n r t
    if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) return i + 2;
    throw new Doubt();
  }

  /** A control character: the rule refuses it, and the walk ends. */
  private refused(): never {
    throw new Doubt();
  }
}
