/**
 * Logs and exports that are not line-addressed, opened in the trace editor (chromium, the VS Code page over a real
 * TraceSession): an Inspect log, and a Langfuse export as CSV and as Parquet (written by DuckDB, a test dependency).
 * Each model call is a record numbered by its row; a record built from parsed messages only says which checks could
 * not run.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
  browserMissing,
  ensureBuilt,
  launch,
  openPage,
  openVsCodePage,
  PageServer,
  reportData,
  ROOT,
  selectRecord,
  shot,
} from './harness.ts';
import { query, sqlPath } from '../cli/duckdb.ts';

const missing = browserMissing();
const INSPECT = join(ROOT, 'test', 'fixtures', 'inspect', 'log_read_sample.reduced.json');
const LANGFUSE_CSV = join(ROOT, 'test', 'fixtures', 'langfuse', 'observations_v2.csv');
const LANGFUSE_JSONL = join(ROOT, 'test', 'fixtures', 'langfuse', 'observations_v2.jsonl');

let browser: Browser;
let server: PageServer;
let tmp: string;

const skip = (t: TestContext) => {
  if (missing) t.skip(missing);
  return Boolean(missing);
};

describe('Inspect logs and exported tables in the trace editor (chromium)', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-exports-editor-'));
    server = new PageServer();
    await server.start();
    browser = await launch();
  });

  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test("an Inspect log opens: its model events' raw exchanges as records, the one without as an unreadable entry", async (t) => {
    if (skip(t)) return;
    const data = await reportData([INSPECT]);
    assert.ok(data.summaries.length >= 2);
    const { page, done } = await openPage(browser, null);
    const host = await openVsCodePage(page, server, INSPECT, '/inspect-log.html');
    await page.locator('.list-count', { hasText: new RegExp(`^${data.summaries.length} records`) }).waitFor();
    await host.idle();
    const violating = data.summaries.find((s) => s.kinds['schema-violation']);
    assert.ok(violating, 'the added event that breaks the schema');
    await selectRecord(page, violating.id);
    assert.match((await page.locator('.record-meta').textContent()) ?? '', /inspect-log · line \d+ · 1 call · 1 error/);
    await shot(page, 'inspect-log-schema');
    await host.close();
    await done();
  });

  test('a Langfuse export (CSV, then Parquet) opens: one record per generation by row, the leak found, the parsed-only note shown', async (t) => {
    if (skip(t)) return;
    const parquet = join(tmp, 'observations.parquet');
    await query(
      `COPY (SELECT * FROM read_json(${sqlPath(LANGFUSE_JSONL)}, format = 'newline_delimited', columns = {id: 'VARCHAR', trace_id: 'VARCHAR', type: 'VARCHAR', name: 'VARCHAR', start_time: 'VARCHAR', level: 'VARCHAR', status_message: 'VARCHAR', input: 'VARCHAR', output: 'VARCHAR', provided_model_name: 'VARCHAR'})) TO ${sqlPath(parquet)} (FORMAT parquet)`,
    );
    for (const [path, leakLine] of [
      [LANGFUSE_CSV, 4],
      [parquet, 3],
    ] as const) {
      const { page, done } = await openPage(browser, null);
      const host = await openVsCodePage(page, server, path, `/langfuse-${leakLine}.html`);
      await page.locator('.list-count', { hasText: /^3 records/ }).waitFor();
      await host.idle();
      await selectRecord(page, 'gen-0002');
      assert.match((await page.locator('.record-meta').textContent()) ?? '', new RegExp(`langfuse · line ${leakLine} · 0 calls · 1 error`));
      await page.locator('.banner.warn', { hasText: 'the export kept the parsed assistant message only' }).waitFor();
      const text = (await page.locator('body').textContent()) ?? '';
      assert.ok(text.includes('Langfuse observation gen-0004'), 'the unreadable row is listed with its line');
      await shot(page, `langfuse-${path.endsWith('.csv') ? 'csv' : 'parquet'}-leak`);
      await host.close();
      await done();
    }
  });
});
