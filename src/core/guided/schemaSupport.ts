/**
 * JSON schemas web-xgrammar 0.1.27 cannot compile, found before the compile: it answers them with a `[FATAL]`
 * check and `abort()` (or a bare WASM exception), which says nothing useful and may leave the module broken. Each
 * class below was measured by feeding hostile schemas (the JSON-Schema-Test-Suite, test/fixtures) through the
 * engine; the reason is said in words. The walk follows what xgrammar compiles — the schema from its root and the
 * `$ref` targets reached — so an unused `$defs` entry or a keyword xgrammar ignores (`not`, `if`, `contains`…)
 * is not held against the schema. Whatever this misses is caught by the worker (guidedEngine.ts).
 */
import { assertRegexesSupported, unsupportedRegexFeature } from './regexSupport.ts';
import { toolOfAnyTag } from './tagTools.ts';
import { walkFormats, type StructuralTag } from '../formats/structuralTag/structuralTagFormat.ts';

export class UnsupportedSchemaError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnsupportedSchemaError';
  }
}

/** Deeper than this, nested object schemas overflow xgrammar's WASM stack ("memory access out of bounds" at 53). */
export const MAX_SCHEMA_DEPTH = 50;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'];
const COUNT_PAIRS = [
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
  ['minProperties', 'maxProperties'],
  ['minContains', 'maxContains'],
] as const;
/** xgrammar keeps integer bounds in int64. */
const INT64 = 2 ** 63;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const q = (s: string) => JSON.stringify(s);

/** A pattern no regex dialect reads (xgrammar's parser refuses it too), or one xgrammar does not support. */
function regexProblem(pattern: string): string | undefined {
  const feature = unsupportedRegexFeature(pattern);
  if (feature) return `the regex ${q(pattern)} uses ${feature}, which xgrammar does not support`;
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return undefined;
    } catch {
      // try the other reading
    }
  }
  return `the regex ${q(pattern)} is not a valid regular expression`;
}

interface Walk {
  root: unknown;
  /** `$ref` targets already walked (recursive schemas are fine for xgrammar). */
  seen: Set<unknown>;
  /** Inside a subschema with its own `$id`: its `#/…` refs are relative to it, which xgrammar handles its own way. */
  idScopes: number;
}

/** Where a local `$ref` leads the way xgrammar resolves it: literal segments, empty ones skipped, objects only. */
function resolveRef(ref: string, root: unknown): { target: unknown } | { problem: string } {
  if (ref === '#') return { target: root };
  if (!ref.startsWith('#/')) return { target: undefined };
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (part === '') continue;
    if (Array.isArray(at)) return { problem: `$ref ${q(ref)} points into an array; xgrammar resolves $ref through objects only` };
    if (!isObject(at) || !own(at, part)) {
      if (/~[01]|%[0-9a-fA-F]{2}/.test(part)) {
        return { problem: `$ref ${q(ref)} uses JSON-pointer escapes (~0, ~1, %xx), which xgrammar does not decode` };
      }
      return { problem: `the $ref \`${ref}\` points to nothing` };
    }
    at = at[part];
  }
  return { target: at };
}

function subschemaProblem(value: unknown, where: string, falseAllowed: boolean, w: Walk, depth: number): string | undefined {
  if (value === true) return undefined;
  if (value === false) return falseAllowed ? undefined : `${where} is \`false\` (a schema nothing matches), which xgrammar refuses`;
  if (!isObject(value)) return `${where} is ${JSON.stringify(value)?.slice(0, 40)}: a schema must be an object or a boolean`;
  return schemaNodeProblem(value, where, w, depth + 1);
}

function schemaNodeProblem(s: Obj, where: string, w: Walk, depth: number): string | undefined {
  const scoped = depth > 0 && typeof s.$id === 'string';
  if (scoped) w.idScopes++;
  try {
    return nodeProblem(s, where, w, depth);
  } finally {
    if (scoped) w.idScopes--;
  }
}

