/**
 * `analyze --parquet DIR`: records.parquet and findings.parquet read back with DuckDB hold what `analyze --json`
 * prints in the same run (records, and findings per kind, severity and file); the queries of
 * docs/findings-tables.md run on them; the files are the same bytes on one thread and on several; the schema in the
 * docs is the one written.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sink } from '../textSink.ts';
import { REPO, runBuiltCli } from './builtCli.ts';
import { writeBigTrace } from './bigTrace.ts';
import { query, sqlPath } from './duckdb.ts';
import { analyzeCommand } from '../../src/cli/analyzeCommand.ts';
import { FINDING_COLUMNS, RECORD_COLUMNS, TABLES_SCHEMA_VERSION, packChunk, type Columns } from '../../src/core/tables/findingTables.ts';
import { ParquetTables } from '../../src/io/tables/parquetTables.ts';
import type { AnalyzeJsonRecord } from '../../src/cli/analyzeJson.ts';

let dir = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-parquet-'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function analyze(paths: string[], options: Parameters<typeof analyzeCommand>[1]) {
  const out = sink();
  const err = sink();
  const code = await analyzeCommand(paths, options, out, process.stdin, err);
  return { code, stdout: out.text(), stderr: err.text() };
}

/** How many of `items` there are per `key`, as a sorted list of [key, count]. */
function countBy<T>(items: readonly T[], key: (t: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const t of items) counts.set(key(t), (counts.get(key(t)) ?? 0) + 1);
  return [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

async function countsIn(table: string, column: string): Promise<[string, number][]> {
  const rows = await query(`SELECT ${column} AS k, count(*) AS n FROM ${sqlPath(table)} GROUP BY 1 ORDER BY 1`);
  return rows.map((r) => [String(r.k), Number(r.n)]);
}

test('the samples: DuckDB reads the records and findings that --json prints, per kind, severity and file', async () => {
  const out = join(dir, 'samples');
  // One run, both outputs: the JSON Lines and the tables come from the same analysis (the what-if included).
  const r = await analyze([join(REPO, 'samples')], { json: true, parquet: out, jobs: 1 });
  assert.equal(r.code, 0, r.stderr);
  const json = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AnalyzeJsonRecord | { error: string });
  const records = json.filter((o): o is AnalyzeJsonRecord => 'diagnostics' in o);
  const findings = records.flatMap((rec) => rec.diagnostics.map((d) => ({ ...d, file: rec.file })));
  assert.ok(records.length > 50 && findings.length > 50, `${records.length} records, ${findings.length} findings`);

  const recordsFile = join(out, 'records.parquet');
  const findingsFile = join(out, 'findings.parquet');
  assert.equal(Number((await query(`SELECT count(*) AS n FROM ${sqlPath(recordsFile)}`))[0]?.n), records.length);
  assert.deepEqual(
    await countsIn(findingsFile, 'kind'),
    countBy(findings, (f) => f.kind),
  );
  assert.deepEqual(
    await countsIn(findingsFile, 'severity'),
    countBy(findings, (f) => f.severity),
  );
  assert.deepEqual(
    await countsIn(findingsFile, 'file'),
    countBy(findings, (f) => f.file),
  );
  assert.deepEqual(
    await countsIn(recordsFile, 'file'),
    countBy(records, (rec) => rec.file),
  );

  // Row by row, in order: each record's line, id, format and counts.
  const rows = await query(`SELECT line, last_line, record_id, format, calls, errors, warnings, infos FROM ${sqlPath(recordsFile)}`);
  assert.deepEqual(
    rows.map((row) => [row.line, row.last_line, row.record_id, row.format, row.calls, row.errors, row.warnings, row.infos]),
    records.map((rec) => [
      rec.line,
      rec.lastLine,
      rec.id,
      rec.format,
      rec.calls.length,
      ...(['error', 'warning', 'info'] as const).map((s) => rec.diagnostics.filter((d) => d.severity === s).length),
    ]),
  );
  const ranges = await query(
    `SELECT code, token_start, token_end, char_start, char_end, call_index, path, detail, message FROM ${sqlPath(findingsFile)}`,
  );
  assert.deepEqual(
    ranges.map((f) => [f.code, f.token_start, f.token_end, f.char_start, f.char_end, f.call_index, f.path, f.detail, f.message]),
    findings.map((f) => [
      f.code,
      f.tokenStart,
      f.tokenEnd,
      f.charStart,
      f.charEnd,
      f.callIndex ?? null,
      f.path ?? null,
      f.detail ?? null,
      f.message,
    ]),
  );

  // The trace's own ids where the shape has them (OpenTelemetry spans, OpenAI Responses, Anthropic messages).
  const ids = await query(
    `SELECT count(trace_id) AS traces, count(span_id) AS spans, count(response_id) AS responses, count(model) AS models FROM ${sqlPath(recordsFile)}`,
  );
  for (const [k, v] of Object.entries(ids[0] ?? {})) assert.ok(Number(v) > 0, `no ${k} in the samples' records`);
  const meta = await query(`SELECT key::VARCHAR AS k, value::VARCHAR AS v FROM parquet_kv_metadata(${sqlPath(recordsFile)})`);
  assert.ok(meta.some((m) => m.k === 'toolscope.tables.version' && m.v === String(TABLES_SCHEMA_VERSION)));

  // The docs' queries, on these files.
  const doc = await readFile(join(REPO, 'docs/findings-tables.md'), 'utf8');
  const examples = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  assert.ok(examples.length >= 3);
  for (const sql of examples) {
    const result = await query(sql.replaceAll("'out/", `'${out}/`));
    assert.ok(result.length > 0, sql);
  }
  const perKind = await query(examples[0]!.replaceAll("'out/", `'${out}/`));
  assert.equal(
    perKind.reduce((n, row) => n + Number(row.findings), 0),
    findings.length,
  );
});

test('the big trace over ranges on three threads writes the same Parquet bytes as one thread', async () => {
  const big = join(dir, 'big.jsonl');
  await writeBigTrace(big);
  const one = await analyze([big, join(REPO, 'samples')], { json: true, guided: false, jobs: 1, parquet: join(dir, 'one') });
  const two = await analyze([big, join(REPO, 'samples')], { json: true, guided: false, jobs: 3, parquet: join(dir, 'three') });
  assert.equal(one.stdout, two.stdout);
  for (const name of ['records.parquet', 'findings.parquet']) {
    const a = await readFile(join(dir, 'one', name));
    const b = await readFile(join(dir, 'three', name));
    assert.ok(a.equals(b), `${name} differs between --jobs 1 and --jobs 3`);
  }
  const n = await query(`SELECT count(*) AS n FROM ${sqlPath(join(dir, 'three', 'records.parquet'))}`);
  assert.equal(Number(n[0]?.n), one.stdout.split('\n').filter((l) => l.includes('"diagnostics"')).length);
});

test('a --parquet folder that cannot be made is a usage error before any work', async () => {
  const file = join(dir, 'a-file');
  await writeFile(file, 'not a folder');
  await assert.rejects(analyze([join(REPO, 'samples')], { guided: false, parquet: file }), /--parquet: cannot write to/);
});

test('docs/findings-tables.md lists every column of both tables with its type and nullability', async () => {
  const doc = await readFile(join(REPO, 'docs/findings-tables.md'), 'utf8');
  for (const [heading, columns] of [
    ['### records.parquet', RECORD_COLUMNS],
    ['### findings.parquet', FINDING_COLUMNS],
  ] as const) {
    const section = doc.slice(doc.indexOf(heading)).split('\n### ')[0]?.split('\n## ')[0] ?? '';
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \| (yes|no) \|/gm)].map((m) => [m[1], m[2]?.trim(), m[3]]);
    assert.deepEqual(
      rows,
      columns.map((c) => [c.name, c.type === 'STRING' ? 'string (UTF-8)' : 'int32', c.nullable ? 'yes' : 'no']),
      heading,
    );
  }
});

