/**
 * Exports that are not line-addressed, opened in a real VS Code workbench (the packaged .vsix in code-server, driven
 * by Playwright in chromium) from the explorer's "Open Trace": a Langfuse export as Parquet (written by DuckDB, a
 * test dependency) and an Inspect `.eval` log (the zip Inspect writes, built from the fixture). Each opens through the
 * reader `analyze` uses; a record is picked and shows the ids that tie it back — the record's own (Langfuse's
 * observation id, Inspect's sample/epoch/call) in its head, and the trace id in its Raw JSON.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { Browser, Frame, Page } from 'playwright-core';
import { launch, ROOT } from '../webview/harness.ts';
import { query, sqlPath } from '../cli/duckdb.ts';
import { CodeServer, openWorkbench, runCommand, traceFrame, workbenchMissing } from './codeServer.ts';

const missing = workbenchMissing();
const OUT = join(ROOT, 'test-results', 'e2e-exports');
const INSPECT = join(ROOT, 'test', 'fixtures', 'inspect', 'log_read_sample.reduced.json');
const LANGFUSE_JSONL = join(ROOT, 'test', 'fixtures', 'langfuse', 'observations_v2.jsonl');
const PARQUET = 'observations.parquet';
const EVAL = 'run.eval';

let browser: Browser;
let tmp: string;
let vsix: string;

/** The Langfuse fixture as the Parquet file the blob export writes (its text columns as text). */
async function writeLangfuseParquet(path: string): Promise<void> {
  await query(
    `COPY (SELECT * FROM read_json(${sqlPath(LANGFUSE_JSONL)}, format = 'newline_delimited', columns = {id: 'VARCHAR', trace_id: 'VARCHAR', type: 'VARCHAR', name: 'VARCHAR', start_time: 'VARCHAR', level: 'VARCHAR', status_message: 'VARCHAR', input: 'VARCHAR', output: 'VARCHAR', provided_model_name: 'VARCHAR'})) TO ${sqlPath(path)} (FORMAT parquet)`,
  );
}

/** The Inspect fixture as a `.eval` log: a zip of header.json and one samples/<id>_epoch_<n>.json per sample. */
async function writeEvalLog(path: string): Promise<void> {
  const log = JSON.parse(readFileSync(INSPECT, 'utf8')) as { eval: unknown; samples: Array<{ id: unknown; epoch?: number }> };
  const entries: Record<string, Uint8Array> = { 'header.json': strToU8(JSON.stringify({ version: 2, eval: log.eval })) };
  for (const s of log.samples) entries[`samples/${String(s.id)}_epoch_${s.epoch ?? 1}.json`] = strToU8(JSON.stringify(s));
  await writeFile(path, zipSync(entries));
}

/** Opens a file of the workspace in the trace editor from the explorer's context menu (Open Trace). */
async function openFromExplorer(page: Page, name: string): Promise<Frame> {
  await runCommand(page, 'View: Close All Editors');
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name });
  const item = page.locator('.context-view .action-item', { hasText: 'Open Trace' }).first();
  // The explorer's menu lists the extension's items once its contributions are read: a menu opened before that
  // lacks them, so open it again.
  for (let attempt = 1; ; attempt++) {
    await row.click({ button: 'right' });
    try {
      await item.waitFor({ timeout: attempt < 6 ? 5000 : 30_000 });
      break;
    } catch (err) {
      if (attempt >= 6) throw err;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
  }
  // The menu follows the mouse and acts on Enter (a synthetic click on the item is not always taken).
  await item.hover();
  await page.keyboard.press('Enter');
  return traceFrame(page, name);
}

/** Picks a record by id in the list and waits for its head. */
async function pick(frame: Frame, id: string): Promise<void> {
  await frame.locator('.rec-row', { has: frame.locator('.rec-id', { hasText: new RegExp(`^${id.replace(/[/.]/g, '\\$&')}$`) }) }).click();
  await frame.locator('.record-title', { hasText: id }).waitFor();
}

