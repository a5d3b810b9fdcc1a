/**
 * The one list of JSON-schema keywords where xgrammar's grammar and a JSON-schema validator (ajv) disagree,
 * measured with web-xgrammar 0.1.27 (xgrammar ~0.1.28 C++; vLLM's xgrammar 0.2.x may enforce more). Each entry
 * carries the probe that shows it (test/core/guided/unenforcedKeywords.test.ts runs every probe through both),
 * and is used to explain a what-if/ajv disagreement:
 * - `unenforced`: the grammar lets through a value ajv rejects (guided decoding would not have prevented it);
 * - `stricter`: the grammar refuses a value ajv accepts (guided decoding would have forced another value);
 * - `compile-error`: xgrammar refuses the schema; the engine rejects the request.
 */
import type { JsonObject, JsonValue } from '../trace/record.ts';
import { unsupportedRegexFeature } from './regexSupport.ts';

export type KeywordGapEffect = 'unenforced' | 'stricter' | 'compile-error';

export interface SchemaKeywordGap {
  id: string;
  /** The schema keyword involved. */
  keyword: string;
  effect: KeywordGapEffect;
  note: string;
  /** A property schema and a value (JSON text) on which grammar and ajv disagree as `effect` says. */
  probe: { schema: JsonObject; value: string };
  /** Whether a schema node shows the gap. */
  appliesTo(node: JsonObject): boolean;
}

const has = (node: JsonObject, key: string) => Object.prototype.hasOwnProperty.call(node, key);
const isNumberType = (node: JsonObject) => node.type === 'number' || (Array.isArray(node.type) && node.type.includes('number'));
const fractional = (v: JsonValue | undefined) => typeof v === 'number' && !Number.isInteger(v);
const isObjectSchema = (node: JsonObject) => node.type === 'object' || has(node, 'properties');

