/** `report` of an Inspect log shows its model calls as `analyze` does (it wrote "0 records", exit 0). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, runBuiltCli } from './builtCli.ts';

test('report of an Inspect .json log: its two records and the model call without a raw request as an error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-report-inspect-'));
  try {
    const out = join(dir, 'report.html');
    const r = runBuiltCli(['report', join(REPO, 'test/fixtures/inspect/log_read_sample.reduced.json'), '-o', out, '--no-guided']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\(2 records, /);
    const html = await readFile(out, 'utf8');
    for (const id of ['1/1/1', '1/1/2']) assert.ok(html.includes(`"id":"${id}"`), id);
    assert.match(html, /sample 1 epoch 1, model call 3 kept no raw request/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
