/**
 * Which JSON Schema draft a tool schema is written in, and an ajv for it. MCP tool lists are often written by
 * zod-to-json-schema (`"$schema": "http://json-schema.org/draft-07/schema#"`); OpenAPI-derived tools still use
 * draft-04. Each draft has its own ajv class (draft-04: ajv-draft-04; 06/07: ajv; 2019-09 and 2020-12: their
 * own builds), since the same keyword means different things across drafts (`items: […]`, `exclusiveMinimum`).
 */
import type { AnySchema, CodeOptions, Options } from 'ajv';
import type AjvCore from 'ajv/dist/core.js';
import { linearRegExp } from './linearRegExp.ts';
import { PRECOMPILED_META_SCHEMA_VALIDATORS } from './metaSchemaValidators.ts';

export const SCHEMA_DRAFTS = ['draft-04', 'draft-06', 'draft-07', '2019-09', '2020-12'] as const;
export type SchemaDraft = (typeof SCHEMA_DRAFTS)[number];

/** A schema without `$schema` is read as this draft (what OpenAI's and vLLM's docs write). */
export const DEFAULT_DRAFT: SchemaDraft = '2020-12';

// `$schema` URIs without scheme and without the empty fragment: http and https, with or without `#`, are one.
const DRAFT_URIS: Record<string, SchemaDraft> = {
  'json-schema.org/draft-04/schema': 'draft-04',
  'json-schema.org/draft-06/schema': 'draft-06',
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft/2020-12/schema': '2020-12',
};

/** The id (as ajv keys it: no trailing `#`) of the meta-schema each draft's schemas are checked against. */
export const META_SCHEMA_IDS: Record<SchemaDraft, string> = {
  'draft-04': 'http://json-schema.org/draft-04/schema',
  'draft-06': 'http://json-schema.org/draft-06/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

/** The draft a schema's `$schema` names; null without one; `unknown` for a URI that is not a supported draft. */
export function schemaDraft(schema: unknown): SchemaDraft | null | 'unknown' {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema)) return null;
  const uri = (schema as { $schema: unknown }).$schema;
  if (typeof uri !== 'string') return 'unknown';
  const bare = uri
    .trim()
    .replace(/^https?:\/\//u, '')
    .replace(/#$/u, '');
  return DRAFT_URIS[bare] ?? 'unknown';
}

// CommonJS modules with a `default` export: unwrap for both esbuild and tsx.
type AjvClass = new (options: Options) => AjvCore;
const unwrap = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;

/**
 * Each draft's ajv class, required when a schema of that draft is first checked (most traces use one draft). Loaded
 * with the extension, ajv (its vocabularies, formats and every draft's class) was ~15 % of the CPU its bundle's
 * evaluation took (57 against 66 ms, loaded machine) before `activate`; the first record checked loads it now, while
 * the workbench makes the editor's webview.
 */
const CLASS_MODULES: Record<SchemaDraft, () => unknown> = {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  'draft-04': () => require('ajv-draft-04'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  'draft-06': () => require('ajv'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  'draft-07': () => require('ajv'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  '2019-09': () => require('ajv/dist/2019.js'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  '2020-12': () => require('ajv/dist/2020.js'),
};
const classes = new Map<SchemaDraft, AjvClass>();
function ajvClass(draft: SchemaDraft): AjvClass {
  let Ajv = classes.get(draft);
  if (!Ajv) classes.set(draft, (Ajv = unwrap<AjvClass>(CLASS_MODULES[draft]())));
  return Ajv;
}

type NormalizeId = typeof import('ajv/dist/compile/resolve.js').normalizeId;
let normalize: NormalizeId | undefined;
const normalizeId: NormalizeId = (id) =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (normalize ??= (require('ajv/dist/compile/resolve.js') as typeof import('ajv/dist/compile/resolve.js')).normalizeId)(id);

/**
 * The class, with `validateSchema` answered by the draft's precompiled meta-schema validator when the bundle has
 * one (metaSchemaValidators.ts) and the schema is checked against that meta-schema: the validator ajv would compile
 * from it for an ajv made by `newAjv(draft, …)`, so the same verdict and the same errors, without the compile.
 * Anything else (a boolean schema, another `$schema`, no precompiled validator) goes ajv's own way.
 */
const checkingClasses = new Map<SchemaDraft, AjvClass>();
function checkingAheadOfTime(draft: SchemaDraft): AjvClass {
  let Ajv = checkingClasses.get(draft);
  if (!Ajv) checkingClasses.set(draft, (Ajv = checkingClass(ajvClass(draft), draft)));
  return Ajv;
}

function checkingClass(Ajv: AjvClass, draft: SchemaDraft): AjvClass {
  const metaId = META_SCHEMA_IDS[draft];
  const validate = PRECOMPILED_META_SCHEMA_VALIDATORS[metaId];
  if (!validate) return Ajv;
  // Without `$schema` ajv checks against the class's default meta-schema: draft-06's class is draft-07's.
  const defaultMetaId = draft === 'draft-06' ? META_SCHEMA_IDS['draft-07'] : metaId;
  return class extends Ajv {
    override validateSchema(schema: AnySchema, throwOrLogError?: boolean): boolean | Promise<unknown> {
      const named: unknown = typeof schema === 'object' ? schema.$schema : undefined;
      const against = named === undefined ? defaultMetaId : typeof named === 'string' ? normalizeId(named) : null;
      if (typeof schema !== 'object' || against !== metaId) return super.validateSchema(schema, throwOrLogError);
      // What AjvCore.validateSchema does once it has the meta-schema's validator.
      const valid = validate(schema);
      this.errors = validate.errors;
      if (!valid && throwOrLogError) {
        const message = 'schema is invalid: ' + this.errorsText();
        if (this.opts.validateSchema === 'log') this.logger.error(message);
        else throw new Error(message);
      }
      return valid;
    }
  };
}

type AddFormats = (ajv: AjvCore) => unknown;
let formats: AddFormats | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const addFormats = (ajv: AjvCore) => (formats ??= unwrap<AddFormats>(require('ajv-formats')))(ajv);

/**
 * A new ajv for a draft. `ownProperties`: a property is present only when the arguments object has it itself
 * (`{}` has no `toString`, and `constructor` is an ordinary key). Patterns run on the linear-time engine.
 * `validateSchema: false` skips checking the schema against its draft's meta-schema (compiling that meta-schema
 * is most of a first compile's time unless the bundle has it precompiled): only for a schema another ajv has
 * already checked. `code` adds to ajv's code options (the build's standalone code generation).
 */
export function newAjv(draft: SchemaDraft, validateFormats: boolean, validateSchema = true, code: CodeOptions = {}): AjvCore {
  // An ajv made for standalone code (the build generating the validators) compiles what it checks with. (ajv checks
  // meta-schemas without formats whatever `validateFormats` says: one validator serves both kinds.)
  const Ajv = code.source ? ajvClass(draft) : checkingAheadOfTime(draft);
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    validateFormats,
    validateSchema,
    allowUnionTypes: true,
    ownProperties: true,
    code: { regExp: linearRegExp, ...code },
  });
  if (draft === 'draft-06')
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as Parameters<AjvCore['addMetaSchema']>[0]);
  addFormats(ajv);
  return ajv;
}
