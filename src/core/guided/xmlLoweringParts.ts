/**
 * What the two XML lowerings for web-xgrammar 0.1.27 share: xmlArgumentLowering.ts (Qwen/GLM/MiniMax parameters)
 * and xmlElementLowering.ts (MiniMax-M3's key-named elements) build the same kind of plan over the same schema
 * reading, and fail the same way.
 */
import type { JsonObject, JsonValue } from '../trace/record.ts';
import { canonicalJson } from '../util/canonicalJson.ts';
import type { EbnfRule } from './ebnfRules.ts';
import { UnsupportedSchemaError } from './schemaSupport.ts';

/** What the EBNF patch needs to put the XML layer in place of the sentinel sequence. */
export interface XmlLoweringPlan {
  /** The const_string opening the sequence: finds the sequence's rule in the printout. */
  sentinel: string;
  /** The XML layer's rules; they refer to the sequence's values by the names in `valueNames`. */
  rules: EbnfRule[];
  /** Per value format, in order: the name the XML layer calls it (an alias of its printed rule is added). */
  valueNames: string[];
  /** The rule the sequence's rule becomes. */
  root: string;
}

/** The lowering cannot express this schema the way xgrammar does: the what-if is unavailable, with why. */
export class XmlArgumentLoweringError extends UnsupportedSchemaError {
  constructor(style: string, message: string) {
    super(`Toolscope's ${style} lowering for web-xgrammar: ${message}`);
    this.name = 'XmlArgumentLoweringError';
  }
}

export type Schema = JsonValue | boolean;
export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
export const WS = '[ \\n\\t]*';

/** Keywords xgrammar's schema cache ignores (ComputeCacheKey): they do not change which rule a schema gets. */
const ANNOTATIONS = new Set(['title', 'default', 'description', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', '$schema']);

/** xgrammar's cache key of a schema, annotations dropped: `{}` is any value, `{"type":"object"}` XML parameters. */
export function schemaCacheKey(schema: JsonObject): string {
  return canonicalJson(Object.fromEntries(Object.entries(schema).filter(([k]) => !ANNOTATIONS.has(k))));
}

/** A non-negative integer keyword (minItems, maxLength…), or `fallback` when absent or not one. */
export function count(v: JsonValue | undefined, fallback: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : fallback;
}
