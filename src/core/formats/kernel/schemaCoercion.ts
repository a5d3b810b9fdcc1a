/**
 * vLLM's typing of a bare value by the tool's schema (vllm/tool_parsers/utils.py @
 * 017e9f4448b700e85ee16023287b025693c72b9e: `extract_types_from_schema`, `coerce_to_schema_type`), as its parser
 * engine applies it to a format whose values arrive as text (`ParserEngine._fix_arg_types` in
 * vllm/parser/engine/parser_engine.py): the types a schema admits are tried in the order null, integer, number,
 * boolean, object, array, string; the first that reads the text wins; when none does, `json.loads` of the text, else
 * the text. Results are JSON text as `json.dumps(…, ensure_ascii=False)` writes it.
 */
import { dumpsString, pyFloat, pyFloatRepr, pyIntText, pyJsonRoundTrip } from './pythonJson.ts';

const ALIASES: Readonly<Record<string, string>> = {
  str: 'string',
  text: 'string',
  varchar: 'string',
  char: 'string',
  enum: 'string',
  int: 'integer',
  int32: 'integer',
  int64: 'integer',
  uint: 'integer',
  uint32: 'integer',
  uint64: 'integer',
  long: 'integer',
  short: 'integer',
  unsigned: 'integer',
  float: 'number',
  float32: 'number',
  float64: 'number',
  double: 'number',
  bool: 'boolean',
  dict: 'object',
  arr: 'array',
  list: 'array',
  sequence: 'array',
};

/**
 * `extract_types_from_schema`: `type` (one or a list), the kinds of `enum` values, and anyOf/oneOf/allOf members
 * (a member that says nothing counts as `string`, as vLLM's recursion returns); `string` when none. As written.
 */
export function extractTypesFromSchema(schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || depth > 16) return ['string'];
  const s = schema as Record<string, unknown>;
  const types = new Set<string>();
  if (typeof s.type === 'string') types.add(s.type);
  else if (Array.isArray(s.type)) for (const t of s.type) if (typeof t === 'string') types.add(t);
  if (Array.isArray(s.enum)) for (const v of s.enum) types.add(enumValueType(v));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const members = s[key];
    if (Array.isArray(members)) for (const m of members) for (const t of extractTypesFromSchema(m, depth + 1)) types.add(t);
  }
  return types.size ? [...types] : ['string'];
}

function enumValueType(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

/** The schema's types with vLLM's aliases (`int` → `integer`, `dict` → `object`…), as `coerce_to_schema_type` reads them. */
export function schemaTypes(schema: unknown): Set<string> {
  return new Set(extractTypesFromSchema(schema).map((t) => ALIASES[t.trim().toLowerCase()] ?? t.trim().toLowerCase()));
}

const PRIORITY = ['null', 'integer', 'number', 'boolean', 'object', 'array', 'string'] as const;

/** `coerce_to_schema_type(value, types)` as the JSON text of the value it returns. */
export function coerceToSchemaType(value: string, types: ReadonlySet<string>): string {
  for (const type of PRIORITY) {
    if (!types.has(type)) continue;
    switch (type) {
      case 'null':
        if (value.toLowerCase() === 'null') return 'null';
        break;
      case 'string':
        return dumpsString(value);
      case 'integer': {
        const digits = pyIntText(value);
        if (digits !== null) return digits;
        break;
      }
      case 'number': {
        const f = pyFloat(value);
        if (f === null || !Number.isFinite(f)) break;
        // `val if val != int(val) else int(val)`: a whole float is sent as an integer.
        return Number.isInteger(f) ? BigInt(f).toString() : (pyFloatRepr(f) as string);
      }
      case 'boolean': {
        const lower = value.toLowerCase().trim();
        if (lower === 'true' || lower === '1') return 'true';
        if (lower === 'false' || lower === '0') return 'false';
        break;
      }
      default: {
        const json = pyJsonRoundTrip(value);
        if (json !== null) return json;
      }
    }
  }
  return pyJsonRoundTrip(value) ?? dumpsString(value);
}
