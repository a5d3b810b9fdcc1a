/**
 * Key/value formats (Qwen3-Coder, GLM) write every parameter value as bare text; the tool's JSON schema says what it is. A value typed
 * string stays text; integer, number, boolean, object and array values are read as JSON (booleans and null also
 * in the Python spelling `True`/`False`/`None` the chat template itself renders), and fall back to the text when
 * they do not parse — so a wrong value reaches the schema check as the model wrote it, never silently coerced.
 */
import type { ParserOptions } from '../toolCallFormat.ts';

export interface ParameterType {
  /** The value is kept as text (string-typed, untyped, or an unknown parameter). */
  string: boolean;
  /** The schema admits null. */
  nullable: boolean;
  boolean: boolean;
}

const UNTYPED: ParameterType = { string: true, nullable: false, boolean: false };
/** An unknown parameter read as JSON when it parses (GLM's engines), else kept as text. */
export const UNTYPED_JSON: ParameterType = { string: false, nullable: true, boolean: true };

type Tools = ParserOptions['tools'];

/** The types a schema admits (`type`, a type list, `anyOf`/`oneOf` members, or guessed from enum/properties/items). */
function schemaTypes(schema: unknown, into: Set<string>, depth = 0): void {
  if (schema === null || typeof schema !== 'object' || depth > 8) return;
  const s = schema as Record<string, unknown>;
  const type = s.type;
  if (typeof type === 'string') into.add(type.toLowerCase());
  else if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') into.add(t.toLowerCase());
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const members = s[key];
    if (Array.isArray(members)) for (const m of members) schemaTypes(m, into, depth + 1);
  }
  if (into.size > 0) return;
  const values = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : [];
  for (const v of values) into.add(v === null ? 'null' : typeof v === 'object' ? (Array.isArray(v) ? 'array' : 'object') : typeof v);
  if (into.size === 0 && s.properties && typeof s.properties === 'object') into.add('object');
  if (into.size === 0 && s.items !== undefined) into.add('array');
}

/** Looks parameter types up by tool and parameter name; the first tool of a name wins (as in the checks). */
export class ParameterTypes {
  private readonly byTool = new Map<string, Record<string, unknown>>();

  /** `untyped`: how a parameter the schema does not type is read (by default as text). */
  constructor(
    tools: Tools,
    private readonly untyped: ParameterType = UNTYPED,
  ) {
    for (const t of Array.isArray(tools) ? tools : []) {
      const name = t?.function?.name;
      if (typeof name !== 'string' || this.byTool.has(name)) continue;
      const params = t.function.parameters as { properties?: unknown } | undefined;
      const props =
        params && typeof params === 'object' && params.properties && typeof params.properties === 'object'
          ? (params.properties as Record<string, unknown>)
          : {};
      this.byTool.set(name, props);
    }
  }

  of(tool: string, parameter: string): ParameterType {
    const props = this.byTool.get(tool);
    if (!props || !Object.prototype.hasOwnProperty.call(props, parameter)) return this.untyped;
    return typeOfSchema(props[parameter]);
  }

  /** The parameter's own schema (undefined for an unknown tool or parameter): nested values are typed by it. */
  schema(tool: string, parameter: string): unknown {
    const props = this.byTool.get(tool);
    return props && Object.prototype.hasOwnProperty.call(props, parameter) ? props[parameter] : undefined;
  }
}

/** How a value of this schema is read (no schema, or one that types nothing: text). */
export function typeOfSchema(schema: unknown): ParameterType {
  const types = new Set<string>();
  schemaTypes(schema, types);
  const nullable = types.has('null');
  types.delete('null');
  if (types.size === 0 || types.has('string')) return { string: true, nullable, boolean: false };
  return { string: false, nullable, boolean: types.has('boolean') };
}

/**
 * The type of a value whose format writes it beside the key (Kimi K3's `type="number"`): `string` keeps the text; any
 * other type is the value's JSON when it parses (null, true and false included), else the text — the engines'
 * `json.loads` with its fall-back, whatever the schema says.
 */
export function writtenType(type: string): ParameterType {
  return type === 'string' ? { string: true, nullable: false, boolean: false } : { string: false, nullable: false, boolean: false };
}

/** The JSON text for a value of a non-string parameter: the value as written when it is JSON, else a string. */
export function typedValueJson(value: string, type: ParameterType): string {
  const trimmed = value.trim();
  const lower = trimmed.toLowerCase();
  if (type.nullable && (lower === 'null' || lower === 'none')) return 'null';
  if (type.boolean && (lower === 'true' || lower === 'false')) return lower;
  if (trimmed !== '') {
    try {
      JSON.parse(trimmed);
      return trimmed;
    } catch {
      // falls back to the text
    }
  }
  return JSON.stringify(value);
}

/** The JSON text for a string parameter's value (null when nullable and written `null`). */
export function stringValueJson(value: string, type: ParameterType): string {
  if (type.nullable && value.trim().toLowerCase() === 'null') return 'null';
  return JSON.stringify(value);
}
