/**
 * The Compare tab in chromium: a replays file (guided off and on against the embedded endpoint, beside its trace)
 * as a report; a replay record shows the recording and both replays side by side and a word diff, as text; a
 * record that is not a replay has no Compare tab.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { replayRecord } from '../../src/net/replay/replay.ts';
import { startServer } from '../../src/net/server/openAiServer.ts';
import { loadAll } from '../../src/io/trace/loadTrace.ts';
import { appendRecords, siblingReplaysPath } from '../../src/io/trace/traceWriter.ts';
import { addReport, browserMissing, ensureBuilt, launch, openPage, PageServer, reportData, ROOT, selectRecord, shot } from './harness.ts';
import { axeViolations } from './axe.ts';
import { overflowing } from './overflow.ts';
import { reportThemeOptions, THEME_KINDS } from './themes.ts';

const missing = browserMissing();
let browser: Browser;
let server: PageServer;
let tmp: string;
let replays: string;

describe('replay comparison in chromium', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-compare-page-'));
    const trace = join(tmp, 'trace.jsonl');
    await copyFile(join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl'), trace);
    const records = (await loadAll(trace)).records.map((r) => r.record);
    const endpoint = await startServer({ script: records });
    try {
      const original = records.find((r) => r.id === 'schema-violations');
      assert.ok(original);
      const out = [];
      // Guided off twice: two runs of one setting must still be told apart (endpoint, model, time, place).
      for (const guided of [false, true, false])
        out.push(
          (
            await replayRecord(original, {
              endpoint: { name: 'embedded', baseUrl: endpoint.url, model: 'sim', engine: 'vllm' },
              mode: 'chat',
              guided,
              retries: 0,
            })
          ).record,
        );
      replays = siblingReplaysPath(trace);
      await appendRecords(replays, out, [trace]);
    } finally {
      await endpoint.close();
    }
    server = new PageServer();
    await server.start();
    browser = await launch();
  });
  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });
  const skip = (t: TestContext) => {
    if (missing) t.skip(missing);
    return Boolean(missing);
  };

  test('a replay: recording and replays side by side, findings, a word diff; a non-replay has no Compare tab', async (t) => {
    if (skip(t)) return;
    const data = await reportData([replays]);
    const ids = data.summaries.map((s) => s.id);
    const url = addReport(server, '/compare.html', data);
    for (const kind of THEME_KINDS) {
      const { page, done } = await openPage(browser, url, reportThemeOptions(kind));
      await selectRecord(page, ids[1] as string);
      const tab = page.locator('.tab[data-tab="compare"]');
      assert.equal(await tab.isHidden(), false);
      await tab.click();
      const heads = await page.locator('#panel-compare .cmp-run-name').allTextContents();
      assert.deepEqual(heads, ['#1 recorded', '#2 guided off', '#3 guided on', '#4 guided off']);
      // Each replay names its endpoint, model and time.
      const runs = page.locator('#panel-compare .cmp-run');
      for (let i = 1; i < 4; i++) {
        assert.match((await runs.nth(i).locator('.cmp-endpoint').textContent()) ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        assert.equal(await runs.nth(i).locator('.cmp-model').textContent(), 'sim');
        assert.match((await runs.nth(i).locator('.cmp-time').textContent()) ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      }
      const findings = (i: number) => runs.nth(i).locator('.cmp-findings');
      assert.match((await findings(0).textContent()) ?? '', /TS005 schema-violation/);
      assert.ok((await findings(0).locator('.cmp-finding.sev-error').count()) > 0, 'the recording breaks the schema');
      // Guided on: no error left (a format warning may stay: xgrammar does not enforce every format).
      assert.equal(await findings(2).locator('.cmp-finding.sev-error').count(), 0);
      assert.ok((await page.locator('#panel-compare del.diff-removed').count()) > 0);
      assert.ok((await page.locator('#panel-compare ins.diff-added').count()) > 0);
      // No WCAG 2 A/AA violation in any theme kind (axe-core).
      assert.deepEqual(await axeViolations(page), [], kind);
      await shot(page, `compare-${kind}`);
      await done();
    }
    // At 1440 and 1000 px, list and inspector open: every run fits the centre (they wrap), nothing off-screen.
    for (const width of [1440, 1000]) {
      const { page, done } = await openPage(browser, url, { width, height: 900 });
      await selectRecord(page, ids[1] as string);
      await page.locator('.tab[data-tab="compare"]').click();
      await page.locator('#panel-compare .cmp-run').first().waitFor();
      assert.equal(await page.locator('.layout').evaluate((el) => el.classList.contains('inspector-collapsed')), false);
      assert.deepEqual(await overflowing(page, '#panel-compare'), [], `${width} px`);
      // The user picks the runs: unticking one takes its card away.
      await page.locator('#panel-compare .cmp-pick').nth(1).click();
      await page.locator('#panel-compare .cmp-run').nth(3).waitFor({ state: 'detached' });
      assert.deepEqual(await page.locator('#panel-compare .cmp-run-name').allTextContents(), [
        '#1 recorded',
        '#3 guided on',
        '#4 guided off',
      ]);
      await done();
    }
    // The trace itself: no record is a replay, no Compare tab.
    const plain = await browser.newPage();
    await plain.goto(addReport(server, '/plain-compare.html', await reportData([join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl')])));
    await plain.locator('.record-title').first().waitFor();
    assert.equal(await plain.locator('.tab[data-tab="compare"]').isHidden(), true);
    await plain.close();
  });
});
