/**
 * web-xgrammar 0.1.27 writes a property name into its grammar as `"\"" + name + "\""` and reads that back as an
 * EBNF string literal, so a name's backslashes are taken as EBNF escapes and a `"` or a line break ends the literal
 * (an abort). The grammar then wants `{"a\b": …}` for the property `a\b`, where JSON (and the model) writes
 * `{"a\\b": …}`. Handing it the name already JSON-escaped and then EBNF-escaped gives the literal JSON spells,
 * as xgrammar 0.2 matches it. Names JSON writes as they are (most) are left alone.
 */
import type { JsonValue } from '../trace/record.ts';

/** The name as the EBNF literal's text that reads back as the name's JSON spelling (without the quotes). */
export function xgrammarPropertyName(name: string): string {
  const json = JSON.stringify(name).slice(1, -1);
  if (json === name) return name;
  return json.replace(/[\\"]/g, (c) => `\\${c}`);
}

const SUBSCHEMA = [
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
];
const SUBSCHEMA_LISTS = ['prefixItems', 'anyOf', 'oneOf', 'allOf', 'items'];
const SUBSCHEMA_MAPS = ['patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Deeper schemas are refused before lowering (schemaSupport.ts); this only bounds the walk. */
const MAX_DEPTH = 200;

type Obj = { [key: string]: JsonValue };
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of a JSON schema with every `properties` name and `required` entry given as xgrammarPropertyName. */
export function escapePropertyNames<T extends JsonValue | boolean>(schema: T, depth = 0): T {
  if (!isObject(schema) || depth > MAX_DEPTH) return schema;
  const out: Obj = { ...schema };
  const sub = (v: JsonValue) => escapePropertyNames(v, depth + 1);
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [xgrammarPropertyName(k), sub(v)]));
  }
  if (Array.isArray(schema.required)) out.required = schema.required.map((r) => (typeof r === 'string' ? xgrammarPropertyName(r) : r));
  for (const k of SUBSCHEMA) if (isObject(schema[k])) out[k] = sub(schema[k]);
  for (const k of SUBSCHEMA_LISTS) {
    const list = schema[k];
    if (Array.isArray(list)) out[k] = list.map(sub);
  }
  for (const k of SUBSCHEMA_MAPS) {
    const map = schema[k];
    if (isObject(map)) out[k] = Object.fromEntries(Object.entries(map).map(([name, v]) => [name, sub(v)]));
  }
  return out as T;
}
