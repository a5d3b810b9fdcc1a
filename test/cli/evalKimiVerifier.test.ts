/**
 * Kimi Vendor Verifier's pre-flight output read by `eval summarize` as K2VV's results are: its tool-call schema
 * report's summary recomputed by its conftest's formula (the fixture's was written by that conftest, see
 * test/fixtures/kimi-verifier/README.md), and pytest's JUnit XML of its suites, whose tool-call schema cases give the
 * same counts by mode. Edited or hostile files say so.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../textSink.ts';
import { evalSummarizeCommand } from '../../src/cli/evalCommand.ts';
import { InputError } from '../../src/cli/inputError.ts';
import { junitCountMismatches, parseJunit } from '../../src/host/eval/junitResults.ts';
import { kimiSchemaSummary, type KimiSchemaResult } from '../../src/host/eval/kimiVerifierFigures.ts';

const fixtures = fileURLToPath(new URL('../fixtures/kimi-verifier/', import.meta.url));
const report = join(fixtures, 'tool-call-schema-report.json');
const junit = join(fixtures, 'junit.xml');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-kimi-verifier-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function summarizeJson(path: string): Promise<Record<string, unknown>> {
  const out = sink();
  assert.equal(await evalSummarizeCommand(path, { json: true }, out), 0);
  return JSON.parse(out.text()) as Record<string, unknown>;
}

interface SchemaOut {
  kimi_verifier_tool_call_schema: { summary: Record<string, unknown>; reproduced: boolean | null; problems: string[] };
}
interface JunitOut {
  kimi_verifier_junit: {
    suites: Array<Record<string, unknown>>;
    tool_call_schema_by_mode: Record<string, Record<string, number>> | null;
    all_passed: boolean;
    not_passed: Array<{ suite: string; name: string; outcome: string }>;
    count_mismatches: string[];
  };
}

test("the tool-call schema report: its summary recomputed by the verifier's formula equals the file's", async () => {
  const file = JSON.parse(await readFile(report, 'utf8')) as { summary: unknown };
  const got = (await summarizeJson(report)) as unknown as SchemaOut;
  assert.deepEqual(got.kimi_verifier_tool_call_schema.summary, file.summary);
  assert.equal(got.kimi_verifier_tool_call_schema.reproduced, true);
  assert.deepEqual(got.kimi_verifier_tool_call_schema.problems, []);
  const text = sink();
  await evalSummarizeCommand(report, {}, text);
  assert.match(text.text(), /total 6: failed 2, passed 3, skipped 1/);
  assert.match(text.text(), /stream +failed 1, passed 1, skipped 1 +33\.33%/);
  assert.match(text.text(), /its summary is reproduced/);
});

test('a summary edited after the run is not reproduced; a rerun keeps only the last record of its case', async () => {
  const file = JSON.parse(await readFile(report, 'utf8')) as { summary: { by_status: Record<string, number> }; results: unknown[] };
  const edited = join(dir, 'edited.json');
  file.summary.by_status.passed = 4;
  await writeFile(edited, JSON.stringify(file));
  assert.equal(((await summarizeJson(edited)) as unknown as SchemaOut).kimi_verifier_tool_call_schema.reproduced, false);
  // pytest-rerunfailures appends a record per try: the case failed, then passed on its rerun.
  const first: KimiSchemaResult = { suite: 'S', line: 1, mode: 'stream', selection_reason: 'object_parameter_schema', status: 'failed' };
  const summary = kimiSchemaSummary([first, { ...first, mode: 'non-stream', status: 'passed' }, { ...first, status: 'passed' }]);
  assert.deepEqual(summary, {
    total: 2,
    by_status: { passed: 2 },
    by_selection_reason: { object_parameter_schema: 2 },
    by_mode: { 'non-stream': { passed: 1 }, stream: { passed: 1 } },
  });
});

test("pytest's JUnit XML: cases by suite folder and outcome, the schema cases by mode as the report counts them, the failures named", async () => {
  const file = JSON.parse(await readFile(report, 'utf8')) as { summary: { by_mode: unknown } };
  const got = ((await summarizeJson(junit)) as unknown as JunitOut).kimi_verifier_junit;
  assert.deepEqual(got.suites, [
    { suite: 'tests/params', tests: 6, passed: 5, failed: 1, error: 0, skipped: 0 },
    { suite: 'tests/tool_call_json_schema', tests: 6, passed: 3, failed: 2, error: 0, skipped: 1 },
  ]);
  // The same run's two files agree.
  assert.deepEqual(got.tool_call_schema_by_mode, file.summary.by_mode);
  assert.equal(got.all_passed, false);
  assert.deepEqual(
    got.not_passed.map((c) => c.name),
    [
      'test_tool_call_schema_matches_case_schema[TestRangeConstraints:3:stream]',
      'test_tool_call_schema_matches_case_schema[TestAnyOf:2:non-stream]',
      'test_wrong_param_rejected[thinking-temperature]',
    ],
  );
  assert.deepEqual(got.count_mismatches, []);
  const text = sink();
  await evalSummarizeCommand(junit, {}, text);
  assert.match(text.text(), /tests\/params +6 +5 +1 +0 +0/);
  assert.match(text.text(), /3 pre-flight test\(s\) did not pass/);
});

test('JUnit: a case taken out shows against the declared counts; a DOCTYPE, broken XML or a control character cannot pass', async () => {
  const xml = await readFile(junit, 'utf8');
  const cut = xml.replace(/<testcase [^>]*name="test_no_param_succeeds\[thinking\]"[^>]*\/>/, '');
  assert.notEqual(cut, xml);
  assert.deepEqual(junitCountMismatches(parseJunit(cut)), ['suite "pytest" declares tests="12" but holds 11']);
  const bomb = join(dir, 'bomb.xml');
  await writeFile(
    bomb,
    '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><testsuites>&b;</testsuites>',
  );
  await assert.rejects(evalSummarizeCommand(bomb, {}, sink()), (e: unknown) => e instanceof InputError && /DOCTYPE/.test(e.message));
  const broken = join(dir, 'broken.xml');
  await writeFile(broken, '<testsuites><testsuite name="x"><testcase name="a"></testsuite>');
  await assert.rejects(
    evalSummarizeCommand(broken, {}, sink()),
    (e: unknown) => e instanceof InputError && /not well-formed/.test(e.message),
  );
  // A name holding an escape sequence is shown escaped (terminal text), never acted on.
  const hostile = join(dir, 'hostile.xml');
  await writeFile(
    hostile,
    '<testsuites><testsuite name="pytest" tests="1" failures="1"><testcase classname="tests.params.test_params" name="x&#27;[2J"><failure message="m"/></testcase></testsuite></testsuites>',
  );
  const out = sink();
  await evalSummarizeCommand(hostile, {}, out);
  assert.ok(!out.text().includes(String.fromCharCode(27)), 'no escape character reaches the terminal');
  assert.match(out.text(), /failed: tests\/params x/);
});