function nodeProblem(s: Obj, where: string, w: Walk, depth: number): string | undefined {
  if (depth > MAX_SCHEMA_DEPTH)
    return `the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep (at ${where}); xgrammar runs out of stack`;
  const at = ` at ${where}`;
  // type
  if (own(s, 'type')) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) {
      if (typeof t !== 'string') return `"type"${at} must be a string or a list of strings, not ${JSON.stringify(t)}`;
      if (!TYPES.has(t)) return `"type"${at} is ${q(t)}, not a JSON-schema type`;
    }
  }
  if (own(s, 'enum') && (!Array.isArray(s.enum) || s.enum.length === 0))
    return `"enum"${at} must be a non-empty list (nothing would match)`;
  if (own(s, 'required') && (!Array.isArray(s.required) || s.required.some((r) => typeof r !== 'string'))) {
    return `"required"${at} must be a list of property names`;
  }
  // numbers
  for (const k of BOUNDS) {
    if (!own(s, k)) continue;
    const v = s[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) return `"${k}"${at} is ${JSON.stringify(v)}, not a finite number`;
  }
  for (const k of COUNTS) {
    if (!own(s, k)) continue;
    const v = s[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return `"${k}"${at} is ${JSON.stringify(v)}, not a non-negative integer`;
  }
  const types = new Set(Array.isArray(s.type) ? s.type : [s.type]);
  for (const [lo, hi] of COUNT_PAIRS) {
    // xgrammar reads contains counts only for a declared array (measured: without `type` they are ignored).
    if (lo === 'minContains' && !types.has('array')) continue;
    if (own(s, lo) && own(s, hi) && (s[lo] as number) > (s[hi] as number)) return `"${lo}" ${s[lo]} is greater than "${hi}" ${s[hi]}${at}`;
  }
  const rangeProblem = numberRangeProblem(s, at);
  if (rangeProblem) return rangeProblem;
  // regexes
  if (own(s, 'pattern')) {
    if (typeof s.pattern !== 'string') return `"pattern"${at} must be a string`;
    const p = regexProblem(s.pattern);
    if (p) return `${p}${at}`;
  }
  // $ref: followed once; a reference cycle is a recursive schema, which xgrammar compiles
  if (own(s, '$ref')) {
    if (typeof s.$ref !== 'string') return `"$ref"${at} must be a string`;
    const r = resolveRef(s.$ref, w.root);
    if ('problem' in r) {
      if (w.idScopes === 0) return r.problem;
    } else if (r.target === false) {
      return `$ref ${q(s.$ref)} points to \`false\` (a schema nothing matches), which xgrammar refuses`;
    } else if (r.target !== undefined && !w.seen.has(r.target)) {
      w.seen.add(r.target);
      const p = subschemaProblem(r.target, s.$ref, false, w, depth);
      if (p) return p;
    }
  }
  // object keywords
  if (own(s, 'properties')) {
    if (!isObject(s.properties)) return `"properties"${at} must be an object`;
    for (const [name, sub] of Object.entries(s.properties)) {
      const p = subschemaProblem(sub, `${where}/properties/${name}`, false, w, depth);
      if (p) return p;
    }
  }
  if (own(s, 'patternProperties')) {
    if (!isObject(s.patternProperties)) return `"patternProperties"${at} must be an object`;
    for (const [pattern, sub] of Object.entries(s.patternProperties)) {
      const rp = regexProblem(pattern);
      if (rp) return `${rp} (a patternProperties key${at})`;
      // Their schemas are compiled only for a declared object (measured: without `type`, `false` passes).
      const p = subschemaProblem(sub, `${where}/patternProperties/${pattern}`, !types.has('object'), w, depth);
      if (p) return p;
    }
  }
  for (const k of ['additionalProperties', 'unevaluatedProperties', 'propertyNames', 'additionalItems', 'unevaluatedItems']) {
    if (!own(s, k)) continue;
    const p = subschemaProblem(s[k], `${where}/${k}`, true, w, depth);
    if (p) return p;
  }
  // array keywords
  if (own(s, 'items')) {
    if (Array.isArray(s.items)) return `"items"${at} is a list (draft-7 tuple form); xgrammar reads only "prefixItems" for tuples`;
    const p = subschemaProblem(s.items, `${where}/items`, true, w, depth);
    if (p) return p;
  }
  for (const k of ['prefixItems', 'anyOf', 'oneOf', 'allOf']) {
    if (!own(s, k)) continue;
    const list = s[k];
    if (!Array.isArray(list)) return `"${k}"${at} must be a list of schemas`;
    if (list.length === 0 && k !== 'prefixItems' && k !== 'allOf') return `"${k}"${at} is empty (nothing would match)`;
    // An allOf of several schemas is not compiled by 0.1.27 (it warns and leaves it out); one schema is.
    if (k === 'allOf' && list.length > 1) continue;
    for (let i = 0; i < list.length; i++) {
      const p = subschemaProblem(list[i], `${where}/${k}/${i}`, false, w, depth);
      if (p) return p;
    }
  }
  return undefined;
}

