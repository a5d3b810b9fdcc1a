/**
 * Validation of tool-call arguments against the request's tool schemas, with ajv.
 * Each schema compiles once (cached by its JSON text) with the draft its `$schema` names (schemaDrafts.ts).
 * Structural violations and `format` mismatches are told apart: K2-Vendor-Verifier does not assert `format`, so a
 * format miss is a warning, not an error.
 * Tool schemas are untrusted: a schema ajv cannot use (it does not compile, names an unknown draft, uses a pattern
 * the linear-time engine cannot run, or recurses without end) is a `bad-schema` result with the reason, never an
 * exception, and never a hang.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type AjvCore from 'ajv/dist/core.js';
import type { ChatTool, JsonObject } from '../trace/record.ts';
import { DEFAULT_DRAFT, SCHEMA_DRAFTS, newAjv, schemaDraft, type SchemaDraft } from './schemaDrafts.ts';
import { schemaKey } from './schemaKey.ts';

export { schemaDraft, SCHEMA_DRAFTS, type SchemaDraft } from './schemaDrafts.ts';

export interface SchemaFinding {
  /** JSON path in the arguments, `$` for the root (e.g. `$.filters.top_k`). */
  path: string;
  message: string;
  keyword: string;
  severity: 'error' | 'warning';
}

export type SchemaCheck =
  { kind: 'ok' } | { kind: 'findings'; findings: SchemaFinding[] } | { kind: 'no-schema' } | { kind: 'bad-schema'; message: string };

interface Compiled {
  draft: SchemaDraft;
  structural: ValidateFunction;
  /** Null when the schema has no `format` anywhere: that pass could only repeat the structural one. */
  withFormats: ValidateFunction | null;
}

type CacheEntry = Compiled | { error: string };

/** Matches every registered schema key; ajv keeps its meta-schemas. */
const EVERY_SCHEMA = /(?:)/u;

/** Past this many compiled schemas the cache starts over (a long eval run sees many tool sets). */
const CACHE_LIMIT = 2000;

/** Verdicts kept per compiled schema, by the arguments' text; past this many they start over. */
const VERDICT_LIMIT = 512;

const RECURSION =
  'validating against this schema recursed without end: a $ref (or $dynamicRef) leads back to itself without descending into the arguments, or the arguments are nested deeper than the validator can follow';

