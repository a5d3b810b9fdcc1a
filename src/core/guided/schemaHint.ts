/**
 * Words for what a JSON schema fragment allows at a position inside tool arguments ("an integer 1–20 for
 * top_k", "one of \"c\", \"f\" for unit", "a property name: one of \"unit\""), from the schema the tag carries.
 */
import type { JsonValue } from '../trace/record.ts';
import type { JsonFrame, JsonPrefixContext } from './jsonPrefixContext.ts';

type Schema = JsonValue | boolean | undefined;

function obj(s: Schema): Record<string, JsonValue> | undefined {
  return s !== null && typeof s === 'object' && !Array.isArray(s) ? s : undefined;
}

function num(v: JsonValue | undefined): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

function range(o: Record<string, JsonValue>, noun: string): string {
  const min = num(o.minimum) ?? num(o.exclusiveMinimum);
  const max = num(o.maximum) ?? num(o.exclusiveMaximum);
  const minOp = num(o.minimum) !== undefined ? '≥' : '>';
  const maxOp = num(o.maximum) !== undefined ? '≤' : '<';
  if (min !== undefined && max !== undefined && minOp === '≥' && maxOp === '≤') return `${noun} ${min}–${max}`;
  const parts = [min !== undefined ? `${minOp} ${min}` : '', max !== undefined ? `${maxOp} ${max}` : ''].filter(Boolean);
  return parts.length ? `${noun} ${parts.join(' and ')}` : noun;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  object: 'an object',
  array: 'an array',
};

/** A short description of the values a schema allows. */
export function describeSchema(schema: Schema): string {
  if (schema === true || schema === undefined) return 'any JSON value';
  if (schema === false) return 'no value';
  const o = obj(schema);
  if (!o) return 'any JSON value';
  if ('const' in o) return `exactly ${JSON.stringify(o.const)}`;
  if (Array.isArray(o.enum)) return `one of ${o.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = o[k];
    if (Array.isArray(alts)) return alts.map((a) => describeSchema(a)).join(' or ');
  }
  if (typeof o.$ref === 'string') return `a value matching ${o.$ref}`;
  // web-xgrammar 0.1.27 compiles an allOf of one schema as that schema, and leaves an allOf of several out (it warns
  // "Support for allOf with multiple options is still ongoing"): measured in test/core/guided/schemaHint.test.ts.
  if (Array.isArray(o.allOf) && o.type === undefined) {
    if (o.allOf.length === 1) return describeSchema(o.allOf[0] as Schema);
    if (o.allOf.length > 1) return 'any JSON value (xgrammar leaves an allOf of several schemas unenforced)';
  }
  const types = Array.isArray(o.type)
    ? o.type.filter((t): t is string => typeof t === 'string')
    : typeof o.type === 'string'
      ? [o.type]
      : [];
  if (types.length === 0) return obj(o.properties) ? 'an object' : 'any JSON value';
  return types
    .map((t) => {
      const noun = ARTICLE[t] ?? t;
      if (t === 'integer' || t === 'number') return range(o, noun);
      if (t === 'string') {
        const extra = [
          typeof o.format === 'string' ? `format ${o.format}` : '',
          typeof o.pattern === 'string' ? `pattern ${o.pattern}` : '',
          num(o.minLength) !== undefined ? `at least ${o.minLength} characters` : '',
          num(o.maxLength) !== undefined ? `at most ${o.maxLength} characters` : '',
        ].filter(Boolean);
        return extra.length ? `${noun} (${extra.join(', ')})` : noun;
      }
      if (t === 'array' && o.items !== undefined) return `${noun} of ${describeSchema(o.items as Schema)}`;
      return noun;
    })
    .join(' or ');
}

/** The schema of a container's child: a property or an array item. */
function childSchema(container: Schema, frame: JsonFrame): Schema {
  const o = obj(container);
  if (!o) return container === false ? false : true;
  if (frame.kind === 'object') {
    if (typeof frame.at !== 'string') return undefined;
    return obj(o.properties)?.[frame.at] ?? (o.additionalProperties as Schema);
  }
  const index = typeof frame.at === 'number' ? frame.at : 0;
  const prefix = o.prefixItems;
  if (Array.isArray(prefix) && index < prefix.length) return prefix[index];
  return o.items as Schema;
}

function pathLabel(frames: readonly JsonFrame[]): string {
  const parts: string[] = [];
  for (const f of frames) {
    if (f.kind === 'object' && typeof f.at === 'string') parts.push(parts.length ? `.${f.at}` : f.at);
    else if (f.kind === 'array' && typeof f.at === 'number') parts.push(`[${f.at}]`);
  }
  return parts.join('');
}

const quoteList = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(', ');

/**
 * What the schema allows where a JSON prefix stops, or undefined when the byte-level summary says it better
 * (punctuation, a complete document).
 */
export function schemaHintAt(schema: Schema, ctx: JsonPrefixContext): string | undefined {
  // The schema of the innermost container: walk every frame but the last.
  let container: Schema = schema;
  for (const f of ctx.frames.slice(0, -1)) container = childSchema(container, f);
  const top = ctx.frames[ctx.frames.length - 1];

  if (ctx.expect === 'value' || ctx.expect === 'in-value') {
    if (!top) return describeSchema(schema);
    const label = pathLabel(ctx.frames);
    const desc = describeSchema(childSchema(container, top));
    return label ? `${desc} for ${label}` : desc;
  }
  if (!top || top.kind !== 'object') return undefined;
  const o = obj(container);
  const props = Object.keys(obj(o?.properties) ?? {});
  const required = Array.isArray(o?.required) ? o.required.filter((r): r is string => typeof r === 'string') : [];
  const missing = required.filter((r) => !top.keys.includes(r));
  // xgrammar keeps the declared property order (any_order false): only properties after the last one written.
  const lastKey = ctx.expect === 'in-key' ? top.keys[top.keys.length - 1] : (top.at ?? top.keys[top.keys.length - 1]);
  const after = typeof lastKey === 'string' && props.includes(lastKey) ? props.slice(props.indexOf(lastKey) + 1) : props;
  const unseen = after.filter((p) => !top.keys.includes(p));
  // Nothing may be skipped past a required property that is still missing.
  const firstRequired = unseen.findIndex((p) => required.includes(p));
  const remaining = firstRequired >= 0 ? unseen.slice(0, firstRequired + 1) : unseen;
  const where = pathLabel(ctx.frames.slice(0, -1));
  const inObj = where ? ` in ${where}` : '';

  if (ctx.expect === 'key' || ctx.expect === 'in-key') {
    const extra = o?.additionalProperties;
    if (remaining.length === 0) return `no further property${inObj} ("}")`;
    const open = extra !== undefined && extra !== false ? ' or another property' : '';
    const req = remaining.length === 1 && required.includes(remaining[0] as string) ? ' (required)' : '';
    const names = remaining.length === 1 ? quoteList(remaining) : `one of ${quoteList(remaining)}`;
    return `a property name${inObj}: ${names}${req}${open}`;
  }
  if (ctx.expect === 'comma-or-close') {
    if (missing.length > 0)
      return `"," then the required ${missing.length > 1 ? 'properties' : 'property'} ${quoteList(missing)}${inObj} (missing)`;
    if (remaining.length === 0 && (o?.additionalProperties === undefined || o.additionalProperties === false)) {
      return `"}"${inObj}: no further properties are allowed`;
    }
  }
  return undefined;
}
