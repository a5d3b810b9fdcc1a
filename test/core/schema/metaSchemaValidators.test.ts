/**
 * The meta-schema validators generated at build time (scripts/metaSchemaCode.ts, bundled through the
 * `precompiledMetaSchemas` plugin of scripts/build.mjs) against ajv compiling the meta-schemas at run time (the
 * source): over real-world tool schemas (the samples, the real cases, K2VV when ../shared has it), the
 * JSON-Schema-Test-Suite, the hostile schemas and broken variants of them, checked as every draft, both give the same
 * verdict and the same errors, and ToolSchemas the same results; and the bundle really never compiles a meta-schema.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type AjvCore from 'ajv/dist/core.js';
import { META_SCHEMA_IDS, SCHEMA_DRAFTS, newAjv, type SchemaDraft } from '../../../src/core/schema/schemaDrafts.ts';
import { ToolSchemas } from '../../../src/core/schema/toolSchemas.ts';
import { PRECOMPILED_META_SCHEMA_VALIDATORS } from '../../../src/core/schema/metaSchemaValidators.ts';
import type { ChatTool, JsonObject } from '../../../src/core/trace/record.ts';
import { ABORTING_CLASSES, suiteSchemas } from '../../fixtures/hostileSchemas.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const K2VV = resolve(ROOT, '../shared/data/k2vv');

interface Bundled {
  newAjv: typeof newAjv;
  ToolSchemas: typeof ToolSchemas;
  PRECOMPILED_META_SCHEMA_VALIDATORS: typeof PRECOMPILED_META_SCHEMA_VALIDATORS;
}

let dir = '';
let bundled: Bundled;

before(async () => {
  const { precompiledMetaSchemas } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as Record<string, Plugin>;
  dir = mkdtempSync(join(tmpdir(), 'toolscope-meta-schemas-'));
  const schema = join(ROOT, 'src/core/schema');
  await build({
    stdin: {
      contents: [
        `export { newAjv } from ${JSON.stringify(join(schema, 'schemaDrafts.ts'))};`,
        `export { ToolSchemas } from ${JSON.stringify(join(schema, 'toolSchemas.ts'))};`,
        `export { PRECOMPILED_META_SCHEMA_VALIDATORS } from ${JSON.stringify(join(schema, 'metaSchemaValidators.ts'))};`,
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile: join(dir, 'schema.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    plugins: [precompiledMetaSchemas as Plugin],
  });
  bundled = createRequire(import.meta.url)(join(dir, 'schema.js')) as Bundled;
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** Every tool's parameters in a trace file's records (any `tools` array, at any depth). */
function toolSchemasIn(text: string): unknown[] {
  const out: unknown[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.tools)) {
      for (const t of o.tools as Array<Record<string, unknown> | null>) {
        const f = (t?.function ?? t) as Record<string, unknown> | null;
        const p = f?.parameters ?? f?.input_schema;
        if (p !== undefined) out.push(p);
      }
    }
    Object.values(o).forEach(visit);
  };
  for (const line of text.split('\n')) {
    try {
      visit(JSON.parse(line));
    } catch {
      // Not one JSON value per line (a stream, a pretty-printed case): the whole text is tried below.
    }
  }
  try {
    visit(JSON.parse(text));
  } catch {
    // JSON Lines.
  }
  return out;
}

function realWorldSchemas(): Array<{ name: string; schema: unknown }> {
  const files = [
    ...readdirSync(join(ROOT, 'samples')).map((f) => join(ROOT, 'samples', f)),
    ...readdirSync(join(ROOT, 'test/fixtures/real/cases')).map((f) => join(ROOT, 'test/fixtures/real/cases', f)),
    ...(existsSync(K2VV) ? readdirSync(K2VV).map((f) => join(K2VV, f)) : []),
  ].filter((f) => /\.(jsonl?|sse)$/.test(f));
  const seen = new Set<string>();
  const out: Array<{ name: string; schema: unknown }> = [];
  for (const file of files) {
    for (const schema of toolSchemasIn(readFileSync(file, 'utf8'))) {
      const key = JSON.stringify(schema);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ name: `${file.slice(ROOT.length + 1)} #${out.length}`, schema });
    }
  }
  return out;
}

/** Wrong values for keywords the meta-schemas constrain: each makes a schema invalid (or valid in another draft). */
const BREAKAGES: Array<[string, unknown]> = [
  ['type', 'foo'],
  ['type', 5],
  ['required', 'a'],
  ['required', [1]],
  ['properties', 'x'],
  ['minLength', -1],
  ['maxItems', 1.5],
  ['enum', {}],
  ['items', 5],
  ['items', [{ type: 'string' }]],
  ['additionalProperties', 5],
  ['anyOf', []],
  ['pattern', 5],
  ['$ref', 5],
  ['$defs', []],
  ['$anchor', '1bad'],
  ['exclusiveMinimum', true],
  ['$id', 7],
];

/** Broken variants of a schema: one breakage at its root and one in its first property's schema. */
function broken(schema: unknown): unknown[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const s = schema as Record<string, unknown>;
  const props = s.properties as Record<string, unknown> | undefined;
  const first = props && typeof props === 'object' ? Object.keys(props)[0] : undefined;
  return BREAKAGES.flatMap(([k, v]) => [
    { ...s, [k]: v },
    ...(first === undefined ? [] : [{ ...s, properties: { ...props, [first]: { ...(props?.[first] as object), [k]: v } } }]),
  ]);
}

