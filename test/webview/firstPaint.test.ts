/**
 * The webview's part of "open → first record painted" (VS Code page, real TraceSession host): the page asks its
 * host for the trace before it builds the shell (the host reads the file meanwhile), asks for the record as soon as
 * it knows which, and paints it. The phases are printed from the page's performance marks, the bound is loose (a
 * loaded machine stretches them all): the webview's own work, the record's reply to its painted frame, stays small.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { browserSuite, js, openPage, openVsCodePage, ROOT } from './harness.ts';

const MARKS = [
  'webview-start',
  'ready-asked',
  'shell-built',
  'init-received',
  'record-asked',
  'record-received',
  'record-painted',
] as const;

describe('first paint', () => {
  const suite = browserSuite('toolscope-first-paint-');

  test('the host is asked before the shell is built; the phases to the first record painted', async (t) => {
    if (suite.skip(t)) return;
    const { page, done } = await openPage(suite.browser, null, { theme: 'light', width: 1440, height: 900 });
    const host = await openVsCodePage(page, suite.server, join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl'), '/first-paint.html');
    try {
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { performance: { getEntriesByName(n: string): unknown[] } }).performance.getEntriesByName(
            'toolscope:record-painted',
          ).length,
      );
      const at = Object.fromEntries(
        await js<Array<[string, number]>>(
          page,
          `performance.getEntriesByType('mark').filter((m) => m.name.startsWith('toolscope:')).map((m) => [m.name.slice(10), m.startTime])`,
        ),
      ) as Record<string, number>;
      for (const m of MARKS) assert.equal(typeof at[m], 'number', `mark ${m}`);
      const t = (m: (typeof MARKS)[number]) => at[m] as number;
      // The request is on its way before the shell is built, and everything after comes in order.
      assert.ok(t('ready-asked') < t('shell-built'), `ready asked at ${t('ready-asked')}, shell built at ${t('shell-built')}`);
      for (let i = 1; i < MARKS.length; i++)
        assert.ok(t(MARKS[i - 1] as (typeof MARKS)[number]) <= t(MARKS[i] as (typeof MARKS)[number]), `${MARKS[i - 1]} before ${MARKS[i]}`);
      // The bundle and stylesheet come inline in the page: no request for either before the script can start.
      const fetched = await js<string[]>(
        page,
        `performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /webview\\.(js|css)$/.test(n))`,
      );
      assert.deepEqual(fetched, [], 'the page fetched no bundle or stylesheet');
      const script = await js<number>(page, `performance.getEntriesByType('navigation')[0]?.responseEnd ?? 0`);
      const ms = (a: number, b: number) => `${(b - a).toFixed(0)} ms`;
      console.log(
        `first paint (VS Code page, sample trace), ms after navigation: page (bundle inline) received ${script.toFixed(0)}, script started ${t('webview-start').toFixed(0)} (parsing and evaluating it ${ms(script, t('webview-start'))}); ` +
          `shell built in ${ms(t('ready-asked'), t('shell-built'))} while the host answered \`ready\` in ${ms(t('ready-asked'), t('init-received'))}; ` +
          `rows and the record asked ${ms(t('init-received'), t('record-asked'))} later; the host's record reply ${ms(t('record-asked'), t('record-received'))}; ` +
          `reply → record painted ${ms(t('record-received'), t('record-painted'))}; painted at ${t('record-painted').toFixed(0)}`,
      );
      // Loose: the webview's own render of a sample record, from its reply to the painted frame.
      assert.ok(t('record-painted') - t('record-received') < 3000, 'record rendered and painted within 3 s of its reply');
      // Then the page tells its host, which held its grammar engines back for this paint; once.
      for (let i = 0; i < 100 && !host.requests.some((r) => r.type === 'painted'); i++) await page.waitForTimeout(50);
      const kinds = host.requests.map((r) => r.type);
      assert.equal(kinds.filter((k) => k === 'painted').length, 1, kinds.join(', '));
      assert.ok(kinds.indexOf('painted') > kinds.indexOf('getRecord'), `painted after the record was asked: ${kinds.join(', ')}`);
    } finally {
      await host.close();
      await done();
    }
  });

  test('the first frame of a page that brings its record: the filter controls after it, the timeline laid out once', async (t) => {
    if (suite.skip(t)) return;
    const { page, done } = await openPage(suite.browser, null, { theme: 'light', width: 1440, height: 900 });
    // The page as it is when the first record is painted (its mark, in the frame that paints it): what is in it, and
    // how many timeline rows were put into it before then (a row built twice counts twice).
    await page.addInitScript(`(() => {
      let rowsAdded = 0;
      const count = (records) => { for (const r of records) for (const n of r.addedNodes) if (n.classList?.contains('tl-row')) rowsAdded++; };
      const observer = new MutationObserver(count);
      observer.observe(document, { childList: true, subtree: true });
      const mark = performance.mark.bind(performance);
      performance.mark = (name, ...rest) => {
        if (name === 'toolscope:record-painted') {
          count(observer.takeRecords());
          const rect = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); };
          window.__atPaint = {
            title: document.querySelector('.record-title')?.textContent ?? null,
            controls: document.querySelectorAll('.list-filters :is(vscode-textfield, vscode-single-select, vscode-checkbox)').length,
            places: [...document.querySelectorAll('.list-filters .later-slot')].map(rect),
            rowsInPage: document.querySelectorAll('.tl-row').length,
            rowsAdded,
          };
        }
        return mark(name, ...rest);
      };
    })()`);
    const host = await openVsCodePage(
      page,
      suite.server,
      join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl'),
      '/first-paint-inline.html',
      1,
      {},
      true,
    );
    try {
      await page.waitForFunction(() => (globalThis as unknown as { __atPaint?: unknown }).__atPaint !== undefined);
      const atPaint = await js<{ title: string | null; controls: number; places: number[][]; rowsInPage: number; rowsAdded: number }>(
        page,
        'window.__atPaint',
      );
      assert.ok(atPaint.title, 'the record is in the painted frame');
      // The filter controls' first render (web components; the selects lay out their closed dropdowns) is not the
      // first frame's: each holds its place until then.
      assert.equal(atPaint.controls, 0, 'no filter control in the first frame');
      assert.equal(atPaint.places.length, 4, 'a place for each of the four filter controls');
      assert.ok(atPaint.rowsInPage > 0, 'the timeline shows the record');
      assert.equal(atPaint.rowsAdded, atPaint.rowsInPage, 'each timeline row in the first frame was built once');
      // Then the controls come, where their places were, and work.
      const filters = page.locator('.list-filters');
      await filters.locator('vscode-checkbox').waitFor();
      assert.equal(await filters.locator('.later-slot').count(), 0);
      const rects = await js<number[][]>(
        page,
        `[...document.querySelectorAll('.list-filters :is(vscode-textfield, vscode-single-select, vscode-checkbox)')].map((e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); })`,
      );
      assert.equal(rects.length, 4);
      rects.forEach((r, i) =>
        r.forEach((v, k) =>
          assert.ok(Math.abs(v - (atPaint.places[i]?.[k] ?? NaN)) <= 1, `control ${i} at ${r} where its place was (${atPaint.places[i]})`),
        ),
      );
      await host.idle();
      const all = await page.locator('.rec-row').count();
      await page.locator('.filter-text input').fill('clean-single-call');
      await page.waitForFunction(
        (n) =>
          (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('.rec-row')
            .length < n,
        all,
      );
    } finally {
      await host.close();
      await done();
    }
  });
});
