/**
 * The eval summary in the trace editor, in chromium: a `toolscope eval` run (guided off and on, against the
 * embedded endpoint with 30 % broken answers) opened as a report shows the Eval tab first, K2-Vendor-Verifier's
 * figures for both runs side by side, and the findings by kind as bars; a plain trace has no Eval tab.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { evalRunCommand } from '../../src/cli/evalRunCommand.ts';
import { addReport, browserMissing, ensureBuilt, js, launch, openPage, PageServer, reportData, ROOT, shot } from './harness.ts';
import { axeViolations } from './axe.ts';
import { overflowing } from './overflow.ts';
import { reportThemeOptions, THEME_KINDS } from './themes.ts';

const missing = browserMissing();
let browser: Browser;
let server: PageServer;
let tmp: string;

const quiet = () => new Writable({ write: (_c, _e, done) => done() });

describe('eval summary panel in chromium', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-evalpanel-'));
    const samples = join(ROOT, 'samples', 'k2vv-requests.jsonl');
    assert.equal(
      await evalRunCommand(
        samples,
        {
          engine: 'vllm',
          apiKeyEnv: 'TOOLSCOPE_API_KEY',
          guided: 'both',
          concurrency: 2,
          timeoutS: 30,
          outDir: tmp,
          resume: false,
          hallucinate: 0.3,
          seed: 0,
        },
        quiet(),
      ),
      0,
    );
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

  test('results.guided-on.jsonl: Eval tab first, both runs side by side, bars by kind', async (t) => {
    if (skip(t)) return;
    const data = await reportData([join(tmp, 'results.guided-on.jsonl')]);
    assert.deepEqual(
      data.info.eval?.runs.map((r) => r.label),
      ['guided off', 'guided on'],
    );
    const off = data.info.eval?.runs[0];
    const on = data.info.eval?.runs[1];
    assert.ok(off && on);
    assert.ok(off.simulated && on.simulated, 'the results lines say the answers are simulated');
    assert.ok(off.summary.schema_validation_error_count > 0);
    assert.equal(on.summary.schema_validation_error_count, 0);
    const url = addReport(server, '/eval.html', data);
    for (const kind of THEME_KINDS) {
      const { page, done } = await openPage(browser, url, reportThemeOptions(kind));
      await page.locator('.eval-table').waitFor();
      assert.equal(await page.locator('.tab[data-tab="eval"]').getAttribute('aria-selected'), 'true');
      const rows = await page.locator('.eval-table tbody tr').allTextContents();
      assert.equal(rows.length, 2);
      // The embedded endpoint's scripted answers: labelled simulated, never as the model's.
      const header = (await page.locator('.eval-view h3').first().textContent()) ?? '';
      assert.match(header, /simulated answers/);
      assert.doesNotMatch(header, /model /);
      assert.ok(
        rows.every((r) => /simulated/.test(r)),
        JSON.stringify(rows),
      );
      assert.match(rows[0] ?? '', /^guided off/);
      assert.match(rows[1] ?? '', /^guided on.*100\.00 %$/);
      // A bar per run for schema-violation: the guided-off one is drawn, the guided-on one is empty.
      const widths = await js<string[]>(
        page,
        `[...document.querySelectorAll('.eval-kind')].filter((k) => k.textContent.includes('schema-violation')).flatMap((k) => [...k.querySelectorAll('.eval-bar')].map((b) => getComputedStyle(b).width))`,
      );
      assert.equal(widths.length, 2);
      assert.ok(parseFloat(widths[0] ?? '0') > 0 && parseFloat(widths[1] ?? '1') === 0, JSON.stringify(widths));
      // The pair compared: schema accuracy's delta in percentage points, and the samples whose verdict changed.
      const schemaRow = await page.locator('.eval-compare tbody tr', { hasText: 'schema_accuracy' }).textContent();
      assert.match(schemaRow ?? '', /100\.00 %\+\d+\.\d\d pp$/);
      const changed = await page.locator('.eval-samples tbody tr').allTextContents();
      assert.equal(changed.length, data.info.eval?.compare?.samples.length);
      assert.ok(changed.length > 0 && changed.every((r) => /schema/.test(r) && /call rejected/.test(r)), JSON.stringify(changed));
      // No WCAG 2 A/AA violation in any theme kind (axe-core).
      assert.deepEqual(await axeViolations(page), [], kind);
      await shot(page, `eval-summary-${kind}`);
      // The records are still one click away.
      await page.locator('.tab[data-tab="timeline"]').click();
      await page.locator('.rec-row').first().waitFor();
      await done();
    }
  });

  test('at 1440 px, list and inspector open, every figure is on screen (schema accuracy included)', async (t) => {
    if (skip(t)) return;
    const url = addReport(server, '/eval-widths.html', await reportData([join(tmp, 'results.guided-on.jsonl')]));
    // Narrower, the figures table scrolls in its own region (nine figures do not fit a 300 px centre).
    for (const width of [1440]) {
      const { page, done } = await openPage(browser, url, { width, height: 900 });
      await page.locator('.eval-table').waitFor();
      assert.equal(await page.locator('.layout').evaluate((el) => el.classList.contains('inspector-collapsed')), false);
      assert.deepEqual(await overflowing(page, '#panel-eval'), [], `${width} px`);
      assert.ok(await page.locator('.eval-table thead th', { hasText: 'schema accuracy' }).isVisible());
      await done();
    }
  });

  test('a trace that is not a K2VV results file has no Eval tab', async (t) => {
    if (skip(t)) return;
    const data = await reportData([join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl')]);
    assert.equal(data.info.eval ?? null, null);
    const page = await browser.newPage();
    await page.goto(addReport(server, '/plain.html', data));
    await page.locator('.record-title').first().waitFor();
    assert.equal(await page.locator('.tab[data-tab="eval"]').isHidden(), true);
    await page.close();
  });
});
