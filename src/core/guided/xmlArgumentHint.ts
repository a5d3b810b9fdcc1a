/**
 * Words for what an XML-style arguments grammar (Qwen3-Coder's `<parameter=KEY>VALUE</parameter>` members, GLM's
 * `<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>`, see xmlArgumentLowering.ts) allows where the arguments written so far stop: the parameters that may come next (in declared
 * order, none past a missing required one), or the value of the open parameter — raw text, a raw enum value, or a
 * JSON value described by its schema ("an integer 1–20 for days").
 */
import type { JsonValue } from '../trace/record.ts';
import type { XmlArgumentStyle } from '../formats/structuralTag/structuralTagFormat.ts';
import { jsonPrefixContext } from './jsonPrefixContext.ts';
import { describeSchema, schemaHintAt } from './schemaHint.ts';

type Schema = JsonValue | boolean | undefined;
type Obj = { [key: string]: JsonValue };
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A local `$ref` followed through the root schema (one level: enough to name what a parameter holds). */
function resolved(schema: Schema, root: Schema): Schema {
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return schema;
  let at: unknown = root;
  for (const part of schema.$ref.slice(2).split('/').filter(Boolean)) at = isObject(at) ? at[part] : undefined;
  return (at as Schema) ?? schema;
}

/** A parameter's value in the XML's own words: strings and enums are written raw, without JSON quotes. */
function describeValue(schema: Schema, valueEnd: string): string {
  if (isObject(schema)) {
    const raw = (values: JsonValue[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
    if ('const' in schema) return `exactly ${raw([schema.const as JsonValue])}`;
    if (Array.isArray(schema.enum)) return schema.enum.length === 1 ? `exactly ${raw(schema.enum)}` : `one of ${raw(schema.enum)}`;
    if (schema.type === 'string' && schema.format === undefined && schema.pattern === undefined) {
      return `text up to "${valueEnd}"`;
    }
  }
  return describeSchema(schema);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function xmlArgumentHint(style: XmlArgumentStyle, schema: Schema, written: string): string | undefined {
  const { keyBegin, keyEnd, valueBegin, valueEnd } = style;
  const root = isObject(schema) ? schema : undefined;
  const properties = isObject(root?.properties) ? Object.keys(root.properties) : [];
  const required = Array.isArray(root?.required) ? root.required.filter((r): r is string => typeof r === 'string') : [];
  const open = written.lastIndexOf(keyBegin);
  if (open >= 0 && !written.includes(valueEnd, open)) {
    const nameEnd = written.indexOf(keyEnd, open + keyBegin.length);
    if (nameEnd >= 0) {
      const key = written.slice(open + keyBegin.length, nameEnd);
      const own = isObject(root?.properties) ? root.properties[key] : undefined;
      const valueSchema = resolved(own ?? (root?.additionalProperties as Schema), schema);
      let value = written.slice(nameEnd + keyEnd.length);
      const suffix = style.keySuffixes?.find((x) => value.startsWith(x));
      if (style.keySuffixes?.length && suffix === undefined)
        return `one of ${style.keySuffixes.map((x) => `"${x}"`).join(', ')} after ${key}`;
      value = value.slice(suffix?.length ?? 0).trimStart();
      if (valueBegin) {
        if (!value.startsWith(valueBegin)) return `"${valueBegin}" for ${key}`;
        value = value.slice(valueBegin.length).trimStart();
      }
      if (!value.startsWith('{') && !value.startsWith('[')) return `${describeValue(valueSchema, valueEnd)} for ${key}`;
      const inner = schemaHintAt(valueSchema, jsonPrefixContext(value));
      return inner === undefined ? undefined : `${inner} in ${key}`;
    }
  }
  // Between parameters: the declared ones after the last written, up to the first required one still missing.
  const member = new RegExp(`${escapeRegExp(keyBegin)}([\\s\\S]*?)${escapeRegExp(keyEnd)}`, 'g');
  const seen = [...written.matchAll(member)].map((m) => m[1] as string);
  const last = seen[seen.length - 1];
  const after = last !== undefined && properties.includes(last) ? properties.slice(properties.indexOf(last) + 1) : properties;
  const unseen = after.filter((p) => !seen.includes(p));
  const firstRequired = unseen.findIndex((p) => required.includes(p));
  const next = firstRequired >= 0 ? unseen.slice(0, firstRequired + 1) : unseen;
  const tags = next.map((p) => `"${keyBegin}${p}${keyEnd}"`);
  if (firstRequired >= 0) {
    return `${tags.length === 1 ? tags[0] : `one of ${tags.join(', ')}`}${tags.length === 1 ? ' (required)' : ` (${next[next.length - 1]} is required)`}`;
  }
  if (tags.length === 0) return undefined;
  return `one of ${tags.join(', ')} or the end of the call`;
}
