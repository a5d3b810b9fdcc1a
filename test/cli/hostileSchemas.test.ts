/**
 * Nothing lost in analysis (issue #13): a trace whose tool schemas are the JSON-Schema-Test-Suite's and the classes
 * xgrammar aborts on. `analyze --json` answers every record with its call and its findings — a guided finding
 * for each, `guided-unavailable` with the reason where xgrammar cannot compile the schema — prints only JSON Lines
 * on stdout and never an `Aborted()`. The fast suite takes every 8th suite schema; `npm run bench` takes them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { embeddedTraces } from '../../src/host/view/embeddedTrace.ts';
import { ToolSchemas } from '../../src/core/schema/toolSchemas.ts';
import { ABORTING_CLASSES, ABORTS_IN_ENGINE, everyNth, recordWithSchema, suiteSchemas, traceText } from '../fixtures/hostileSchemas.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');
const GOOD = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
const GUIDED = new Set(['TS024', 'TS025', 'TS027']);

/**
 * Schemas whose ajv validation overflows the JS stack (`$dynamicRef`, issue #13 defect 2) are the ajv side's
 * (branch schema-safety, its own tests); left out here so this test is about the grammar engine. Once ajv is
 * recursion-safe this drops nothing.
 */
function ajvSurvives(schema: unknown): boolean {
  try {
    new ToolSchemas().check({ type: 'function', function: { name: 'f', parameters: schema as Record<string, never> } }, { a: 'x' });
    return true;
  } catch {
    return false;
  }
}

function corpus() {
  const hostile = [
    ...ABORTING_CLASSES.map((c) => ({ name: c.name, schema: c.schema })),
    { name: 'aborts in the engine', schema: ABORTS_IN_ENGINE },
    ...everyNth(suiteSchemas(join(import.meta.dirname, '..', 'fixtures', 'json-schema-test-suite')), 8),
  ].filter((h) => ajvSurvives(h.schema));
  // A well-formed record after every tenth hostile one: each must keep its guided verdict.
  const records = hostile.flatMap((h, i) => [
    recordWithSchema(`h${i}`, h.schema),
    ...(i % 10 === 0 ? [recordWithSchema(`good${i}`, GOOD)] : []),
  ]);
  return { records, names: new Map(hostile.map((h, i) => [`h${i}`, h.name])) };
}

async function withTrace(text: string, fn: (path: string) => Promise<void> | void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-hostile-'));
  try {
    const path = join(dir, 'hostile.jsonl');
    await writeFile(path, text);
    await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('analyze --json over hostile schemas: every record with its call and a guided finding, stdout JSON Lines only', async () => {
  const { records, names } = corpus();
  await withTrace(traceText(records), (path) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, 'analyze', path, '--json'], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(r.status, 0, r.stderr.slice(0, 2000));
    assert.doesNotMatch(r.stdout + r.stderr, /Aborted\(|\[FATAL\]/);
    const lines = r.stdout.trimEnd().split('\n');
    const rows = lines.map((l, i) => {
      try {
        return JSON.parse(l) as { id: string; calls: unknown[]; diagnostics: Array<{ code: string; message: string }> };
      } catch {
        assert.fail(`stdout line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
      }
    });
    assert.deepEqual(
      rows.map((x) => x.id),
      records.map((x) => x.id),
    );
    let unavailable = 0;
    for (const row of rows) {
      const what = names.get(row.id) ?? row.id;
      assert.equal(row.calls.length, 1, what);
      const guided = row.diagnostics.filter((d) => GUIDED.has(d.code));
      assert.equal(guided.length, 1, `${what}: one guided finding, got ${JSON.stringify(guided)}`);
      if (row.id.startsWith('good')) assert.equal(guided[0]?.code, 'TS025', what);
      if (guided[0]?.code === 'TS027') {
        unavailable++;
        assert.match(guided[0].message, /^guided-decoding what-if skipped: xgrammar (cannot compile|aborted)/, what);
      }
    }
    assert.ok(unavailable >= ABORTING_CLASSES.length + 1, `${unavailable} guided-unavailable findings`);
  });
});

test('report (the trace editor data): the same findings, and --no-guided skips the what-if', async () => {
  const records = [
    recordWithSchema('dangling', ABORTING_CLASSES[0]?.schema),
    recordWithSchema('aborts', ABORTS_IN_ENGINE),
    recordWithSchema('good', GOOD),
  ];
  await withTrace(traceText(records), async (path) => {
    const on = await embeddedTraces([{ path, label: 't' }], 't', 'report');
    const kinds = (key: string) => new Set(on.records[key]?.diagnostics.map((d) => d.kind));
    assert.deepEqual(
      on.summaries.map((s) => [s.id, s.calls, kinds(s.key).has('guided-unavailable'), kinds(s.key).has('guided-accepts')]),
      [
        ['dangling', 1, true, false],
        ['aborts', 1, true, false],
        ['good', 1, false, true],
      ],
    );
    const off = await embeddedTraces([{ path, label: 't' }], 't', 'report', { guided: false });
    assert.equal(off.summaries.length, 3);
    assert.ok(Object.values(off.records).every((r) => !r.diagnostics.some((d) => d.kind.startsWith('guided-'))));
  });
});

/** A record whose tool schema nests `depth` object levels, written as text (JSON.stringify overflows on it). */
function deepSchemaLine(id: string, depth: number): string {
  const good = JSON.stringify(recordWithSchema(id, GOOD));
  const schema = '{"type":"object","properties":{"a":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
  return good.replace(JSON.stringify(GOOD), schema);
}

test('two schemas nested 3,000 deep: guided-unavailable for each at once, the record after them still analysed', async () => {
  const text = [deepSchemaLine('deep1', 3000), deepSchemaLine('deep2', 3000), JSON.stringify(recordWithSchema('good', GOOD))].join('\n');
  await withTrace(`${text}\n`, (path) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, 'analyze', path, '--json'], { cwd: repo, encoding: 'utf8' });
    // It crashed (RangeError at Worker.postMessage, exit 1, the rest lost) after waiting out the 30 s budget.
    assert.equal(r.status, 0, r.stderr.slice(0, 2000));
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; diagnostics: Array<{ code: string; kind: string; message: string }> });
    assert.deepEqual(
      rows.map((x) => x.id),
      ['deep1', 'deep2', 'good'],
    );
    for (const row of rows.slice(0, 2)) {
      const guided = row.diagnostics.filter((d) => GUIDED.has(d.code));
      assert.equal(guided.length, 1, JSON.stringify(row.diagnostics));
      assert.equal(guided[0]?.kind, 'guided-unavailable');
      assert.match(guided[0]?.message ?? '', /nest more than 256 levels deep/);
    }
    assert.ok(rows[2]?.diagnostics.some((d) => d.code === 'TS025'));
  });
});