/** The record's Raw JSON, opened beside the editor: the text of the JSON editor that opens. */
async function rawJson(page: Page, frame: Frame, id: string): Promise<string> {
  await frame.locator('.raw-button').click();
  const editor = page.locator('.editor-instance .monaco-editor .view-lines', { hasText: `"id": "${id}"` }).first();
  await editor.waitFor({ timeout: 30_000 });
  return (await editor.innerText()).replace(/\u00a0/g, ' ');
}

describe('exports in the workbench (packaged .vsix in code-server)', { skip: missing ?? false }, () => {
  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-e2e-exports-'));
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
    vsix = join(tmp, 'toolscope.vsix');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--out', vsix], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run package failed:\n${r.stdout}\n${r.stderr}`);
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test(
    'a Langfuse Parquet export and an Inspect .eval log open from the explorer; a record shows its ids',
    { timeout: 300_000 },
    async () => {
      const ws = join(tmp, 'ws');
      await mkdir(ws, { recursive: true });
      await writeLangfuseParquet(join(ws, PARQUET));
      await writeEvalLog(join(ws, EVAL));
      const server = await CodeServer.start({ trust: true, theme: 'dark', install: [vsix] });
      let page: Page | undefined;
      let step = 0;
      const shot = async (name: string) => {
        await page?.screenshot({ path: join(OUT, `${String(++step).padStart(2, '0')}-${name}.png`) });
      };
      try {
        page = await openWorkbench(browser, server.url(ws));
        const p = page;
        await p.locator('.explorer-folders-view .monaco-list-row', { hasText: EVAL }).waitFor();

        // Langfuse: the three generations by row (the span is no model call), one row an error on its line.
        const langfuse = await openFromExplorer(p, PARQUET);
        await langfuse.locator('.list-count', { hasText: /^3 records/ }).waitFor({ timeout: 60_000 });
        assert.ok(((await langfuse.locator('body').textContent()) ?? '').includes('Langfuse observation gen-0004'));
        await pick(langfuse, 'gen-0002');
        assert.match((await langfuse.locator('.record-meta').textContent()) ?? '', /langfuse · line 3 · 0 calls · 1 error/);
        await langfuse.locator('.banner.warn', { hasText: 'the export kept the parsed assistant message only' }).waitFor();
        await shot('langfuse-parquet-record');
        const langfuseRaw = await rawJson(p, langfuse, 'gen-0002');
        assert.match(langfuseRaw, /"observation_id": "gen-0002"/);
        assert.match(langfuseRaw, /"trace_id": "0c5f2a3e-6b1d-4f7e-9a2c-5d8e1f3b7a90"/);
        await shot('langfuse-parquet-raw-json');

        // Inspect: its model events as records named sample/epoch/call; the one without a raw exchange an error.
        const inspect = await openFromExplorer(p, EVAL);
        await inspect.locator('.list-count', { hasText: /^2 records/ }).waitFor({ timeout: 60_000 });
        assert.ok(((await inspect.locator('body').textContent()) ?? '').includes('kept no raw request'));
        await pick(inspect, '1/1/2');
        assert.match((await inspect.locator('.record-meta').textContent()) ?? '', /inspect-log · line 2 · 1 call · 1 error/);
        await inspect.locator('.rec-row', { hasText: 'TS005' }).filter({ hasText: '1/1/2' }).waitFor({ timeout: 30_000 });
        await shot('inspect-eval-record');
        const inspectRaw = await rawJson(p, inspect, '1/1/2');
        // The sample, epoch and model call it came from are its id (the JSON's meta is below the fold).
        assert.match(inspectRaw, /"id": "1\/1\/2",\s+"request": \{/);
        await shot('inspect-eval-raw-json');
      } catch (err) {
        await shot('failure').catch(() => undefined);
        throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- code-server log ---\n${server.log().slice(-3000)}`, {
          cause: err,
        });
      } finally {
        await page
          ?.context()
          .close()
          .catch(() => undefined);
        await server.stop();
      }
    },
  );
});