/** `$schema` spellings that name a draft (and two that ajv does not know under that name). */
const DRAFT_URIS: Record<SchemaDraft, string[]> = {
  'draft-04': ['http://json-schema.org/draft-04/schema#', 'http://json-schema.org/draft-04/schema'],
  'draft-06': ['http://json-schema.org/draft-06/schema#'],
  'draft-07': ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft-07/schema'],
  '2019-09': ['https://json-schema.org/draft/2019-09/schema'],
  '2020-12': ['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft/2020-12/schema#'],
};

function corpus(): Array<{ name: string; schema: unknown }> {
  const base = [
    ...realWorldSchemas(),
    ...suiteSchemas(join(import.meta.dirname, '..', '..', 'fixtures', 'json-schema-test-suite')),
    ...ABORTING_CLASSES.map((c) => ({ name: `hostile: ${c.name}`, schema: c.schema })),
  ];
  return [...base, ...base.flatMap(({ name, schema }) => broken(schema).map((b, i) => ({ name: `${name} broken #${i}`, schema: b })))];
}

/** What checking a schema against its meta-schema says: the verdict and ajv's errors, or what it threw. */
function metaCheck(ajv: AjvCore, schema: unknown): unknown {
  try {
    const valid = ajv.validateSchema(schema as JsonObject);
    return { valid, errors: ajv.errors };
  } catch (err) {
    return { threw: err instanceof Error ? err.message : String(err) };
  }
}

test('the bundle has a validator for every draft and never compiles a meta-schema', () => {
  for (const draft of SCHEMA_DRAFTS) {
    assert.equal(typeof bundled.PRECOMPILED_META_SCHEMA_VALIDATORS[META_SCHEMA_IDS[draft]], 'function', draft);
    const fast = bundled.newAjv(draft, false);
    const runtime = newAjv(draft, false);
    const schema = { $schema: DRAFT_URIS[draft][0], type: 'object', properties: { a: { type: 'string', minLength: -1 } } };
    assert.throws(() => fast.compile(schema), /schema is invalid: data\/properties\/a\/minLength must be >= 0/);
    assert.throws(() => runtime.compile(schema), /schema is invalid: data\/properties\/a\/minLength must be >= 0/);
    // ajv compiles a meta-schema into its entry the first time it checks against it: the bundle's stays as it was.
    const metaEntry = (ajv: AjvCore) => (ajv.schemas[META_SCHEMA_IDS[draft]] as { validate?: unknown } | undefined)?.validate;
    assert.equal(metaEntry(fast), undefined, `${draft}: the bundle compiled its meta-schema`);
    assert.equal(typeof metaEntry(runtime), 'function', `${draft}: from source ajv compiles the meta-schema`);
  }
  assert.deepEqual(PRECOMPILED_META_SCHEMA_VALIDATORS, {}, 'from source there are none');
});

test('precompiled and run-time meta-schema checks agree on every schema of the corpus, as every draft', (t) => {
  if (!existsSync(K2VV)) t.diagnostic('../shared/data/k2vv is absent: its tool schemas are not in the corpus');
  const schemas = corpus();
  const counts = { valid: 0, invalid: 0, threw: 0 };
  // ajv checks meta-schemas without formats either way: the format-checking kind is compared on a sample.
  for (const [draft, formats] of SCHEMA_DRAFTS.flatMap((d) => [[d, false] as const, [d, true] as const])) {
    const fast = bundled.newAjv(draft, formats);
    const runtime = newAjv(draft, formats);
    for (const { name, schema } of formats ? schemas.filter((_, i) => i % 5 === 0) : schemas) {
      for (const variant of [schema, ...DRAFT_URIS[draft].map((uri) => ({ ...(schema as object), $schema: uri }))]) {
        if (typeof variant !== 'object' || variant === null) continue;
        const expected = metaCheck(runtime, variant) as { valid?: boolean; threw?: string };
        assert.deepEqual(metaCheck(fast, variant), expected, `${draft}${formats ? ' (formats)' : ''}: ${name}`);
        counts[expected.threw !== undefined ? 'threw' : expected.valid ? 'valid' : 'invalid']++;
      }
    }
  }
  // The corpus exercises both verdicts (and the $schema spellings ajv does not know).
  assert.ok(counts.valid > 1000 && counts.invalid > 1000 && counts.threw > 0, JSON.stringify(counts));
  t.diagnostic(`${schemas.length} schemas, ${JSON.stringify(counts)}`);
});

test('ToolSchemas gives the same results bundled as from source', () => {
  const fast = new bundled.ToolSchemas();
  const runtime = new ToolSchemas();
  const tool = (parameters: unknown): ChatTool => ({ type: 'function', function: { name: 't', parameters: parameters as JsonObject } });
  const args = [{}, { a: 'x' }, { a: 1, b: [true] }];
  // ajv's warnings (unknown formats) go to the console: the same ones both ways, and not into the test's output.
  const warned: string[] = [];
  const warn = console.warn;
  console.warn = (...w: unknown[]) => void warned.push(w.join(' '));
  try {
    // Every 7th: each schema compiles twice per ajv, so the whole corpus would take long.
    for (const { name, schema } of corpus().filter((_, i) => i % 7 === 0)) {
      for (const a of args) {
        const expected = runtime.check(tool(schema), a);
        const runtimeWarnings = warned.splice(0);
        assert.deepEqual(fast.check(tool(schema), a), expected, name);
        assert.deepEqual(warned.splice(0), runtimeWarnings, name);
      }
    }
  } finally {
    console.warn = warn;
  }
});
