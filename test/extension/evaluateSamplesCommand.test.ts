/**
 * "Toolscope: Evaluate Samples…" against the embedded endpoint, through a stand-in `vscode`: quick picks chosen as a
 * user would, K2VV result files written in a folder beside the samples (the samples untouched), the guided-on
 * results opened in the Toolscope editor; a second run goes to a new folder; untrusted workspaces are refused.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fake, Uri } from './fakeVscode.ts';
import { EvaluateSamplesCommand } from '../../src/extension/evaluateSamplesCommand.ts';
import { ApiKeys } from '../../src/extension/endpoints.ts';
import { summarize } from '../../src/host/eval/k2vvMetrics.ts';
import { loadK2vvResults } from '../../src/host/eval/loadResults.ts';

const SAMPLES = fileURLToPath(new URL('../../samples/k2vv-requests.jsonl', import.meta.url));
const byLabel = (prefix: string) => (items: Array<{ label: string }>) => items.find((i) => i.label.startsWith(prefix));

function command(lines: string[]) {
  const output = { appendLine: (l: string) => lines.push(l) };
  const secrets = { get: () => Promise.resolve(undefined) };
  return new EvaluateSamplesCommand(new ApiKeys(secrets as never), output as never);
}

test('evaluate samples: embedded endpoint, 30 % broken, guided both → results beside the samples, opened in the editor', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalcmd-'));
  try {
    const samples = join(dir, 'k2vv-requests.jsonl');
    await copyFile(SAMPLES, samples);
    const before = await readFile(samples);
    const lines: string[] = [];
    fake.trusted = true;
    fake.executed.length = 0;
    fake.picks.push(byLabel('Embedded'), byLabel('30 %'), byLabel('Kimi K2'), byLabel('Both'));
    await command(lines).run(Uri.file(samples) as never);
    const out = join(dir, 'k2vv-requests.toolscope-eval');
    const off = summarize((await loadK2vvResults(join(out, 'results.guided-off.jsonl'))).results);
    const on = summarize((await loadK2vvResults(join(out, 'results.guided-on.jsonl'))).results);
    assert.equal(off.success_count + off.failure_count, 4);
    assert.ok(off.schema_validation_error_count > 0, JSON.stringify(off));
    assert.equal(on.schema_validation_error_count, 0);
    assert.deepEqual(await readFile(samples), before, 'the samples are never written');
    const opened = fake.executed.find((c) => c[0] === 'vscode.openWith');
    assert.equal((opened?.[1] as Uri).fsPath, join(out, 'results.guided-on.jsonl'));
    assert.equal(opened?.[2], 'toolscope.trace');
    assert.ok(
      fake.progress.some((m) => /guided on: 8\/8/.test(m)),
      fake.progress.join(' | '),
    );
    assert.match(lines.join('\n'), /results\.guided-on\.jsonl: 4 requests, 4 tool_calls, 0 schema errors, schema accuracy 100\.00 %/);

    // Again: the folder exists; "Start a new run" keeps it and writes to the next one.
    fake.picks.push(byLabel('Embedded'), byLabel('No broken'), byLabel('Kimi K2'), byLabel('On'), byLabel('Start a new run'));
    await command(lines).run(Uri.file(samples) as never);
    assert.ok(existsSync(join(dir, 'k2vv-requests.toolscope-eval-2', 'results.guided-on.jsonl')));
    assert.ok(!existsSync(join(dir, 'k2vv-requests.toolscope-eval-2', 'results.guided-off.jsonl')));
    assert.equal((await loadK2vvResults(join(out, 'results.guided-off.jsonl'))).results.length, 4, 'the first run is kept');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('evaluate samples against a simulated Hermes model: its calls parsed as Hermes, guided on by its own tag', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalcmd-'));
  try {
    const samples = join(dir, 'k2vv-requests.jsonl');
    await copyFile(SAMPLES, samples);
    const lines: string[] = [];
    fake.trusted = true;
    fake.pickTitles.length = 0;
    fake.picks.push(byLabel('Embedded'), byLabel('30 %'), byLabel('Hermes'), byLabel('Both'));
    await command(lines).run(Uri.file(samples) as never);
    assert.ok(fake.pickTitles.includes('Which format should the simulated model write its tool calls in?'), fake.pickTitles.join(' | '));
    const out = join(dir, 'k2vv-requests.toolscope-eval');
    const off = await loadK2vvResults(join(out, 'results.guided-off.jsonl'));
    const on = summarize((await loadK2vvResults(join(out, 'results.guided-on.jsonl'))).results);
    assert.ok(summarize(off.results).schema_validation_error_count > 0);
    assert.equal(on.schema_validation_error_count, 0);
    assert.equal(on.finish_tool_calls, 4);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('evaluate samples is refused in an untrusted workspace, with the reason', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalcmd-'));
  try {
    const samples = join(dir, 's.jsonl');
    await copyFile(SAMPLES, samples);
    fake.trusted = false;
    fake.warnings.length = 0;
    fake.picks.length = 0;
    await command([]).run(Uri.file(samples) as never);
    assert.match(fake.warnings.join('\n'), /untrusted workspaces/);
    assert.ok(!existsSync(join(dir, 's.toolscope-eval')));
  } finally {
    fake.trusted = true;
    await rm(dir, { recursive: true, force: true });
  }
});
