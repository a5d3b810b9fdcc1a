/**
 * Values written as nested elements (MiniMax-M3: a parameter is a tag named after its key, an object or an array is
 * child tags inside it) turned into JSON by the tool's schema, as vLLM's Rust tool parsers convert them
 * (rust/src/parser/src/tool/parameters.rs, `convert_with_optional_schema`, vllm-project/vllm@017e9f4):
 *
 * - an element with children is an object of them, each typed by the schema's `properties` (else
 *   `additionalProperties`); a name written twice collects its values in an array; where the schema says array,
 *   every child is an item (whatever its name), typed by `items`; `anyOf`/`oneOf` take the first member that reads it;
 * - text beside children, when not blank, is kept under `$text` (`$$text` … when a child has that name);
 * - an element without children is its text, typed as the key/value kernel types a value (parameterTypes.ts).
 */
import { stringValueJson, typeOfSchema, typedValueJson } from './parameterTypes.ts';

/** One element as written: its name, its own text (children's text excluded), its children in order. */
export interface ElementNode {
  name: string;
  text: string;
  children: ElementNode[];
}

type Schema = Record<string, unknown>;

const asSchema = (s: unknown): Schema | undefined => (s !== null && typeof s === 'object' && !Array.isArray(s) ? (s as Schema) : undefined);

/** The schema's members of `anyOf` / `oneOf`, or the schema itself. */
function alternatives(schema: Schema): Schema[] {
  for (const key of ['anyOf', 'oneOf']) {
    const members = schema[key];
    if (Array.isArray(members) && schema.type === undefined) return members.map(asSchema).filter((m): m is Schema => m !== undefined);
  }
  return [schema];
}

function typeNames(schema: Schema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t.toLowerCase()];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase());
  if (schema.items !== undefined) return ['array'];
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return ['object'];
  return [];
}

/** The JSON value of an element (the whole parameter or one of its children) under `schema` (undefined: none). */
export function elementValue(node: ElementNode, schema: unknown, depth = 0): unknown {
  if (node.children.length === 0) return JSON.parse(leafJson(node.text, schema)) as unknown;
  const s = asSchema(schema);
  if (s && depth < 32) {
    for (const alt of alternatives(s)) {
      const types = typeNames(alt);
      if (types.includes('object')) return objectOf(node, alt, depth);
      if (types.includes('array')) return node.children.map((c) => elementValue(c, alt.items, depth + 1));
    }
  }
  return objectOf(node, undefined, depth);
}

function leafJson(text: string, schema: unknown): string {
  const type = typeOfSchema(schema);
  return type.string ? stringValueJson(text, type) : typedValueJson(text, type);
}

function objectOf(node: ElementNode, schema: Schema | undefined, depth: number): Record<string, unknown> {
  const properties = asSchema(schema?.properties);
  const additional = asSchema(schema?.additionalProperties);
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (!Object.prototype.hasOwnProperty.call(out, key)) {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    const existing = out[key];
    if (Array.isArray(existing)) existing.push(value);
    else out[key] = [existing, value];
  };
  for (const child of node.children) {
    const own = properties && Object.prototype.hasOwnProperty.call(properties, child.name) ? properties[child.name] : additional;
    put(child.name, elementValue(child, own, depth + 1));
  }
  if (node.text.trim() !== '') {
    let key = '$text';
    while (node.children.some((c) => c.name === key)) key = `$${key}`;
    put(key, node.text);
  }
  return out;
}