/** Number bounds xgrammar refuses: an empty range, integer bounds outside int64. */
function numberRangeProblem(s: Obj, at: string): string | undefined {
  const types = new Set(Array.isArray(s.type) ? s.type : [s.type]);
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const [min, max, xmin, xmax] = [num('minimum'), num('maximum'), num('exclusiveMinimum'), num('exclusiveMaximum')];
  if (types.has('integer')) {
    for (const [k, v] of [
      ['minimum', min],
      ['maximum', max],
      ['exclusiveMinimum', xmin],
      ['exclusiveMaximum', xmax],
    ] as const) {
      if (v !== undefined && Math.abs(v) >= INT64) return `"${k}"${at} is ${v}, beyond the 64-bit integers xgrammar counts in`;
    }
    const lo = Math.max(min === undefined ? -Infinity : Math.ceil(min), xmin === undefined ? -Infinity : Math.floor(xmin) + 1);
    const hi = Math.min(max === undefined ? Infinity : Math.floor(max), xmax === undefined ? Infinity : Math.ceil(xmax) - 1);
    if (lo > hi) return `no integer lies between the bounds${at} (minimum greater than maximum)`;
  } else if (min !== undefined && max !== undefined && min > max) {
    return `"minimum" ${min} is greater than "maximum" ${max}${at}`;
  }
  return undefined;
}

/** Why xgrammar cannot compile this JSON schema, in words; undefined when it can (as far as is known). */
export function schemaProblem(schema: unknown): string | undefined {
  const w: Walk = { root: schema, seen: new Set([schema]), idScopes: 0 };
  return subschemaProblem(schema, '#', false, w, -1);
}

/** Throws UnsupportedSchemaError for the first json_schema of the tag xgrammar cannot compile, naming its tool. */
export function assertSchemasSupported(tag: StructuralTag): void {
  for (const f of walkFormats(tag.format)) {
    if (f.type !== 'tag' || f.content.type !== 'sequence') continue;
    for (const e of f.content.elements) {
      if (e.type !== 'json_schema') continue;
      const problem = schemaProblem(e.json_schema);
      if (!problem) continue;
      const name = toolOfAnyTag(f.begin);
      const tool = name !== undefined ? `tool ${name}` : `the tag ${q(f.begin)}`;
      throw new UnsupportedSchemaError(`xgrammar cannot compile the parameters of ${tool}: ${problem}`);
    }
  }
  for (const f of walkFormats(tag.format)) {
    if (f.type !== 'json_schema') continue;
    const problem = schemaProblem(f.json_schema);
    if (problem) throw new UnsupportedSchemaError(`xgrammar cannot compile a json_schema of the tag: ${problem}`);
  }
}

/** Why xgrammar cannot compile a tag (a regex or a schema in it), in words; undefined when it can, as far as is known. */
export function tagProblem(tag: StructuralTag): string | undefined {
  try {
    assertRegexesSupported(tag);
    assertSchemasSupported(tag);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
