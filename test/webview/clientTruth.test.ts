/**
 * The trace editor tells the client's truth and reaches every finding (issue 41): the inspector's three voices on a
 * content-leak record, finding navigation into the response, one token numbering, and finding text in a narrow split.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EmbeddedTrace } from '../../src/host/view/pageHtml.ts';
import { addReport, browserSuite, openPage, reportData, ROOT, selectRecord, shot, waitPosition } from './harness.ts';

const KIMI = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');
const LEAK = 'leak-marker-in-content';

describe('the client’s truth in the trace editor', () => {
  const suite = browserSuite('toolscope-client-truth-');
  let data: EmbeddedTrace;
  let url = '';
  const report = async () => {
    if (!url) {
      data = await reportData([KIMI]);
      url = addReport(suite.server, '/client-truth.html', data);
    }
    return url;
  };
  const leakView = () => {
    const s = data.summaries.find((x) => x.id === LEAK);
    assert.ok(s);
    const v = data.records[s.key];
    assert.ok(v);
    return v;
  };

  test('inspector: on a content leak the client’s voice is the recorded stream, apart from the correct parser’s', async (t) => {
    if (suite.skip(t)) return;
    const { page, done } = await openPage(suite.browser, await report());
    await selectRecord(page, LEAK);
    const view = leakView();
    const n = view.tokens.length;
    const begin = view.tokens.findIndex((tk) => tk.text === '<|tool_call_begin|>');
    assert.ok(begin > 0);
    await page.locator(`#tok-${begin}`).click();
    await waitPosition(page, `token ${begin + 1} / ${n}`);
    // The correct parser sends no markup, and says it is the correct parser.
    assert.equal(await page.locator('.section-delta').getAttribute('heading'), 'A correct parser sends here');
    assert.equal(await page.locator('.section-delta .nothing').textContent(), 'nothing (a correct parser sends no markup)');
    // The client got the markup as content, in one chunk with the call's id and opening of its arguments.
    assert.equal(await page.locator('.section-client').getAttribute('heading'), 'The client received');
    const client = (await page.locator('.section-client .client-chunk').first().textContent()) ?? '';
    assert.match(client, /chunk 3 of 5/);
    assert.match(client, /content/);
    assert.match(client, /<\|tool_call_begin\|>functions\.search_web:0<\|tool_call_argument_begin\|>/);
    // At the end: the correct parser has one complete call, the client none (its content holds the markup).
    await page.keyboard.press('End');
    await waitPosition(page, `token ${n} / ${n}`);
    assert.equal(await page.locator('.section-calls').getAttribute('heading'), 'Tool calls so far (correct parser)');
    assert.equal(await page.locator('.section-calls .acc-name').textContent(), 'search_web');
    assert.equal(await page.locator('.section-client .client-calls').textContent(), '0 tool calls');
    assert.match(
      (await page.locator('.section-client .client-totals').textContent()) ?? '',
      /<\|tool_call_begin\|>functions\.search_web:0/,
    );
    // A record whose response is one chat.completion says the client's view is the final response only.
    const whole = data.summaries.find(
      (s) => data.records[s.key]?.response && !data.records[s.key]?.response?.streamed && data.records[s.key]?.tokens.length,
    );
    if (whole) {
      await selectRecord(page, whole.id);
      assert.match((await page.locator('.section-client .client-final').textContent()) ?? '', /final response only/);
    }
    await done();
  });

  test('finding navigation: e and “finding ›” reach the findings in the response, on the Response tab', async (t) => {
    if (suite.skip(t)) return;
    const { page, done } = await openPage(suite.browser, await report());
    await selectRecord(page, LEAK);
    const view = leakView();
    const n = view.tokens.length;
    const onTokens = view.diagnostics.filter((d) => d.where === 'completion' && d.tokenStart !== null && d.tokenEnd !== null);
    const inResponse = view.diagnostics.filter((d) => d.where === 'response');
    assert.ok(
      inResponse.some((d) => d.code === 'TS001'),
      'the record has a TS001 in the response',
    );
    const total = view.diagnostics.length;
    // The keys go to the timeline (in the list, Home would pick the first record).
    await page.locator('#tok-1').click();
    await waitPosition(page, `token 2 / ${n}`);
    await page.keyboard.press('Home');
    await waitPosition(page, `token 1 / ${n}`);
    const strip = page.locator('.finding-strip');
    // Token numbers as the report and the CI excerpt give them: from 1, both ends included.
    const first = onTokens[0];
    if (first && first.tokenStart !== null && first.tokenEnd !== null) {
      await page.keyboard.press('e');
      await page
        .locator('.finding-strip .finding-pos', { hasText: `finding 1 of ${total} · tokens ${first.tokenStart + 1}–${first.tokenEnd}` })
        .waitFor();
      await page.keyboard.press('Home');
      await waitPosition(page, `token 1 / ${n}`);
    }
    // Through the findings on the tokens (on the timeline), then into the response.
    for (let i = 0; i < onTokens.length; i++) {
      await page.keyboard.press('e');
      await page.locator('.finding-strip .finding-pos', { hasText: `finding ${i + 1} of ${total}` }).waitFor();
    }
    await page.keyboard.press('e');
    await page
      .locator('.finding-strip .finding-pos', { hasText: `finding ${onTokens.length + 1} of ${total} · in the response` })
      .waitFor();
    assert.equal(await page.locator('#tab-response').getAttribute('aria-selected'), 'true');
    assert.ok((await page.locator('#panel-response .active-finding').count()) > 0, 'the finding is marked in the response');
    assert.match((await strip.locator('.diag-code').textContent()) ?? '', /^TS\d{3}$/);
    assert.ok(((await strip.locator('.diag-message').textContent()) ?? '').length > 20);
    // The toolbar's button goes on; past the last finding it says so.
    for (let i = onTokens.length + 1; i < total; i++) {
      await page.keyboard.press('e');
      await page.locator('.finding-strip .finding-pos', { hasText: `finding ${i + 1} of ${total}` }).waitFor();
    }
    await page.keyboard.press('e');
    await page.locator('.topbar .message', { hasText: 'No later finding in this record.' }).waitFor();
    // Shift+E goes back, to the tokens in the end.
    for (let i = total - 1; i >= 1; i--) {
      await page.keyboard.press('Shift+E');
      await page.locator('.finding-strip .finding-pos', { hasText: `finding ${i} of ${total}` }).waitFor();
    }
    if (onTokens.length) assert.equal(await page.locator('#tab-timeline').getAttribute('aria-selected'), 'true');
    // The toolbar button reaches the response too.
    await page.keyboard.press('End');
    await waitPosition(page, `token ${n} / ${n}`);
    await page.locator('vscode-toolbar-button[data-action="nextDiag"]').click();
    await page.locator('.finding-strip .finding-pos', { hasText: 'in the response' }).waitFor();
    await done();
  });

  test('a 546 px split, light and dark: after e the finding’s text is on screen (the inspector is hidden there)', async (t) => {
    if (suite.skip(t)) return;
    for (const theme of ['light', 'dark'] as const) {
      const { page, done } = await openPage(suite.browser, await report(), { width: 546, height: 900, theme });
      await page.locator('.toggle-list').click();
      await selectRecord(page, LEAK);
      assert.equal(await page.locator('.inspector').isVisible(), false, 'the inspector is hidden at this width');
      await page.locator('#tok-1').click();
      await page.keyboard.press('e');
      const strip = page.locator('.finding-strip');
      await strip.locator('.diag-message').waitFor();
      const message = (await strip.locator('.diag-message').textContent()) ?? '';
      const view = leakView();
      assert.ok(
        view.diagnostics.some((d) => d.message === message),
        message,
      );
      const box = await strip.locator('.diag-message').boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 546 && box.y >= 0 && box.y < 900, JSON.stringify(box));
      await shot(page, `finding-after-e-546-${theme}`);
      // On into the response: the Response tab, the finding marked and its text in the strip.
      await page.keyboard.press('e');
      await strip.locator('.finding-pos', { hasText: 'in the response' }).waitFor();
      assert.ok(await strip.locator('.diag-message').isVisible());
      await shot(page, `finding-in-response-546-${theme}`);
      await done();
    }
  });
});
