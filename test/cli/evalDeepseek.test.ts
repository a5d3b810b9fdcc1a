/**
 * The DeepSeek provider verifier's attempts.jsonl in `eval rescore`: its HTTP and tool figures by its docs/metrics.md
 * definitions, and its hash chain checked — a line removed or edited breaks it at that line (exit 1).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../textSink.ts';
import { evalRescoreCommand } from '../../src/cli/evalRescoreCommand.ts';

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
