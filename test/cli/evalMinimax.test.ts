/**
 * MiniMax-Provider-Verifier's results read as K2VV's are: `eval rescore` reproduces the verifier's own summary.json
 * (written by its compute_summary, test/fixtures/minimax-verifier/README.md) by its published formula, says which
 * keys a tampered summary no longer matches, and `eval compare` puts a Toolscope run beside the verifier's run.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../textSink.ts';
import { evalRescoreCommand } from '../../src/cli/evalRescoreCommand.ts';
import { evalCompareCommand } from '../../src/cli/evalCompareCommand.ts';

const fixtures = fileURLToPath(new URL('../fixtures/minimax-verifier/', import.meta.url));
const results = join(fixtures, 'results.jsonl');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-minimax-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Rescored {
  minimax: {
    summary: Record<string, unknown>;
    figures: Record<string, number | null>;
    summary_file: string | null;
    differs: string[] | null;
  };
}

test("eval rescore: MiniMax's results give its summary.json again, key for key, and the README's figures", async () => {
  const out = sink();
  assert.equal(await evalRescoreCommand(results, { json: true }, out), 0);
  const got = JSON.parse(out.text()) as Rescored;
  const expected = JSON.parse(await readFile(join(fixtures, 'summary.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(got.minimax.summary, expected);
  assert.deepEqual(got.minimax.differs, []);
  assert.equal(got.minimax.summary_file, join(fixtures, 'summary.json'));
  // The README's definitions over the same counts.
  assert.deepEqual(got.minimax.figures, {
    query_success_rate: 9 / 10,
    finish_tool_calls_rate: 4 / 10,
    tool_calls_accuracy: 2 / 4,
    response_success_rate_not_only_reasoning: 9 / 10,
    language_following_success_rate: 1 / 2,
  });
});

test('eval rescore: a summary.json the results do not give is named key by key', async () => {
  const summary = JSON.parse(await readFile(join(fixtures, 'summary.json'), 'utf8')) as Record<string, unknown>;
  summary.tool_calls_successful_count = 3;
  summary.error_only_reasoning_count = 0;
  const path = join(dir, 'edited-summary.json');
  await writeFile(path, JSON.stringify(summary));
  const out = sink();
  assert.equal(await evalRescoreCommand(results, { summary: path }, out), 0);
  assert.match(out.text(), /edited-summary\.json: not reproduced in error_only_reasoning_count, tool_calls_successful_count\n/);
});

test('eval compare: a Toolscope run beside the verifier’s run, joined on data_index', async () => {
  // A Toolscope run of the same samples (K2VV's line, as `eval run` writes it): sample 3 now calls with valid arguments.
  const lines = (await readFile(results, 'utf8')).trim().split('\n');
  const own = lines.map((l) => {
    const v = JSON.parse(l) as Record<string, unknown>;
    for (const k of Object.keys(v))
      if (!['data_index', 'request', 'response', 'status', 'finish_reason', 'last_run_at', 'duration_ms', 'hash'].includes(k)) delete v[k];
    return v;
  });
  const third = own[2] as { response: { choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }> } };
  (third.response.choices[0]?.message.tool_calls[0] as { function: { arguments: string } }).function.arguments =
    '{"query": "tallest building", "top_k": 3}';
  const mine = join(dir, 'toolscope-run.jsonl');
  await writeFile(mine, own.map((v) => JSON.stringify(v)).join('\n') + '\n');
  const out = sink();
  assert.equal(await evalCompareCommand(results, mine, { json: true }, out), 0);
  const c = JSON.parse(out.text()) as {
    joined: number;
    samples: Array<{ dataIndex: number; changed: string[] }>;
    figures: Array<{ figure: string; delta: number | null }>;
  };
  assert.equal(c.joined, 10);
  assert.deepEqual(
    c.samples.map((s) => s.dataIndex),
    [3],
  );
  assert.equal(c.figures.find((f) => f.figure === 'successful_tool_call_count')?.delta, 1);
});