/** Turns ajv's instancePath (`/filters/0/top_k`) into `$.filters[0].top_k`. */
export function jsonPath(instancePath: string): string {
  if (!instancePath) return '$';
  return (
    '$' +
    instancePath
      .split('/')
      .slice(1)
      .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`))
      .join('')
  );
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required property "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `unexpected property "${String(params.additionalProperty)}"`;
    case 'enum':
      return `must be one of ${JSON.stringify(params.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? error.keyword;
  }
}

function messageOf(err: unknown): string {
  if (err instanceof RangeError)
    return 'compiling the schema recursed too deep: it is nested deeper than the validator can follow, or its $refs recurse without end';
  return err instanceof Error ? err.message : String(err);
}

/** Runs a validate function; a stack overflow (a `$ref` cycle that consumes nothing) becomes null. */
function run(validate: ValidateFunction, args: unknown): ErrorObject[] | null {
  try {
    return validate(args) ? [] : [...(validate.errors ?? [])];
  } catch (err) {
    if (err instanceof RangeError) return null;
    throw err;
  }
}

/**
 * A schema's cache key, its JSON text: JSON.stringify's (native, a few times faster than schemaKey's walk: each
 * record's schemas are objects of their own), or the walk's for a schema nested too deep for it. Both write the same
 * text for a schema read from JSON.
 */
function jsonKey(schema: JsonObject): string {
  try {
    return JSON.stringify(schema);
  } catch (err) {
    if (err instanceof RangeError) return schemaKey(schema).key;
    throw err;
  }
}

export class ToolSchemas {
  /** One ajv per draft and mode, made when first needed. */
  private readonly ajvs = new Map<string, AjvCore>();
  private readonly cache = new Map<string, CacheEntry>();
  /** The entry of a schema object already seen (a record's calls share their tool's schema object). */
  private readonly byObject = new WeakMap<JsonObject, CacheEntry>();
  /**
   * Verdicts by compiled schema and the arguments' JSON text: validating reads nothing but the schema and the value,
   * and the same text parses to the same value, so a trace that repeats a call is validated once.
   */
  private readonly verdicts = new WeakMap<Compiled, Map<string, SchemaCheck>>();

  /**
   * Validates parsed arguments against a tool's `parameters`; `text`: the JSON text `args` was parsed from, when it
   * was (the verdict is kept by it). The verdict is not to be changed: it may be given again.
   */
  check(tool: ChatTool, args: unknown, text?: string): SchemaCheck {
    const schema: unknown = tool?.function?.parameters;
    if (schema === undefined || schema === null) return { kind: 'no-schema' };
    if (typeof schema !== 'object' || Array.isArray(schema)) {
      return {
        kind: 'bad-schema',
        message: `"parameters" must be a JSON schema object, got ${Array.isArray(schema) ? 'an array' : typeof schema}`,
      };
    }
    if (Object.keys(schema).length === 0) return { kind: 'no-schema' };
    const compiled = this.compile(schema as JsonObject);
    if ('error' in compiled) return { kind: 'bad-schema', message: compiled.error };
    if (text === undefined) return this.validate(compiled, args);
    let kept = this.verdicts.get(compiled);
    const verdict = kept?.get(text);
    if (verdict) return verdict;
    const result = this.validate(compiled, args);
    // Not a recursion without end: that depends on the stack left where it ran.
    if (result.kind === 'bad-schema') return result;
    if (!kept || kept.size >= VERDICT_LIMIT) this.verdicts.set(compiled, (kept = new Map()));
    kept.set(text, result);
    return result;
  }

  private validate(compiled: Compiled, args: unknown): SchemaCheck {
    const findings: SchemaFinding[] = [];
    const structural = run(compiled.structural, args);
    if (structural === null) return { kind: 'bad-schema', message: RECURSION };
    for (const e of structural) {
      findings.push({ path: jsonPath(e.instancePath), message: describe(e), keyword: e.keyword, severity: 'error' });
    }
    for (const e of (compiled.withFormats && run(compiled.withFormats, args)) ?? []) {
      if (e.keyword !== 'format') continue;
      findings.push({ path: jsonPath(e.instancePath), message: describe(e), keyword: 'format', severity: 'warning' });
    }
    return findings.length ? { kind: 'findings', findings } : { kind: 'ok' };
  }

  /** The draft a tool's schema is validated with (what `check` used), or null when it has none or cannot be used. */
  draftOf(tool: ChatTool): SchemaDraft | null {
    const schema: unknown = tool?.function?.parameters;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return null;
    const compiled = this.compile(schema as JsonObject);
    return 'error' in compiled ? null : compiled.draft;
  }

  private compile(schema: JsonObject): CacheEntry {
    // Records are not changed once read: the same object is the same schema, without writing its key again.
    let entry = this.byObject.get(schema);
    if (entry) return entry;
    const key = jsonKey(schema);
    entry = this.cache.get(key);
    if (!entry) {
      const { declaresIds, mentionsFormat } = schemaKey(schema);
      entry = this.compileNow(schema, declaresIds, mentionsFormat);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(key, entry);
    }
    this.byObject.set(schema, entry);
    return entry;
  }

  private compileNow(schema: JsonObject, declaresIds: boolean, mentionsFormat: boolean): CacheEntry {
    const named = schemaDraft(schema);
    if (named === 'unknown') {
      return { error: `"$schema" ${JSON.stringify(schema.$schema)} is not a draft Toolscope validates with (${SCHEMA_DRAFTS.join(', ')})` };
    }
    const first = this.compileAs(named ?? DEFAULT_DRAFT, schema, declaresIds, mentionsFormat);
    // Without `$schema`, a schema written for draft-07 (tuple `items: […]`, `definitions`) is read as one.
    if ('error' in first && named === null) {
      const asDraft07 = this.compileAs('draft-07', schema, declaresIds, mentionsFormat);
      if (!('error' in asDraft07)) return asDraft07;
    }
    return first;
  }

  private compileAs(draft: SchemaDraft, schema: JsonObject, declaresIds: boolean, mentionsFormat: boolean): CacheEntry {
    const structuralAjv = this.ajv(draft, false);
    // Without a `format` anywhere, validating formats changes nothing: the format pass (a second ajv, a second
    // compile, a second validation per call) is left out.
    const formatAjv = mentionsFormat ? this.ajv(draft, true) : null;
    try {
      return { draft, structural: structuralAjv.compile(schema), withFormats: formatAjv ? formatAjv.compile(schema) : null };
    } catch (err) {
      return { error: messageOf(err) };
    } finally {
      // Compiled functions keep what they resolved. Ids stay registered in the ajv instance otherwise, and two
      // tools declaring the same `$id` differently would collide ("already exists"); a new instance costs 100 ms.
      for (const ajv of formatAjv ? [structuralAjv, formatAjv] : [structuralAjv]) {
        // A root id that is no string made the compile fail before ajv kept anything, and removeSchema would throw.
        const rootId = schema[ajv.opts.schemaId];
        if (!rootId || typeof rootId === 'string') ajv.removeSchema(declaresIds ? EVERY_SCHEMA : schema);
      }
    }
  }

  private ajv(draft: SchemaDraft, formats: boolean): AjvCore {
    const key = `${draft}/${formats}`;
    let ajv = this.ajvs.get(key);
    if (!ajv) {
      // The format pass compiles a schema the structural pass has just checked against its meta-schema (compileAs
      // compiles the structural one first): checking it again would only compile the meta-schema a second time.
      ajv = newAjv(draft, formats, !formats);
      this.ajvs.set(key, ajv);
    }
    return ajv;
  }
}