/** `n` record rows (no findings) whose ids grow longer as they go, so rows differ in size. */
function recordRows(n: number): Columns {
  const records: Columns = Object.fromEntries(RECORD_COLUMNS.map((c) => [c.name, []]));
  for (let i = 0; i < n; i++) {
    for (const c of RECORD_COLUMNS) records[c.name]?.push(c.type === 'INT32' ? i : c.nullable ? null : `${c.name}-${'x'.repeat(i % 40)}`);
  }
  return records;
}

/** Rows `from` to `to` of the records, as a chunk of their own (packed: the encoding thread takes it for good). */
function slice(records: Columns, from: number, to: number) {
  return packChunk(Object.fromEntries(Object.entries(records).map(([name, cells]) => [name, cells.slice(from, to)])));
}

test('row groups end by the bytes of their rows, whatever chunks the rows came in (the encoding thread writes the same bytes)', async () => {
  const rows = recordRows(3000);
  // One chunk, then the same rows in uneven chunks: 1, 2, 3, … rows.
  const whole = await ParquetTables.create(join(dir, 'whole'), 'test', 20_000);
  whole.append(packChunk(rows));
  const a = await whole.close();
  const pieces = await ParquetTables.create(join(dir, 'pieces'), 'test', 20_000);
  for (let from = 0, size = 1; from < 3000; from += size, size++) pieces.append(slice(rows, from, Math.min(3000, from + size)));
  const b = await pieces.close();
  assert.deepEqual([a.records, b.records], [3000, 3000]);
  const recordsOf = (d: string) => join(dir, d, 'records.parquet');
  assert.ok((await readFile(recordsOf('whole'))).equals(await readFile(recordsOf('pieces'))));
  const groups = await query(
    `SELECT row_group_id, row_group_num_rows AS n FROM parquet_metadata(${sqlPath(recordsOf('pieces'))}) WHERE column_id = 0`,
  );
  // ~140 bytes a row: groups of ~140 rows, the last one partial.
  assert.ok(groups.length > 10, `${groups.length} row groups`);
  assert.equal(
    groups.reduce((n, g) => n + Number(g.n), 0),
    3000,
  );
  const back = await query(`SELECT line, record_id FROM ${sqlPath(recordsOf('pieces'))}`);
  assert.deepEqual(
    back.map((r) => [r.line, r.record_id]),
    rows.line?.map((line, i) => [line, rows.record_id?.[i]]),
  );
});

test('a write that fails on the encoding thread fails closing the tables, with its reason', async () => {
  const out = join(dir, 'vanishing');
  const tables = await ParquetTables.create(out, 'test');
  await rm(out, { recursive: true });
  tables.append(packChunk(recordRows(10)));
  await assert.rejects(tables.close(), /--parquet: writing .*vanishing failed: .*ENOENT/);
});

test('the built CLI writes the tables through its own encoding thread (dist/tablesWorker.js)', async () => {
  const out = join(dir, 'built');
  const r = runBuiltCli(['analyze', 'samples', '--no-guided', '--json', '--parquet', out]);
  assert.equal(r.status, 0, r.stderr);
  const records = r.stdout.split('\n').filter((l) => l.includes('"diagnostics"')).length;
  const n = await query(`SELECT count(*) AS n FROM ${sqlPath(join(out, 'records.parquet'))}`);
  assert.equal(Number(n[0]?.n), records);
});