export const SCHEMA_KEYWORD_GAPS: readonly SchemaKeywordGap[] = [
  {
    id: 'multipleOf',
    keyword: 'multipleOf',
    effect: 'unenforced',
    note: 'multipleOf is ignored',
    probe: { schema: { type: 'integer', multipleOf: 5 }, value: '7' },
    appliesTo: (n) => has(n, 'multipleOf'),
  },
  {
    id: 'exclusiveMinimum',
    keyword: 'exclusiveMinimum',
    effect: 'unenforced',
    note: 'exclusiveMinimum lets the bound itself through (integers), and is ignored for numbers',
    probe: { schema: { type: 'integer', exclusiveMinimum: 1 }, value: '1' },
    appliesTo: (n) => has(n, 'exclusiveMinimum'),
  },
  {
    id: 'exclusiveMaximum-number',
    keyword: 'exclusiveMaximum',
    effect: 'unenforced',
    note: 'exclusiveMaximum on a number lets the bound itself through',
    probe: { schema: { type: 'number', exclusiveMaximum: 1.5 }, value: '1.5' },
    appliesTo: (n) => has(n, 'exclusiveMaximum') && isNumberType(n),
  },
  {
    id: 'minimum-fractional',
    keyword: 'minimum',
    effect: 'unenforced',
    note: 'a fractional minimum on a number is approximated: smaller integers get through',
    probe: { schema: { type: 'number', minimum: 1.5 }, value: '1' },
    appliesTo: (n) => isNumberType(n) && fractional(n.minimum),
  },
  {
    id: 'uniqueItems',
    keyword: 'uniqueItems',
    effect: 'unenforced',
    note: 'uniqueItems is ignored',
    probe: { schema: { type: 'array', items: { type: 'integer' }, uniqueItems: true }, value: '[1, 1]' },
    appliesTo: (n) => n.uniqueItems === true,
  },
  {
    id: 'contains',
    keyword: 'contains',
    effect: 'unenforced',
    note: 'contains is ignored',
    probe: { schema: { type: 'array', items: { type: 'integer' }, contains: { const: 3 } }, value: '[1, 2]' },
    appliesTo: (n) => has(n, 'contains'),
  },
  {
    id: 'dependentRequired',
    keyword: 'dependentRequired',
    effect: 'unenforced',
    note: 'dependentRequired is ignored',
    probe: {
      schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, dependentRequired: { a: ['b'] } },
      value: '{"a": 1}',
    },
    appliesTo: (n) => has(n, 'dependentRequired'),
  },
  {
    id: 'dependentSchemas',
    keyword: 'dependentSchemas',
    effect: 'unenforced',
    note: 'dependentSchemas is ignored',
    probe: {
      schema: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        dependentSchemas: { a: { required: ['b'] } },
      },
      value: '{"a": 1}',
    },
    appliesTo: (n) => has(n, 'dependentSchemas'),
  },
  {
    id: 'not',
    keyword: 'not',
    effect: 'unenforced',
    note: 'not is ignored',
    probe: { schema: { not: { type: 'string' } }, value: '"s"' },
    appliesTo: (n) => has(n, 'not'),
  },
  {
    id: 'if-then-else',
    keyword: 'if',
    effect: 'unenforced',
    note: 'if / then / else are ignored',
    probe: { schema: { type: 'integer', if: { minimum: 10 }, then: { multipleOf: 2 } }, value: '11' },
    appliesTo: (n) => has(n, 'if'),
  },
  {
    id: 'allOf',
    keyword: 'allOf',
    effect: 'unenforced',
    note: 'allOf with several subschemas is only partly enforced',
    probe: { schema: { allOf: [{ type: 'integer' }, { minimum: 5 }] }, value: '3' },
    appliesTo: (n) => Array.isArray(n.allOf) && n.allOf.length > 1,
  },
  {
    id: 'oneOf',
    keyword: 'oneOf',
    effect: 'unenforced',
    note: 'oneOf is treated as anyOf: a value matching several subschemas gets through',
    probe: { schema: { oneOf: [{ type: 'integer' }, { type: 'number' }] }, value: '1' },
    appliesTo: (n) => has(n, 'oneOf'),
  },
  {
    id: 'format-other',
    keyword: 'format',
    effect: 'unenforced',
    note: 'formats outside xgrammar’s set are ignored (regex, iri, idn-email, custom ones); email, date, time, date-time, duration, uri, uri-reference, uuid, ipv4, ipv6, hostname and json-pointer are enforced',
    probe: { schema: { type: 'string', format: 'regex' }, value: '"("' },
    appliesTo: (n) =>
      typeof n.format === 'string' &&
      ![
        'email',
        'date',
        'time',
        'date-time',
        'duration',
        'uri',
        'uri-reference',
        'uuid',
        'ipv4',
        'ipv6',
        'hostname',
        'json-pointer',
      ].includes(n.format),
  },
  {
    id: 'length-with-pattern',
    keyword: 'minLength',
    effect: 'unenforced',
    note: 'minLength / maxLength / format next to a pattern are ignored (only the pattern counts)',
    probe: { schema: { type: 'string', pattern: '^[a-z]+$', minLength: 3 }, value: '"ab"' },
    appliesTo: (n) => has(n, 'pattern') && (has(n, 'minLength') || has(n, 'maxLength') || has(n, 'format')),
  },
  {
    id: 'additionalProperties-true',
    keyword: 'additionalProperties',
    effect: 'unenforced',
    note: 'with additionalProperties: true a declared property may be written with any value (as an "additional" one)',
    probe: { schema: { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: true }, value: '{"a": "s"}' },
    appliesTo: (n) => n.additionalProperties === true && has(n, 'properties'),
  },
  {
    id: 'additionalProperties-default',
    keyword: 'additionalProperties',
    effect: 'stricter',
    note: 'without additionalProperties, extra properties are refused (xgrammar’s strict mode), JSON Schema allows them',
    probe: { schema: { type: 'object', properties: { a: { type: 'integer' } } }, value: '{"a": 1, "z": 2}' },
    appliesTo: (n) => isObjectSchema(n) && !has(n, 'additionalProperties') && !has(n, 'unevaluatedProperties'),
  },
  {
    id: 'property-order',
    keyword: 'properties',
    effect: 'stricter',
    note: 'properties must come in the declared order (any_order: false), JSON Schema allows any order',
    probe: { schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } }, value: '{"b": 2, "a": 1}' },
    appliesTo: (n) => {
      const props = n.properties;
      return props !== null && typeof props === 'object' && !Array.isArray(props) && Object.keys(props).length > 1;
    },
  },
  {
    id: 'pattern-anchored',
    keyword: 'pattern',
    effect: 'stricter',
    note: 'a pattern must match the whole string, JSON Schema only asks for a match somewhere',
    probe: { schema: { type: 'string', pattern: '[0-9]' }, value: '"a1b"' },
    appliesTo: (n) => typeof n.pattern === 'string' && !(n.pattern.startsWith('^') && n.pattern.endsWith('$')),
  },
  {
    id: 'patternProperties',
    keyword: 'patternProperties',
    effect: 'stricter',
    note: 'patternProperties is ignored, so the keys it allows are refused as extra properties',
    probe: { schema: { type: 'object', patternProperties: { '^x': { type: 'integer' } } }, value: '{"x1": 1}' },
    appliesTo: (n) => has(n, 'patternProperties'),
  },
  {
    id: 'maximum-fractional',
    keyword: 'maximum',
    effect: 'stricter',
    note: 'a fractional maximum on a number refuses integers written without a fraction (1 is refused, 1.0 passes)',
    probe: { schema: { type: 'number', maximum: 1.5 }, value: '1' },
    appliesTo: (n) => isNumberType(n) && (fractional(n.maximum) || fractional(n.exclusiveMaximum)),
  },
  {
    id: 'number-bounds-exponent',
    keyword: 'minimum',
    effect: 'stricter',
    note: 'a number with bounds refuses exponent notation (2e1)',
    probe: { schema: { type: 'number', minimum: 1 }, value: '2e1' },
    appliesTo: (n) => isNumberType(n) && ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].some((k) => has(n, k)),
  },
  {
    id: 'pattern-unsupported-regex',
    keyword: 'pattern',
    effect: 'compile-error',
    note: 'lookahead, lookbehind, backreferences, \\b, \\p{…} and (?i) in a pattern are refused',
    probe: { schema: { type: 'string', pattern: '^(?!x)[a-z]+$' }, value: '"abc"' },
    appliesTo: (n) => typeof n.pattern === 'string' && unsupportedRegexFeature(n.pattern) !== undefined,
  },
];

