/**
 * A Langfuse Parquet export of 100,000 observations (bench/langfuseParquet.ts, the fixture's shape) in a single row
 * group — what ClickHouse writes when the rows fit its group's bounds, the hardest case for memory — is read by the
 * built CLI bundle's reader in a child process within a loose memory bound: the reader holds a slice of a row group's
 * rows at a time, not the row group (reading it whole peaked at 489–494 MB). Speed is the bench's
 * (`node dist/bench.js --table-import`), not a unit test's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLangfuseObservations } from '../../../bench/langfuseParquet.ts';
import { ensureBuilt, ROOT } from '../../webview/harness.ts';

test('100k Langfuse observations in one Parquet row group: every generation read, peak RSS of the reading process under 500 MB', async () => {
  ensureBuilt();
  // `npm test` builds first; run on its own, build the bench bundle when it is missing.
  if (!existsSync(join(ROOT, 'dist', 'bench.js'))) spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-table-memory-'));
  try {
    const file = join(dir, 'observations.parquet');
    writeLangfuseObservations(file, 100_000, 100_000);
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'bench.js'), '--table-import-child', file], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { records: number; errors: number; maxRssKb: number };
    assert.deepEqual([got.records, got.errors], [90_000, 0]);
    assert.ok(got.maxRssKb / 1024 < 500, `peak RSS ${(got.maxRssKb / 1024).toFixed(0)} MB`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
