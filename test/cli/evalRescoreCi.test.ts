/**
 * `eval rescore` of the shipped K2VV results reproduces K2VV's own summary without a request; `analyze --sarif`
 * and `--junit` validate (SARIF 2.1.0 JSON schema, junit-10.xsd) with one result per finding, one case per record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../textSink.ts';
import { analyzeCommand } from '../../src/cli/analyzeCommand.ts';
import { evalRescoreCommand } from '../../src/cli/evalRescoreCommand.ts';
import { junitCounts, junitErrors, sarifErrors } from './ciOutputs.ts';

const shared = fileURLToPath(new URL('../../../shared/data/k2vv/', import.meta.url));
const samplesDir = fileURLToPath(new URL('../../samples/', import.meta.url));

test(
  "eval rescore: the shipped K2VV results give K2VV's summary again, with no endpoint at all",
  { skip: existsSync(shared) ? false : `../shared/data/k2vv is absent` },
  async () => {
    const out = sink();
    const dir = await mkdtemp(join(tmpdir(), 'toolscope-rescore-'));
    try {
      const junit = join(dir, 'junit.xml');
      assert.equal(
        await evalRescoreCommand(join(shared, 'results-99.groq-2025-09.jsonl'), { json: true, junit, failUnder: 'schema=1' }, out),
        0,
      );
      const got = JSON.parse(out.text()) as {
        summary: Record<string, unknown>;
        figures: Record<string, number>;
        changed_verdicts: unknown[];
      };
      const expected = JSON.parse(await readFile(join(shared, 'summary-99.groq-2025-09.json'), 'utf8')) as Record<string, unknown>;
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(got.summary[k], v, k);
      assert.deepEqual(got.changed_verdicts, []);
      assert.deepEqual([got.figures.invalid_json, got.figures.unknown_name, got.figures.schema_mismatch], [0, 0, 0]);
      const xml = await readFile(junit, 'utf8');
      assert.deepEqual(await junitErrors(xml), []);
      assert.deepEqual(junitCounts(xml), { testcases: 99, failures: 0, errors: 1 }, 'the one failed request is an error');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);

test('analyze --sarif / --junit: valid SARIF 2.1.0 and JUnit, one result per finding and one case per record', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-sarif-'));
  try {
    const sarif = join(dir, 'out.sarif');
    const junit = join(dir, 'junit.xml');
    const trace = join(samplesDir, 'kimi-k2-raw-completions.jsonl');
    const json = sink();
    await analyzeCommand([trace], { json: true, guided: false }, json);
    const records = json
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line?: number; diagnostics?: Array<{ code: string; severity: string }> })
      .filter((r) => r.diagnostics);
    const findings = records.flatMap((r) => r.diagnostics ?? []);
    await analyzeCommand([trace], { guided: false, sarif, junit, toolVersion: '1.2.3' }, sink());
    const log = JSON.parse(await readFile(sarif, 'utf8')) as {
      version: string;
      runs: Array<{
        tool: { driver: { rules: Array<{ id: string; name: string }> } };
        results: Array<{
          ruleId: string;
          level: string;
          locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
        }>;
      }>;
    };
    assert.deepEqual(sarifErrors(log), []);
    assert.ok(sarifErrors({ version: '2.1.0', runs: [{ results: [] }] }).length > 0, 'the validator rejects a run without its tool');
    assert.ok(
      (await junitErrors('<testsuites><testcase name="x"/></testsuites>')).length > 0,
      'the XSD rejects a test case outside a suite',
    );
    const results = log.runs[0]?.results ?? [];
    assert.ok(findings.length > 5);
    assert.equal(results.length, findings.length);
    assert.deepEqual(results.map((r) => r.ruleId).sort(), findings.map((f) => f.code).sort());
    const rule = log.runs[0]?.tool.driver.rules.find((r) => r.id === 'TS005');
    assert.equal(rule?.name, 'schema-violation');
    assert.ok(results.every((r) => r.locations[0]?.physicalLocation.artifactLocation.uri.endsWith('kimi-k2-raw-completions.jsonl')));
    assert.deepEqual(
      [...new Set(results.map((r) => r.level))].sort(),
      [...new Set(findings.map((f) => ({ error: 'error', warning: 'warning', info: 'note' })[f.severity]))].sort(),
    );
    const xml = await readFile(junit, 'utf8');
    assert.deepEqual(await junitErrors(xml), []);
    const counts = junitCounts(xml);
    assert.equal(counts.testcases, records.length);
    assert.equal(counts.failures, records.filter((r) => (r.diagnostics ?? []).some((d) => d.severity === 'error')).length);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("eval summarize shows the error classes next to K2VV's figures", async () => {
  const { evalSummarizeCommand } = await import('../../src/cli/evalCommand.ts');
  const out = sink();
  assert.equal(await evalSummarizeCommand(join(samplesDir, 'k2vv-results.jsonl'), { json: true }, out), 0);
  const s = JSON.parse(out.text()) as Record<string, unknown>;
  assert.deepEqual([s.schema_validation_error_count, s.invalid_json, s.unknown_name, s.schema_mismatch], [1, 0, 0, 1]);
});

test('eval text escapes what the file holds: a model name or finish reason cannot move the cursor or reorder the line', async () => {
  const { evalSummarizeCommand } = await import('../../src/cli/evalCommand.ts');
  const { evalVerifyCommand } = await import('../../src/cli/evalVerifyCommand.ts');
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-eval-escape-'));
  try {
    const lines = (await readFile(join(samplesDir, 'k2vv-results.jsonl'), 'utf8')).trimEnd().split('\n');
    // The model rewrites its line (carriage return, erase line) and reverses what follows (U+202E); a finish reason
    // carries an escape sequence and a C1 control.
    const hostile = lines.map((l, i) =>
      JSON.stringify({
        ...(JSON.parse(l) as Record<string, unknown>),
        ...(i === 0 ? { finish_reason: 'stop\u001b[2J\u0085' } : {}),
        request: { ...(JSON.parse(l) as { request: object }).request, model: 'kimi\r\u001b[2K✔ ok\u202Eevil' },
      }),
    );
    const path = join(dir, 'results.jsonl');
    await writeFile(path, hostile.join('\n') + '\n');
    const out = sink();
    assert.equal(await evalSummarizeCommand(path, {}, out), 0);
    const text = out.text();
    assert.match(text, /kimi\\u000D\\u001B\[2K✔ ok\\u202Eevil/);
    assert.match(text, /stop\\u001B\[2J\\u0085 1/);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the terminal
    assert.doesNotMatch(text, /[\r\u001b\u0085\u202e]/u);
    const json = sink();
    await evalSummarizeCommand(path, { json: true }, json);
    assert.doesNotMatch(json.text(), /[\u0085\u202e]/u, '--json escapes C1 and bidi characters too');
    assert.equal((JSON.parse(json.text()) as { model: string }).model, 'kimi\r\u001b[2K✔ ok\u202Eevil', 'the same value for a JSON reader');
    // eval verify quotes a duplicated key: escaped as well.
    await writeFile(path, '{"a\u202E":1,"a\u202E":2,"toolscope_chain":{"seq":1,"prev":"","hash":""}}\n');
    const verify = sink();
    assert.equal(await evalVerifyCommand(path, {}, verify), 1);
    assert.match(verify.text(), /holds the key "a\\u202E" twice/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
