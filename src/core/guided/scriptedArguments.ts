/**
 * A scripted call's arguments as the simulated model meant them, for guided decoding aligned by key: the object's
 * members with each value's raw text (kept byte for byte where the grammar allows it) and the script's own
 * spacing, plus the values to fall back on when the grammar refuses one: the nearest enum value, a number clamped
 * into range, the scripted text as a string, then what the schema itself offers. Pure; the grammar decides which
 * candidate is taken (constrainedDecoding.ts).
 */
import { exampleFor } from '../schema/schemaExample.ts';

type Schema = Record<string, unknown>;

export interface ScriptedMember {
  key: string;
  /** The value's text as the script wrote it. */
  raw: string;
  value: unknown;
}

export interface ScriptedObject {
  members: ScriptedMember[];
  /** Text after `{` (before the first key), between members (`, `), after a key (`: `), before `}`. */
  open: string;
  separator: string;
  colon: string;
  close: string;
}

const WS = /[ \t\n\r]*/y;

function skipWs(text: string, at: number): number {
  WS.lastIndex = at;
  WS.exec(text);
  return WS.lastIndex;
}

/** End (exclusive) of the JSON value starting at `at`, or -1; strings and brackets are matched, not parsed. */
function valueEnd(text: string, at: number): number {
  let depth = 0;
  let i = at;
  for (; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) return -1;
      if (depth === 0) return i + 1;
      continue;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (ch === ',' || /\s/.test(ch))) return i;
  }
  return depth === 0 ? i : -1;
}

/** The script's argument text read as one JSON object with raw member values; null when it is not one. */
export function readScriptedObject(text: string): ScriptedObject | null {
  let i = skipWs(text, 0);
  if (text[i] !== '{') return null;
  const out: ScriptedObject = { members: [], open: '', separator: ', ', colon: ': ', close: '' };
  let sepSeen = false;
  let colonSeen = false;
  const afterOpen = i + 1;
  i = skipWs(text, afterOpen);
  out.open = text.slice(afterOpen, i);
  if (text[i] === '}') {
    out.open = '';
    return text.slice(skipWs(text, i + 1)).length === 0 ? out : null;
  }
  for (;;) {
    const keyEnd = valueEnd(text, i);
    if (text[i] !== '"' || keyEnd < 0) return null;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return null;
    }
    const colonAt = skipWs(text, keyEnd);
    if (text[colonAt] !== ':') return null;
    const valueAt = skipWs(text, colonAt + 1);
    if (!colonSeen) {
      out.colon = text.slice(keyEnd, valueAt);
      colonSeen = true;
    }
    const end = valueEnd(text, valueAt);
    if (end <= valueAt) return null;
    const raw = text.slice(valueAt, end);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
    // A repeated key: the last one wins, as in JSON.parse.
    const dup = out.members.findIndex((m) => m.key === key);
    if (dup >= 0) out.members.splice(dup, 1);
    out.members.push({ key: key as string, raw, value });
    const next = skipWs(text, end);
    if (text[next] === '}') {
      out.close = text.slice(end, next);
      return text.slice(skipWs(text, next + 1)).length === 0 ? out : null;
    }
    if (text[next] !== ',') return null;
    i = skipWs(text, next + 1);
    if (!sepSeen) {
      out.separator = text.slice(end, i);
      sepSeen = true;
    }
  }
}

