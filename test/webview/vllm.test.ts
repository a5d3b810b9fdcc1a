/**
 * The vLLM tab in chromium. A report written with a vLLM profile shows, for a raw Kimi completion, the reference
 * parse and what that generation would have sent side by side, which profile and grouping, and the vllm-divergence
 * finding next to each difference; the VS Code page lets the user switch the delta grouping (the host runs the
 * profile again) and follows the toolscope.vllmProfile setting. Screenshots go to test-results/webview/.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  addReport,
  browserMissing,
  cspViolations,
  DARK_VSCODE_THEME,
  ensureBuilt,
  js,
  launch,
  openVsCodePage,
  PageServer,
  reportData,
  RESULTS,
  ROOT,
  selectRecord,
  watch,
} from './harness.ts';

const SAMPLE = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');
const missing = browserMissing();
let browser: Browser;
let server: PageServer;

const shot = async (page: Page, name: string) => {
  await mkdir(RESULTS, { recursive: true });
  await page.screenshot({ path: join(RESULTS, `vllm-${name}.png`) });
};

const rowTexts = (page: Page) => page.locator('#panel-vllm .vllm-table tbody tr').allInnerTexts();

describe('the vLLM tab in chromium', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    server = new PageServer();
    await server.start();
    browser = await launch();
  });
  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
  });
  const skip = (t: TestContext) => {
    if (missing) t.skip(missing);
    return Boolean(missing);
  };

  test('report with --vllm-profile A: side by side, the profile and grouping named, a finding next to each difference', async (t) => {
    if (skip(t)) return;
    const url = addReport(server, '/vllm-report.html', await reportData([SAMPLE], 'vllm', { vllmProfile: 'A' }));
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: theme });
      const page = await context.newPage();
      const problems = await watch(page);
      await page.goto(url);
      await page.locator('.record-title').first().waitFor();
      await selectRecord(page, 'arguments-cut-at-newline');
      const tab = page.locator('.tab[data-tab="vllm"]');
      assert.equal(await tab.isHidden(), false, 'a raw Kimi completion with a profile has the tab');
      await tab.click();
      const panel = page.locator('#panel-vllm');
      await panel.locator('h3', { hasText: 'What vLLM generation A would have sent' }).waitFor();
      assert.match((await panel.locator('.vllm-about').textContent()) ?? '', /f1816fb/);
      assert.match((await panel.locator('.vllm-grouping-now').textContent()) ?? '', /^Shown: 1 token per delta · \d+ deltas$/);
      const heads = await panel.locator('.vllm-table thead th').allTextContents();
      assert.deepEqual(heads, ['', 'Reference parse (Toolscope)', 'vLLM A, streamed', 'Findings']);
      const rows = await rowTexts(page);
      assert.equal(rows.length, 2, 'content and one call');
      assert.match(rows[0] ?? '', /✓ same/);
      // The call: reference arguments whole, vLLM's cut at the newline, and the finding beside them.
      const callRow = panel.locator('.vllm-table tbody tr').nth(1);
      assert.equal(await callRow.locator('.vllm-finding[data-detail="arguments-truncated"].sev-error').count(), 1);
      assert.match((await callRow.locator('.vllm-finding').textContent()) ?? '', /TS026.*arguments-truncated.*would have stopped after/s);
      const [ref, got] = await callRow.locator('td .vllm-args').allTextContents();
      assert.ok(ref && got && ref.length > got.length && ref.startsWith(got), `${got} is a prefix of ${ref}`);
      assert.match((await panel.locator('.vllm-summary').textContent()) ?? '', /^1 difference from the reference parse \(1 error\)\.$/);
      // A report cannot run the profile again: the control is off and says why.
      assert.equal(await panel.locator('.vllm-grouping-kind').getAttribute('disabled'), '');
      assert.ok(await panel.getByText('This report shows the grouping it was written with').count());
      // The deltas: one per token, the ones behind the finding marked.
      await panel.locator('.vllm-deltas summary').click();
      assert.ok((await panel.locator('.vllm-delta-table tbody tr.has-finding').count()) > 0);
      assert.ok((await panel.locator('.vllm-delta-table tbody tr.vllm-null').count()) > 0);
      await panel.locator('.vllm-delta-table tbody tr.has-finding').first().scrollIntoViewIfNeeded();
      await shot(page, `report-deltas-${theme}`);
      await panel.locator('.vllm-deltas summary').click();
      await shot(page, `report-${theme}`);
      // A clean record: the same on both sides.
      await selectRecord(page, 'clean-single-call');
      await panel.locator('.vllm-summary.cmp-clean').waitFor();
      // A record without a raw completion: no tab.
      await selectRecord(page, 'described-not-called');
      assert.equal(await tab.isHidden(), true);
      assert.deepEqual(problems.errors, []);
      assert.deepEqual(await cspViolations(page), []);
      await context.close();
    }
    // Without a profile: no tab anywhere.
    const plain = await browser.newPage();
    await plain.goto(addReport(server, '/vllm-plain.html', await reportData([SAMPLE])));
    await plain.locator('.record-title').first().waitFor();
    await selectRecord(plain, 'arguments-cut-at-newline');
    assert.equal(await plain.locator('.tab[data-tab="vllm"]').isHidden(), true);
    await plain.close();
  });

  test('VS Code page: switching the delta grouping runs the profile again; the setting adds and removes the tab', async (t) => {
    if (skip(t)) return;
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
    const page = await context.newPage();
    const problems = await watch(page);
    await page.addInitScript(DARK_VSCODE_THEME);
    const host = await openVsCodePage(page, server, SAMPLE, '/vllm-vscode.html', 1, { vllmProfile: 'A' });
    await host.idle();
    await selectRecord(page, 'clean-parallel-calls');
    await page.locator('.tab[data-tab="vllm"]').click();
    const panel = page.locator('#panel-vllm');
    await panel.locator('.vllm-summary.cmp-clean').waitFor();
    assert.equal(await panel.locator('.vllm-grouping-kind').getAttribute('disabled'), null);
    // Twelve tokens per delta (speculative decoding delivering several at once): generation A loses calls.
    await js(
      page,
      `(() => { const s = document.querySelector('#panel-vllm .vllm-grouping-kind'); s.value = 'n'; s.dispatchEvent(new Event('change')); })()`,
    );
    await panel.locator('.vllm-per-delta input').fill('12');
    await panel.locator('.vllm-per-delta input').press('Enter');
    await js(page, `document.querySelector('#panel-vllm .vllm-per-delta').dispatchEvent(new Event('change'))`);
    await panel.locator('.vllm-grouping-now', { hasText: /^Shown: 12 tokens per delta · \d+ deltas$/ }).waitFor();
    const asked = host.requests.filter((r) => r.type === 'vllmRun');
    assert.deepEqual(asked.at(-1), {
      type: 'vllmRun',
      key: asked.at(-1)?.type === 'vllmRun' ? asked.at(-1)?.key : '',
      grouping: { kind: 'tokens', perDelta: 12 },
    });
    const details = await panel.locator('.vllm-finding').evaluateAll((els) => els.map((e) => e.getAttribute('data-detail')));
    assert.ok(details.length > 0 && details.every((d) => d !== null), details.join());
    assert.ok(details.includes('call-dropped') || details.includes('arguments-truncated'), details.join());
    await panel.locator('.vllm-summary', { hasText: /difference/ }).waitFor();
    await shot(page, 'vscode-12-tokens');
    // The choice sticks: another record opens with the same grouping.
    await selectRecord(page, 'schema-violations');
    await page.locator('.tab[data-tab="vllm"]').click();
    await panel.locator('.vllm-grouping-now', { hasText: /^Shown: 12 tokens per delta/ }).waitFor();
    // Back to one token per delta.
    await js(
      page,
      `(() => { const s = document.querySelector('#panel-vllm .vllm-grouping-kind'); s.value = 'one'; s.dispatchEvent(new Event('change')); })()`,
    );
    await panel.locator('.vllm-grouping-now', { hasText: /^Shown: 1 token per delta/ }).waitFor();
    // This record has no recorded grouping: the option is off.
    assert.equal(await panel.locator('vscode-option[value="recorded"]').getAttribute('disabled'), '');
    // As when the user sets toolscope.vllmProfile to off, then to C.
    await host.setVllmProfile(undefined);
    await host.idle();
    await page.locator('.record-title', { hasText: 'schema-violations' }).waitFor();
    await page.locator('.tab[data-tab="vllm"][hidden]').waitFor({ state: 'attached' });
    await host.setVllmProfile('C');
    await host.idle();
    await page.locator('.record-title', { hasText: 'schema-violations' }).waitFor();
    await page.locator('.tab[data-tab="vllm"]:not([hidden])').click();
    await panel.locator('h3', { hasText: 'What vLLM generation C would have sent' }).waitFor();
    await shot(page, 'vscode-profile-c');
    assert.deepEqual(problems.errors, []);
    assert.deepEqual(await cspViolations(page), []);
    await host.close();
    await context.close();
  });
});