/** Keywords the grammar does not enforce (at least in some use), for a quick membership test. */
export const UNENFORCED_KEYWORDS: ReadonlySet<string> = new Set(
  SCHEMA_KEYWORD_GAPS.filter((g) => g.effect === 'unenforced').map((g) => g.keyword),
);

/** The gaps a tool schema shows, each once, with the JSON path of the first node showing it. */
export function schemaKeywordGaps(schema: JsonValue | boolean | undefined): Array<{ gap: SchemaKeywordGap; path: string }> {
  const found = new Map<string, { gap: SchemaKeywordGap; path: string }>();
  const visit = (node: JsonValue, path: string) => {
    if (Array.isArray(node)) {
      node.forEach((n, i) => visit(n, `${path}/${i}`));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const gap of SCHEMA_KEYWORD_GAPS) if (!found.has(gap.id) && gap.appliesTo(node)) found.set(gap.id, { gap, path: path || '#' });
    for (const [k, v] of Object.entries(node)) {
      // Values of these keywords are data or maps of names, not schemas themselves.
      if (k === 'enum' || k === 'const' || k === 'required' || k === 'dependentRequired' || k === 'default' || k === 'examples') continue;
      if (k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions' || k === 'dependentSchemas') {
        if (v !== null && typeof v === 'object' && !Array.isArray(v))
          for (const [name, sub] of Object.entries(v)) visit(sub, `${path}/${k}/${name}`);
        continue;
      }
      visit(v, `${path}/${k}`);
    }
  };
  if (schema !== undefined && typeof schema !== 'boolean') visit(schema, '');
  return [...found.values()];
}