/** Resolves a local `$ref` (one level at a time, bounded). */
export function resolveSchema(schema: unknown, root: unknown): Schema | null {
  let s = schema;
  for (let n = 0; n < 8 && s && typeof s === 'object' && typeof (s as Schema).$ref === 'string'; n++) {
    const ref = (s as Schema).$ref as string;
    if (!ref.startsWith('#/')) return null;
    let node: unknown = root;
    for (const part of ref.slice(2).split('/'))
      node = node && typeof node === 'object' ? (node as Schema)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    s = node;
  }
  return s && typeof s === 'object' && !Array.isArray(s) ? (s as Schema) : null;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j] as number;
      row[j] = Math.min(up + 1, (row[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length] as number;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function types(s: Schema): string[] {
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

/** A value from the schema itself: `default`, `examples`, `const`, the first `enum`, else a short typed placeholder. */
export function schemaValues(schema: unknown, root: unknown): string[] {
  const s = resolveSchema(schema, root) ?? {};
  const out: unknown[] = [];
  if ('default' in s) out.push(s.default);
  if (Array.isArray(s.examples)) out.push(...s.examples);
  if ('const' in s) out.push(s.const);
  if (Array.isArray(s.enum) && s.enum.length) out.push(s.enum[0]);
  out.push(exampleFor(s, (root ?? {}) as Schema));
  return out.map((v) => JSON.stringify(v) ?? 'null');
}

/**
 * What the model would write instead of a refused scripted value, nearest first: the enum value closest to the
 * scripted text, the number clamped into range, the scripted text as a string or a number; then the schema's own.
 */
export function valueCandidates(member: ScriptedMember, schema: unknown, root: unknown): string[] {
  const s = resolveSchema(schema, root) ?? {};
  const out: unknown[] = [];
  const v = member.value;
  if (Array.isArray(s.enum) && s.enum.length) {
    const wanted = asText(v).toLowerCase();
    out.push(...[...s.enum].sort((a, b) => editDistance(wanted, asText(a).toLowerCase()) - editDistance(wanted, asText(b).toLowerCase())));
  }
  const t = types(s);
  const numeric = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
  if ((t.includes('integer') || t.includes('number')) && numeric !== null) {
    const integer = !t.includes('number');
    let lo = typeof s.minimum === 'number' ? s.minimum : -Infinity;
    let hi = typeof s.maximum === 'number' ? s.maximum : Infinity;
    if (typeof s.exclusiveMinimum === 'number') lo = Math.max(lo, integer ? Math.floor(s.exclusiveMinimum) + 1 : s.exclusiveMinimum);
    if (typeof s.exclusiveMaximum === 'number') hi = Math.min(hi, integer ? Math.ceil(s.exclusiveMaximum) - 1 : s.exclusiveMaximum);
    let n = Math.min(Math.max(numeric, lo), hi);
    if (integer) n = Math.min(Math.max(Math.round(n), Math.ceil(lo)), Math.floor(hi));
    if (Number.isFinite(n)) out.push(n);
  }
  if (t.includes('string') && typeof v !== 'string' && v !== null && typeof v !== 'object') out.push(String(v));
  if (t.includes('string') && typeof v === 'string' && typeof s.maxLength === 'number' && v.length > s.maxLength)
    out.push(v.slice(0, s.maxLength));
  if (t.includes('boolean') && (v === 'true' || v === 'false')) out.push(v === 'true');
  const texts = out.map((x) => JSON.stringify(x) as string);
  return [...new Set([...texts, ...schemaValues(s, root)])].filter((x) => x !== member.raw);
}

/** A member the guided writer tries to write, in the order xgrammar asks for them. */
export interface PlannedMember {
  key: string;
  /** The property's schema (`{}` for a key the schema does not declare). */
  schema: unknown;
  declared: boolean;
  required: boolean;
  /** What the script wrote for it; null for a required key the script lacks. */
  scripted: ScriptedMember | null;
  /** Values to try, nearest first: the script's own, then the nearest the schema allows (or the schema's own). */
  candidates(): string[];
}

/**
 * The members of a scripted object as guided decoding writes them: the declared properties in the schema's order
 * (those the script wrote, and required ones it lacks), then the script's undeclared keys as written — which stay
 * only where the grammar takes them.
 */
export function plannedMembers(obj: ScriptedObject, schemaNode: unknown, root: unknown): PlannedMember[] {
  const schema = resolveSchema(schemaNode, root) ?? {};
  const props = (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const byKey = new Map(obj.members.map((m) => [m.key, m]));
  const out: PlannedMember[] = [];
  for (const [key, schemaOf] of Object.entries(props)) {
    const scripted = byKey.get(key) ?? null;
    byKey.delete(key);
    if (!scripted && !required.includes(key)) continue;
    out.push({
      key,
      schema: schemaOf,
      declared: true,
      required: required.includes(key),
      scripted,
      candidates: scripted ? () => [scripted.raw, ...valueCandidates(scripted, schemaOf, root)] : () => schemaValues(schemaOf, root),
    });
  }
  for (const m of byKey.values())
    out.push({ key: m.key, schema: {}, declared: false, required: false, scripted: m, candidates: () => [m.raw] });
  return out;
}
