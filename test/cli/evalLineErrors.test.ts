/** `eval rescore` / `eval compare` name a bad line once ("line 2: …", not "line 2: line 2: …"). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadResultsOrFail } from '../../src/cli/evalRescoreCommand.ts';

test('a bad line of a results file is named once on stderr', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-eval-lines-'));
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  try {
    const path = join(dir, 'results.jsonl');
    const result = { data_index: 0, request: { messages: [{ role: 'user', content: 'hi' }] }, response: null, status: 'failed' };
    await writeFile(path, `${JSON.stringify(result)}\n{not json\n${JSON.stringify({ messages: [{ role: 'user', content: 'x' }] })}\n`);
    process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    await loadResultsOrFail(path);
  } finally {
    process.stderr.write = write;
    await rm(dir, { recursive: true, force: true });
  }
  assert.equal(written.length, 2, written.join(''));
  assert.match(written[0] ?? '', /results\.jsonl: line 2: invalid JSON/);
  assert.match(written[1] ?? '', /results\.jsonl: line 3 is a chat-request record, not a K2-Vendor-Verifier result line/);
  for (const w of written) assert.doesNotMatch(w, /line \d+: line \d+/);
});
