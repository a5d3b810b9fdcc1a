/**
 * Validation of tool-call arguments against the request's tool schemas, with ajv.
 * Each schema compiles once (cached by its JSON text). Structural violations and `format` mismatches are
 * told apart: K2-Vendor-Verifier does not assert `format`, so a format miss is a warning, not an error.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ChatTool, JsonObject } from '../trace/record.ts';

// ajv and ajv-formats are CommonJS with a `default` export; unwrap for both esbuild and tsx.
type AjvClass = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ?? Ajv2020Module) as AjvClass;
type AddFormats = typeof import('ajv-formats').default;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as AddFormats;

export interface SchemaFinding {
  /** JSON path in the arguments, `$` for the root (e.g. `$.filters.top_k`). */
  path: string;
  message: string;
  keyword: string;
  severity: 'error' | 'warning';
}

export type SchemaCheck =
  | { kind: 'ok' }
  | { kind: 'findings'; findings: SchemaFinding[] }
  | { kind: 'no-schema' }
  | { kind: 'bad-schema'; message: string };

interface Compiled {
  structural: ValidateFunction;
  withFormats: ValidateFunction;
}

function newAjv(validateFormats: boolean) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

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

export class ToolSchemas {
  private readonly structuralAjv = newAjv(false);
  private readonly formatAjv = newAjv(true);
  private readonly cache = new Map<string, Compiled | { error: string }>();

  /** Validates parsed arguments against a tool's `parameters`. */
  check(tool: ChatTool, args: unknown): SchemaCheck {
    const schema = tool.function.parameters;
    if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return { kind: 'no-schema' };
    const compiled = this.compile(schema);
    if ('error' in compiled) return { kind: 'bad-schema', message: compiled.error };
    const findings: SchemaFinding[] = [];
    if (!compiled.structural(args)) {
      for (const e of compiled.structural.errors ?? []) {
        findings.push({ path: jsonPath(e.instancePath), message: describe(e), keyword: e.keyword, severity: 'error' });
      }
    }
    if (!compiled.withFormats(args)) {
      for (const e of compiled.withFormats.errors ?? []) {
        if (e.keyword !== 'format') continue;
        findings.push({ path: jsonPath(e.instancePath), message: describe(e), keyword: 'format', severity: 'warning' });
      }
    }
    return findings.length ? { kind: 'findings', findings } : { kind: 'ok' };
  }

  private compile(schema: JsonObject): Compiled | { error: string } {
    const key = JSON.stringify(schema);
    let entry = this.cache.get(key);
    if (!entry) {
      try {
        entry = { structural: this.structuralAjv.compile(schema), withFormats: this.formatAjv.compile(schema) };
      } catch (err) {
        entry = { error: err instanceof Error ? err.message : String(err) };
      }
      this.cache.set(key, entry);
    }
    return entry;
  }
}
