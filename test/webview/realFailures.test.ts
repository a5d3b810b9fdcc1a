/**
 * Findings about what the client received, shown where they are: in chromium, samples/real-failures.jsonl in the
 * report page marks the tool calls left in the reasoning inside the Response view's reasoning text, and lists the
 * finding under it.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { EmbeddedTrace } from '../../src/host/view/pageHtml.ts';
import { addReport, browserMissing, ensureBuilt, launch, openPage, PageServer, reportData, ROOT, selectRecord, shot } from './harness.ts';

const missing = browserMissing();
const SAMPLE = join(ROOT, 'samples', 'real-failures.jsonl');

let browser: Browser;
let server: PageServer;
let data: EmbeddedTrace;
let url: string;

const skip = (t: TestContext) => {
  if (missing) t.skip(missing);
  return Boolean(missing);
};

describe('findings in the response text (chromium)', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    server = new PageServer();
    await server.start();
    browser = await launch();
    data = await reportData([SAMPLE]);
    url = addReport(server, '/real-failures.html', data);
  });

  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
  });

  test('call-in-reasoning: the calls are marked in the reasoning text, the finding listed under it', async (t) => {
    if (skip(t)) return;
    const { page, done } = await openPage(browser, url);
    for (const id of ['calls-in-reasoning-content', 'calls-in-streamed-reasoning']) {
      await selectRecord(page, id);
      const summary = data.summaries.find((s) => s.id === id);
      assert.ok(summary);
      const view = data.records[summary.key];
      const d = view?.diagnostics.find((x) => x.kind === 'call-in-reasoning');
      assert.ok(d && d.charStart !== null && d.charEnd !== null && view?.response?.reasoning, id);
      const reasoning = page.locator('.no-completion pre.reasoning');
      await reasoning.waitFor();
      // The whole reasoning is shown, and the marked part is exactly the finding's span.
      assert.equal(await reasoning.textContent(), view.response.reasoning);
      const mark = reasoning.locator('mark.finding.sev-error');
      assert.equal(await mark.count(), 1, id);
      assert.equal(await mark.textContent(), view.response.reasoning.slice(d.charStart, d.charEnd));
      assert.match((await mark.getAttribute('title')) ?? '', /^TS032 the reasoning the client received holds/u);
      const listed = page.locator('.no-completion .response-findings .diag-item');
      assert.equal(await listed.count(), 1);
      assert.match((await listed.textContent()) ?? '', /TS032.*in the reasoning/u);
      await shot(page, `real-failures-${id}`);
    }
    await done();
  });
});
