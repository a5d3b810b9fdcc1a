/**
 * The DeepSeek provider verifier's attempts.jsonl in `eval rescore`: its HTTP and tool figures by its docs/metrics.md
 * definitions, and its hash chain checked — a line removed or edited breaks it at that line (exit 1). In `eval
 * compare`: a Toolscope run of the same requests (`eval run` over the attempts file) beside the verifier's run,
 * joined on each logical request's initial attempt.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../textSink.ts';
import { evalRescoreCommand } from '../../src/cli/evalRescoreCommand.ts';
import { evalRunCommand } from '../../src/cli/evalRunCommand.ts';
import { evalCompareCommand } from '../../src/cli/evalCompareCommand.ts';
import { loadSamples } from '../../src/host/eval/loadSamples.ts';
import { loadK2vvResults } from '../../src/host/eval/loadResults.ts';
import type { RunComparison } from '../../src/host/eval/compareRuns.ts';

const attempts = fileURLToPath(new URL('../fixtures/deepseek-verifier/attempts.jsonl', import.meta.url));

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-deepseek-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("eval rescore of the DeepSeek verifier's attempts: first and eventual 2xx per logical request, schema accuracy, an intact chain", async () => {
  const out = sink();
  assert.equal(await evalRescoreCommand(attempts, { json: true }, out), 0);
  const got = JSON.parse(out.text()) as { deepseek: { figures: Record<string, number | null>; chain: { lines: number; broken: unknown } } };
  assert.deepEqual(got.deepseek.figures, {
    logical_requests: 3,
    http_attempts: 4,
    http_retry_attempts: 1,
    first_http_2xx_rate: 2 / 3,
    eventual_http_2xx_rate: 1,
    scored_calls: 3,
    unscored_calls: 0,
    schema_accuracy: 1,
  });
  assert.deepEqual(got.deepseek.chain, { lines: 9, broken: null });
});

test('a line taken out of the evidence breaks the chain at the line after it', async () => {
  const lines = (await readFile(attempts, 'utf8')).trimEnd().split('\n');
  lines.splice(3, 1); // the stream's reservation
  const path = join(dir, 'attempts.jsonl');
  await writeFile(path, lines.join('\n') + '\n');
  const out = sink();
  assert.equal(await evalRescoreCommand(path, {}, out), 1);
  assert.match(out.text(), /hash chain broken at line 4: previous_hash is not the line before's record_hash\n/);
});

test("eval compare: a Toolscope run of the verifier's requests beside the verifier's run, joined per logical request", async () => {
  // One sample per logical request: the retried request's second attempt (line 9) is no sample of its own.
  assert.deepEqual(
    (await loadSamples(attempts)).samples.map((s) => s.dataIndex),
    [3, 5, 7],
  );
  // The verifier's run as results: each logical request's eventual outcome (the busy one succeeded on its retry), the
  // streamed attempt's call read from its chunks.
  const verifier = (await loadK2vvResults(attempts)).results;
  assert.deepEqual(
    verifier.map((r) => [r.dataIndex, r.status, r.finishReason]),
    [
      [3, 'success', 'tool_calls'],
      [5, 'success', 'tool_calls'],
      [7, 'success', 'tool_calls'],
    ],
  );
  const run = async (out: string, hallucinate: number) => {
    await evalRunCommand(
      attempts,
      {
        engine: 'vllm',
        apiKeyEnv: 'TOOLSCOPE_API_KEY',
        concurrency: 2,
        timeoutS: 30,
        resume: false,
        hallucinate,
        seed: 3,
        guided: 'off',
        outDir: join(dir, out),
        json: true,
        maxAnswerMb: 64,
        repeat: 1,
        toolVersion: '9.9.9-test',
      },
      sink(),
    );
    return join(dir, out, 'results.guided-off.jsonl');
  };
  const compare = async (candidate: string) => {
    const out = sink();
    // The candidate is the embedded endpoint's simulated run: refused unless asked, then labelled as simulated.
    await assert.rejects(evalCompareCommand(attempts, candidate, { json: true }, sink()), /holds simulated answers/);
    assert.equal(await evalCompareCommand(attempts, candidate, { json: true, withSimulated: true }, out), 0);
    return JSON.parse(out.text()) as RunComparison;
  };
  const clean = await compare(await run('clean', 0));
  assert.equal(clean.joined, 3);
  assert.equal(clean.candidate.answers, 'simulated');
  assert.deepEqual([clean.baseline.requests, clean.candidate.requests], [3, 3]);
  const figure = (c: RunComparison, name: string) => c.figures.find((f) => f.figure === name);
  assert.deepEqual(figure(clean, 'schema_accuracy'), { figure: 'schema_accuracy', baseline: 1, candidate: 1, delta: 0 });
  assert.deepEqual(clean.samples, []);
  // Every answer broken by the simulator: each joined request says what changed.
  const broken = await compare(await run('broken', 1));
  assert.equal(broken.joined, 3);
  assert.deepEqual(
    broken.samples.map((s) => s.dataIndex),
    [3, 5, 7],
  );
});
