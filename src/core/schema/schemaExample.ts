/**
 * A small valid value for a JSON schema: what the embedded endpoint's scripted model puts in a call's
 * arguments. Covers the keywords tool schemas use (type, properties, required, enum, const, default, examples,
 * ranges, formats, items, anyOf/oneOf, $ref to local definitions); deterministic, so replays are reproducible.
 */
type Schema = Record<string, unknown>;

const FORMAT_EXAMPLES: Record<string, string> = {
  email: 'user@example.com',
  date: '2025-01-15',
  'date-time': '2025-01-15T09:30:00Z',
  time: '09:30:00',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  ipv4: '192.0.2.1',
  hostname: 'example.com',
};

function resolveRef(root: Schema, ref: string): Schema | null {
  if (!ref.startsWith('#/')) return null;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (!node || typeof node !== 'object') return null;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node && typeof node === 'object' ? (node as Schema) : null;
}

export function exampleFor(schema: unknown, root: Schema = (schema as Schema) ?? {}, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') return exampleFor(resolveRef(root, s.$ref), root, depth + 1);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length) {
      if (key === 'allOf') return Object.assign({}, ...list.map((x) => exampleFor(x, root, depth + 1) as object));
      return exampleFor(list[0], root, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type) {
    case 'object':
    case undefined: {
      if (type === undefined && !s.properties) return 'example';
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const out: Record<string, unknown> = {};
      for (const name of required) out[name] = exampleFor(props[name] ?? {}, root, depth + 1);
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      return Array.from({ length: Math.max(min, 1) }, () => exampleFor(s.items ?? { type: 'string' }, root, depth + 1));
    }
    case 'string': {
      if (typeof s.format === 'string' && FORMAT_EXAMPLES[s.format]) return FORMAT_EXAMPLES[s.format];
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      const base = 'example';
      return base.length >= min ? base : base.padEnd(min, 'x');
    }
    case 'integer':
    case 'number': {
      const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      const hi =
        typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : Math.max(lo, 10);
      const v = Math.min(Math.max(lo, 1), hi);
      return type === 'integer' ? Math.ceil(v) : v;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}
