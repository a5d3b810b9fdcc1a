/**
 * The verifier as CI runs it, over loopback against the embedded endpoint with --hallucinate: repeats with
 * mean ± sd, pass bars that fail and pass, JUnit that validates (one case per sample and run), compare of guided
 * off and on, rerun of the failed, and the hash chain catching an edited line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../textSink.ts';
import { evalRunCommand } from '../../src/cli/evalRunCommand.ts';
import { evalCompareCommand } from '../../src/cli/evalCompareCommand.ts';
import { evalVerifyCommand } from '../../src/cli/evalVerifyCommand.ts';
import { InputError } from '../../src/cli/inputError.ts';
import { junitCounts, junitErrors } from './ciOutputs.ts';

const samples = fileURLToPath(new URL('../../samples/k2vv-requests.jsonl', import.meta.url));

async function captureStderr<T>(f: () => Promise<T>): Promise<{ value: T; stderr: string }> {
  const original = process.stderr.write.bind(process.stderr);
  let stderr = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await f(), stderr };
  } finally {
    process.stderr.write = original;
  }
}

const base = {
  engine: 'vllm' as const,
  apiKeyEnv: 'TOOLSCOPE_API_KEY',
  concurrency: 4,
  timeoutS: 30,
  resume: false,
  hallucinate: 0.5,
  seed: 7,
  toolVersion: '9.9.9-test',
};

test('eval run --repeat 3: mean ± sd across runs, JUnit per sample and run, pass bars, verify, rerun-failed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalci-'));
  try {
    const junit = join(dir, 'junit.xml');
    const json = sink();
    const run = await captureStderr(() =>
      evalRunCommand(samples, { ...base, guided: 'off', outDir: dir, repeat: 3, json: true, junit, failUnder: 'schema=0.99' }, json),
    );
    assert.equal(run.value, 1, 'hallucinating half the answers is under a 99 % schema bar');
    assert.match(run.stderr, /FAIL guided off: schema_accuracy \d+\.\d\d% is under 99\.00%/);
    const row = JSON.parse(json.text().trim()) as {
      runs: Array<{ run: number; figures: Record<string, number> }>;
      stats: Record<string, { mean: number; sd: number; min: number; max: number; n: number }>;
    };
    assert.deepEqual(
      row.runs.map((r) => r.run),
      [1, 2, 3],
    );
    const acc = row.stats.schema_accuracy;
    assert.ok(acc);
    assert.equal(acc.n, 3);
    const xs = row.runs.map((r) => r.figures.schema_accuracy as number);
    assert.ok(Math.abs(acc.mean - xs.reduce((a, b) => a + b) / 3) < 1e-12);
    assert.equal(acc.min, Math.min(...xs));
    assert.ok(acc.sd > 0, `three draws of a 50 % hallucination rate differ (${xs.join(', ')})`);
    assert.ok(row.stats.ttft_p50_ms, 'streamed replays keep timings: latency figures');
    const errorsAcross = ['invalid_json', 'unknown_name', 'schema_mismatch'].reduce(
      (n, k) => n + row.runs.reduce((m, r) => m + (r.figures[k] ?? 0), 0),
      0,
    );
    assert.ok(errorsAcross > 0, 'error classes counted');

    // Text mode shows mean ± sd (min–max); a bar it meets passes.
    const text = sink();
    const file = join(dir, 'results.guided-off.jsonl');
    const xml = await readFile(junit, 'utf8');
    assert.deepEqual(await junitErrors(xml), []);
    const counts = junitCounts(xml);
    assert.equal(counts.testcases, 12, '4 samples × 3 runs');
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { status: string; tool_calls_valid: boolean | null; run: number; toolscope_run: Record<string, unknown> },
      );
    assert.equal(lines.length, 12);
    assert.equal(counts.failures + counts.errors, lines.filter((l) => l.status !== 'success' || l.tool_calls_valid === false).length);
    assert.equal(lines[0]?.toolscope_run.version, '9.9.9-test');
    assert.equal(lines[0]?.toolscope_run.repeat, 3);
    assert.match(xml, /<failure type="(unknown_name|schema_mismatch|invalid_json)"[^>]*>TS00[345] /);

    // --rerun-failed redoes exactly the rejected (sample, run) pairs, appending; the newest line counts.
    const rejected = lines.filter((l) => l.status !== 'success' || l.tool_calls_valid === false).length;
    const again = await captureStderr(() =>
      evalRunCommand(
        samples,
        { ...base, guided: 'off', outDir: dir, repeat: 3, rerunFailed: true, failUnder: 'schema=0', hallucinate: 0.5 },
        text,
      ),
    );
    assert.equal(again.value, 0, 'a bar of 0 passes');
    assert.match(again.stderr, new RegExp(`guided off: ${rejected} requests`));
    assert.match(text.text(), /schema_accuracy\s+\d+\.\d\d% ± \d+\.\d\d \(\d+\.\d\d%–\d+\.\d\d%\)/);
    const all = (await readFile(file, 'utf8')).trim().split('\n');
    assert.equal(all.length, 12 + rejected);

    // The chain holds across the rerun; editing one line breaks it at that line.
    assert.equal(await evalVerifyCommand(file, {}, sink()), 0);
    const edited = [...all];
    edited[4] = (edited[4] as string).replace(
      /"status":"(success|failed)"/,
      (_m, s: string) => `"status":"${s === 'success' ? 'failed' : 'success'}"`,
    );
    await writeFile(file, edited.join('\n') + '\n');
    const report = sink();
    assert.equal(await evalVerifyCommand(file, {}, report), 1);
    assert.match(report.text(), /:5: content does not match its hash/);
    const removed = all.filter((_l, i) => i !== 2);
    await writeFile(file, removed.join('\n') + '\n');
    const report2 = sink();
    assert.equal(await evalVerifyCommand(file, {}, report2), 1);
    assert.match(report2.text(), /:3: chain broken.*1 line\(s\) removed/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('eval compare: guided off vs on shows the schema delta and the samples whose verdict changed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalci-'));
  try {
    await captureStderr(() => evalRunCommand(samples, { ...base, guided: 'both', outDir: dir, hallucinate: 1 }, sink()));
    const off = join(dir, 'results.guided-off.jsonl');
    const on = join(dir, 'results.guided-on.jsonl');
    const json = sink();
    assert.equal(await evalCompareCommand(off, on, { json: true }, json), 0);
    const c = JSON.parse(json.text()) as {
      figures: Array<{ figure: string; baseline: number; candidate: number; delta: number }>;
      samples: Array<{
        dataIndex: number;
        changed: string[];
        baseline: { schemaValid: boolean; findings: Record<string, number> };
        candidate: { schemaValid: boolean };
      }>;
      joined: number;
    };
    const schema = c.figures.find((f) => f.figure === 'schema_accuracy');
    assert.deepEqual(
      schema && [schema.baseline, schema.candidate, schema.delta],
      [0, 1, 1],
      'every answer broken with guided off, every one repaired with guided on',
    );
    assert.equal(c.joined, 4);
    assert.equal(c.samples.length, 4);
    for (const s of c.samples) {
      assert.ok(s.changed.includes('schema'));
      assert.deepEqual([s.baseline.schemaValid, s.candidate.schemaValid], [false, true]);
      assert.ok(
        Object.keys(s.baseline.findings).some((k) => k === 'unknown-tool' || k === 'schema-violation' || k === 'invalid-arguments-json'),
      );
    }
    const text = sink();
    await evalCompareCommand(off, on, {}, text);
    assert.match(text.text(), /schema_accuracy\s+0\.00%\s+100\.00%\s+\+100\.00 pp/);
    assert.match(text.text(), /4 of 4 joined samples changed/);
    assert.match(text.text(), /call rejected\s+call ok\s+TS00[345]/);
    assert.match(text.text(), /^baseline .*simulated answers: Toolscope's embedded endpoint, not a model\)$/m);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('simulated answers kept apart: verify names them, a stripped flag breaks the chain, compare refuses to mix them with a model’s', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalci-'));
  try {
    await captureStderr(() => evalRunCommand(samples, { ...base, guided: 'off', outDir: dir }, sink()));
    const simulated = join(dir, 'results.guided-off.jsonl');
    const lines = (await readFile(simulated, 'utf8')).trim().split('\n');
    assert.ok(
      lines.every((l) => /"simulated":true/.test(l)),
      'every line of a run against the embedded endpoint says so',
    );

    const text = sink();
    assert.equal(await evalVerifyCommand(simulated, {}, text), 0);
    assert.match(text.text(), /4 line\(s\), chain intact, all simulated answers \(Toolscope's embedded endpoint, not a model\)/);
    const json = sink();
    assert.equal(await evalVerifyCommand(simulated, { json: true }, json), 0);
    assert.equal((JSON.parse(json.text()) as { simulated: number }).simulated, 4);

    // Dropping the flag to pass a simulator's answers off as a model's: the chain catches that line.
    const stripped = join(dir, 'stripped.jsonl');
    await writeFile(stripped, lines.map((l, i) => (i === 1 ? l.replace('"simulated":true,', '') : l)).join('\n') + '\n');
    const report = sink();
    assert.equal(await evalVerifyCommand(stripped, {}, report), 1);
    assert.match(report.text(), /:2: content does not match its hash/);

    // A model's run of the same samples (the lines as a real endpoint's run writes them: no simulated flag).
    const model = join(dir, 'model.jsonl');
    const modelLines = lines.map((l) => {
      const v = JSON.parse(l) as { toolscope_run: Record<string, unknown>; toolscope_chain?: unknown };
      delete v.toolscope_run.simulated;
      delete v.toolscope_chain;
      return JSON.stringify(v);
    });
    await writeFile(model, modelLines.join('\n') + '\n');
    await assert.rejects(
      evalCompareCommand(simulated, model, {}, sink()),
      (e: Error) =>
        e instanceof InputError &&
        /the baseline results\.guided-off\.jsonl holds simulated answers \(Toolscope's embedded endpoint\), the other a model's/.test(
          e.message,
        ),
    );
    await assert.rejects(
      evalCompareCommand(model, simulated, { json: true }, sink()),
      /the candidate results\.guided-off\.jsonl holds simulated/,
    );
    // One file holding both (a resume against another endpoint) is not one run's figures either.
    const mixed = join(dir, 'mixed.jsonl');
    await writeFile(mixed, [...lines.slice(0, 2), ...modelLines.slice(2)].join('\n') + '\n');
    await assert.rejects(evalCompareCommand(mixed, mixed, {}, sink()), /the baseline mixed\.jsonl mixes simulated answers with a model's/);
    // A model's run beside a model's run compares as before, with no simulation note.
    const plain = sink();
    assert.equal(await evalCompareCommand(model, model, {}, plain), 0);
    assert.doesNotMatch(plain.text(), /simulated/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
