/**
 * The trace editor webview in a real browser (Debian chromium through playwright-core): the standalone report
 * page with data from the core, and the VS Code page with a scripted host over the typed protocol.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { EmbeddedTrace } from '../../src/host/view/pageHtml.ts';
import type { RecordView } from '../../src/shared/protocol.ts';
import { anchoredDiagnostics } from '../../webview/navigation.ts';
import {
  addReport,
  browserMissing,
  DARK_VSCODE_THEME,
  elementCount,
  ensureBuilt,
  FIXTURES,
  js,
  launch,
  openVsCodePage,
  PageServer,
  position,
  reportData,
  ROOT,
  selectRecord,
  waitPosition,
  openPage,
  shot,
  type OpenedPage,
} from './harness.ts';

const missing = browserMissing();
const BASIC = join(FIXTURES, 'basic.jsonl');
const TOKENS = join(FIXTURES, 'tokens.jsonl');
const SAMPLES = ['kimi-k2-raw-completions.jsonl', 'malformed-lines.jsonl']
  .map((f) => join(ROOT, 'samples', f))
  .filter((p) => existsSync(p));

let browser: Browser;
let server: PageServer;
let tmp: string;
let data: EmbeddedTrace;
let reportUrl: string;

function viewOf(id: string): RecordView {
  const s = data.summaries.find((x) => x.id === id);
  assert.ok(s, `no record ${id}`);
  const v = data.records[s.key];
  assert.ok(v);
  return v;
}

const open = (url: string | null, opts: Parameters<typeof openPage>[2] = {}): Promise<OpenedPage> => openPage(browser, url, opts);

function skipIfMissing(t: TestContext): boolean {
  if (missing) t.skip(missing);
  return Boolean(missing);
}

/** The distinct token indices of rendered chips matching a selector. */
async function chipTokens(page: Page, selector: string): Promise<number[]> {
  return js<number[]>(
    page,
    `[...new Set([...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => Number(e.dataset.i)))].sort((a, b) => a - b)`,
  );
}

/** A chip's text as shown: leading glyphs, text, trailing glyphs. */
async function chipText(page: Page, token: number): Promise<string> {
  return js<string>(
    page,
    `(() => { const c = document.querySelector('#tok-${token}'); return (c.dataset.lead || '') + c.textContent + (c.dataset.trail || ''); })()`,
  );
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe('trace editor webview in chromium', () => {
  before(async () => {
    if (missing) return;
    ensureBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-webview-'));
    server = new PageServer();
    await server.start();
    browser = await launch();
    data = await reportData([BASIC, TOKENS, ...SAMPLES]);
    reportUrl = addReport(server, '/report.html', data);
  });

  after(async () => {
    if (missing) return;
    await browser?.close();
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test('record list: rows with severity, calls, badges, files, failures; unreadable lines; keyboard', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    const total = data.summaries.length;
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { performance: { getEntriesByName(n: string): unknown[] } }).performance.getEntriesByName(
          'toolscope:record-painted',
        ).length > 0,
    );
    const painted = await js<number>(page, `performance.getEntriesByName('toolscope:record-painted')[0].startTime`);
    console.log(
      `timing: report of ${total} records (${Math.round(JSON.stringify(data).length / 1e3)} kB of data): first record painted ${painted.toFixed(0)} ms after navigation`,
    );
    assert.match((await page.locator('.list-count').textContent()) ?? '', new RegExp(`^${total} records`));
    assert.equal(await page.locator('.list-scroller').getAttribute('role'), 'listbox');
    const row = page.locator('.rec-row', { has: page.locator('.rec-id', { hasText: /^two-calls-schema$/ }) });
    assert.equal(await row.getAttribute('role'), 'option');
    assert.deepEqual(await row.locator('.kind-badge').allTextContents(), ['TS005×2', 'TS014', 'TS024']);
    assert.equal(await row.locator('.rec-calls').textContent(), '2 calls');
    assert.equal(await row.locator('.rec-file').textContent(), 'basic.jsonl:2');
    assert.equal(await row.locator('.sev').getAttribute('aria-label'), 'error');
    const failed = page.locator('.rec-row', { has: page.locator('.rec-id', { hasText: /^failed-429$/ }) });
    assert.equal(await failed.locator('.rec-failed').textContent(), 'failed');
    // Unreadable lines, with their files.
    const lineErrors = await page.locator('.line-error .line-error-where').allTextContents();
    assert.ok(lineErrors.includes('basic.jsonl:5'), lineErrors.join());
    assert.equal(lineErrors.length, data.lineErrors.length);
    // The first record is open and selected.
    const first = data.summaries[0];
    assert.ok(first);
    assert.equal(await page.locator('.record-title').textContent(), first.id);
    assert.equal(await page.locator('.rec-row[aria-selected="true"] .rec-id').textContent(), first.id);
    // Keyboard: ↓ selects and opens the next record, End the last, Home the first, Enter goes to the timeline.
    await page.locator('.list-scroller').focus();
    await page.keyboard.press('ArrowDown');
    await page.locator('.record-title', { hasText: data.summaries[1]?.id ?? '' }).waitFor();
    assert.equal(await page.locator('.list-scroller').getAttribute('aria-activedescendant'), 'rec-opt-1');
    await page.keyboard.press('End');
    await page.locator('.record-title', { hasText: data.summaries[total - 1]?.id ?? '' }).waitFor();
    await page.keyboard.press('Home');
    await page.locator('.record-title', { hasText: first.id }).waitFor();
    await page.keyboard.press('Enter');
    assert.equal(await js<string>(page, 'document.activeElement.className'), 'timeline');
    await done();
  });

  test('timeline: role-coloured chips, special tokens with their text, visible whitespace, approximate boundaries', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    await selectRecord(page, 'weather-clean');
    const view = viewOf('weather-clean');
    assert.equal(await page.locator('.chip[data-i]').count(), view.tokens.length);
    const markers = view.tokens.filter((tk) => tk.role === 'marker').map((tk) => tk.text);
    assert.deepEqual(await page.locator('.chip.role-marker').allTextContents(), markers);
    assert.ok(markers.includes('<|tool_call_begin|>'));
    assert.equal(await page.locator('.chip.role-call-id').count(), view.tokens.filter((tk) => tk.role === 'call-id').length);
    assert.equal(await page.locator('.chip.role-arguments').count(), view.tokens.filter((tk) => tk.role === 'arguments').length);
    // Whitespace is shown as a glyph (drawn before the text)…
    assert.equal(await page.locator('#tok-1').getAttribute('data-lead'), '·');
    assert.equal(await page.locator('#tok-1').textContent(), 'check');
    assert.equal(await js<string>(page, `getComputedStyle(document.querySelector('#tok-1'), '::before').content`), '"·"');
    assert.equal(await chipText(page, 1), '·check');
    // …and copies as itself.
    const copied = await js<string>(
      page,
      `(() => {
        const r = document.createRange();
        r.setStart(document.querySelector('#tok-1'), 0);
        r.setEnd(document.querySelector('#tok-3').lastChild, 3);
        const sel = document.getSelection(); sel.removeAllRanges(); sel.addRange(r);
        const dt = new DataTransfer();
        document.querySelector('#tok-1').dispatchEvent(new ClipboardEvent('copy', { clipboardData: dt, bubbles: true, cancelable: true }));
        sel.removeAllRanges();
        return dt.getData('text/plain');
      })()`,
    );
    assert.equal(copied, ' check the wea');
    // Approximate tokenisation is marked.
    assert.equal(view.approximate, true);
    assert.match((await page.locator('.approximate-banner').textContent()) ?? '', /token boundaries are approximate: no recorded tokens/);
    assert.deepEqual(
      await chipTokens(page, '.chip.approx'),
      view.tokens.flatMap((tk, i) => (tk.approximate ? [i] : [])),
    );
    assert.equal(await js<string>(page, `getComputedStyle(document.querySelector('#tok-0')).borderTopStyle`), 'dashed');

    // Rebuilt text and token warnings are said.
    await selectRecord(page, 'rebuilt-specials');
    assert.equal(viewOf('rebuilt-specials').rebuilt, true);
    assert.match((await page.locator('.banners').textContent()) ?? '', /skipped special tokens when decoding: the text was rebuilt/);
    assert.equal(await page.locator('.chip.role-marker').textContent(), '<|tool_calls_section_begin|>');
    await selectRecord(page, 'token-text-mismatch');
    const mismatch = viewOf('token-text-mismatch');
    assert.ok(mismatch.tokenWarning);
    const banners = (await page.locator('.banners').textContent()) ?? '';
    assert.ok(banners.includes(mismatch.tokenWarning), banners);
    assert.match(banners, /approximate where chips are dashed/);
    assert.deepEqual(
      await chipTokens(page, '.chip.approx'),
      mismatch.tokens.flatMap((tk, i) => (tk.approximate ? [i] : [])),
    );

    if (SAMPLES.length) {
      // Recorded tokens: solid, logprob-shaded, titles with id and logprob.
      await selectRecord(page, 'clean-single-call');
      const rec = viewOf('clean-single-call');
      assert.equal(rec.tokenOrigin, 'recorded');
      assert.equal(await page.locator('.approximate-banner').count(), 0);
      assert.equal(await page.locator('.chip.approx').count(), 0);
      const shaded = rec.tokens.findIndex((tk) => tk.logprob !== undefined && Math.exp(tk.logprob) < 0.6);
      assert.ok(shaded >= 0);
      assert.match((await page.locator(`#tok-${shaded}`).getAttribute('class')) ?? '', /\blp[2-4]\b/);
      const title = (await page.locator('#tok-0').getAttribute('title')) ?? '';
      assert.match(title, new RegExp(`id ${rec.tokens[0]?.id}`));
      assert.match(title, /logprob -0\.1260/);
    }
    await done();
  });

  test('stepping: keys and buttons move the cursor; the inspector shows state, delta and calls so far', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    await selectRecord(page, 'weather-clean');
    const view = viewOf('weather-clean');
    const n = view.tokens.length;
    await page.locator('.timeline').focus();
    await page.keyboard.press('Home');
    await waitPosition(page, `token 1 / ${n}`);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await waitPosition(page, `token 4 / ${n}`);
    assert.equal(await page.locator('.parser-state').textContent(), view.tokens[3]?.state);
    assert.equal(await page.locator('.section-delta .delta dd').first().textContent(), '·weather');
    // Copying from the inspector gives the real whitespace too.
    const copied = await js<string>(
      page,
      `(() => {
        const dd = document.querySelector('.section-delta .delta dd');
        const sel = document.getSelection(); sel.removeAllRanges(); sel.selectAllChildren(dd);
        const dt = new DataTransfer();
        dd.dispatchEvent(new ClipboardEvent('copy', { clipboardData: dt, bubbles: true, cancelable: true }));
        sel.removeAllRanges();
        return dt.getData('text/plain');
      })()`,
    );
    assert.equal(copied, ' weather');
    assert.equal(await page.locator('.timeline').getAttribute('aria-activedescendant'), 'tok-3');
    assert.equal(await page.locator('.chip.cursor').getAttribute('id'), 'tok-3');
    assert.equal(await js<string>(page, `getComputedStyle(document.querySelector('.chip.cursor')).outlineStyle`), 'solid');
    await page.keyboard.press('ArrowLeft');
    await waitPosition(page, `token 3 / ${n}`);

    // Markers: ↓ / ] next, ↑ / [ previous.
    const markers = view.tokens.flatMap((tk, i) => (tk.special ? [i] : []));
    await page.keyboard.press('ArrowDown');
    await waitPosition(page, `token ${(markers[0] as number) + 1} / ${n}`);
    assert.equal(await page.locator('.section-delta .nothing').textContent(), 'nothing (a correct parser sends no markup)');
    await page.keyboard.press(']');
    await waitPosition(page, `token ${(markers[1] as number) + 1} / ${n}`);
    await page.keyboard.press('[');
    await waitPosition(page, `token ${(markers[0] as number) + 1} / ${n}`);
    await page.keyboard.press('ArrowUp');
    await waitPosition(page, `token ${(markers[0] as number) + 1} / ${n}`);
    assert.match((await page.locator('.topbar .message').textContent()) ?? '', /No earlier marker/);

    // Calls: n to the call, then to the token that sends its name.
    const call = view.calls[0];
    assert.ok(call);
    await page.keyboard.press('Home');
    await page.keyboard.press('n');
    await waitPosition(page, `token ${call.tokenStart + 1} / ${n}`);
    assert.match((await page.locator('.section-call').getAttribute('description')) ?? '', /#0 get_weather/);
    const named = view.tokens.findIndex((tk) => tk.emitted?.tool_calls?.some((c) => c.function.name));
    await page.locator(`#tok-${named}`).click();
    await waitPosition(page, `token ${named + 1} / ${n}`);
    const delta = (await page.locator('.section-delta .delta').textContent()) ?? '';
    assert.match(delta, /tool call 0/);
    assert.match(delta, /get_weather/);
    assert.match(delta, /functions\.get_weather:0/);
    assert.equal(await page.locator('.section-calls .acc-name').textContent(), 'get_weather');
    await page.keyboard.press('End');
    await waitPosition(page, `token ${n} / ${n}`);
    assert.equal(await page.locator('.section-calls pre.json').textContent(), JSON.stringify({ city: 'Paris' }, null, 2));
    await page.keyboard.press('p');
    await waitPosition(page, `token ${call.tokenStart + 1} / ${n}`);

    // Toolbar buttons do the same.
    await page.locator('vscode-toolbar-button[data-action="first"]').click();
    await waitPosition(page, `token 1 / ${n}`);
    await page.locator('vscode-toolbar-button[data-action="next"]').click();
    await waitPosition(page, `token 2 / ${n}`);

    // Space plays (20 tokens/s) and pauses.
    await page.locator('.timeline').focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(260);
    await page.keyboard.press('Space');
    const played = Number(/token (\d+)/.exec(await position(page))?.[1]);
    assert.ok(played > 2 && played < n, `played to ${played}`);
    await page.waitForTimeout(150);
    assert.equal(Number(/token (\d+)/.exec(await position(page))?.[1]), played, 'paused');
    await done();
  });

  test('diagnostics: e / E jump to the tokens they anchor to, underlined exactly there', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    await selectRecord(page, 'two-calls-schema');
    const view = viewOf('two-calls-schema');
    const n = view.tokens.length;
    const anchored = anchoredDiagnostics(view);
    assert.ok(anchored.length >= 2);
    await page.locator('.timeline').focus();
    await page.keyboard.press('Home');
    for (const d of anchored) {
      await page.keyboard.press('e');
      await waitPosition(page, `token ${d.start + 1} / ${n}`);
      // The underline covers exactly tokenStart..tokenEnd-1.
      assert.deepEqual(
        await chipTokens(page, `.chip.diag[data-diags~="${d.index}"]`),
        range(d.start, d.end),
        `${d.diagnostic.code} underline`,
      );
      assert.deepEqual(await chipTokens(page, '.chip.diag-active'), range(d.start, d.end), 'active range');
      const item = page.locator('.section-here .diag-item.active');
      assert.equal(await item.locator('.diag-code').textContent(), d.diagnostic.code);
      assert.equal(await item.locator('.diag-message').textContent(), d.diagnostic.message);
      assert.equal(await item.locator('.diag-hint').textContent(), `Hint: ${d.diagnostic.hint}`);
    }
    // Then the findings anchored elsewhere (response, request), each on its tab; no further one; back with Shift+E.
    const offTokens = view.diagnostics.length - anchored.length;
    for (let i = 1; i <= offTokens; i++) {
      await page.keyboard.press('e');
      await page.locator('.finding-strip .finding-pos', { hasText: `finding ${anchored.length + i} of ` }).waitFor();
    }
    await page.keyboard.press('e');
    await page.locator('.topbar .message', { hasText: 'No later finding in this record.' }).waitFor();
    for (let i = 0; i < offTokens; i++) await page.keyboard.press('Shift+E');
    const last = anchored[anchored.length - 1] as (typeof anchored)[number];
    await page.locator('.finding-strip .finding-pos', { hasText: `finding ${anchored.length} of ` }).waitFor();
    await waitPosition(page, `token ${last.start + 1} / ${n}`);
    await page.keyboard.press('Shift+E');
    const before = anchored[anchored.length - 2] as (typeof anchored)[number];
    await waitPosition(page, `token ${before.start + 1} / ${n}`);
    // Every underlined chip is inside some diagnostic; chips outside all of them are not underlined.
    const underlined = await chipTokens(page, '.chip.diag');
    const covered = [...new Set(anchored.flatMap((d) => range(d.start, d.end)))].sort((a, b) => a - b);
    assert.deepEqual(underlined, covered);
    const first = anchored[0] as (typeof anchored)[number];
    assert.equal(await js<string>(page, `getComputedStyle(document.querySelector('#tok-${first.start}')).textDecorationStyle`), 'wavy');
    assert.match((await page.locator(`#tok-${first.start}`).getAttribute('title')) ?? '', new RegExp(`${first.diagnostic.code}: `));
    // n / p across the two calls.
    const [c0, c1] = view.calls;
    assert.ok(c0 && c1);
    await page.keyboard.press('Home');
    await page.keyboard.press('n');
    await waitPosition(page, `token ${c0.tokenStart + 1} / ${n}`);
    await page.keyboard.press('n');
    await waitPosition(page, `token ${c1.tokenStart + 1} / ${n}`);
    const errors = await page.locator('.section-call .schema-errors li').allTextContents();
    assert.deepEqual(
      errors,
      c1.schemaErrors.map((e) => `${e.path} →${e.message}`),
    );
    assert.equal(await page.locator('.section-call .tool-name').textContent(), 'search_web');
    await page.keyboard.press('p');
    await waitPosition(page, `token ${c0.tokenStart + 1} / ${n}`);
    // The response dropped the second call: the comparison says so.
    assert.ok((await page.locator('.compare-table tr.diff').count()) >= 1);
    await done();
  });

  test('filters: text, kind, severity, errors only', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    const total = data.summaries.length;
    const count = async () => (await page.locator('.list-count').textContent()) ?? '';
    await page.locator('.filter-errors').click();
    const errors = data.summaries.filter((s) => s.worst === 'error' || s.failed).length;
    assert.equal(await count(), `${errors} of ${total} records`);
    const ids = await page.locator('.rec-row .rec-id').allTextContents();
    assert.ok(ids.includes('failed-429') && ids.includes('two-calls-schema') && !ids.includes('weather-clean'), ids.join());
    await page.locator('.filter-errors').click();
    assert.equal(await count(), `${total} records`);

    await page.locator('.filter-text input').fill('WEATHER');
    const needle = data.summaries.filter((s) =>
      [s.id, s.model ?? '', s.preview, s.file ?? '', s.failed ?? '', s.format, s.source, `line ${s.line}`]
        .join('\n')
        .toLowerCase()
        .includes('weather'),
    ).length;
    assert.equal(await count(), `${needle} of ${total} records`);
    await page.locator('.filter-text input').fill('');

    const setSelect = (cls: string, value: string) =>
      page.evaluate(
        `(() => { const s = document.querySelector('${cls}'); s.value = ${JSON.stringify(value)}; s.dispatchEvent(new Event('change')); })()`,
      );
    await setSelect('.filter-kind', 'dropped-call');
    const dropped = data.summaries.filter((s) => s.kinds['dropped-call']).length;
    assert.equal(await count(), `${dropped} of ${total} records`);
    assert.ok(await page.locator('.filter-kind vscode-option[value="dropped-call"]').count());
    await setSelect('.filter-kind', '');
    await setSelect('.filter-severity', 'none');
    const clean = data.summaries.filter((s) => s.worst === null && !s.failed).length;
    assert.equal(await count(), `${clean} of ${total} records`);
    await setSelect('.filter-severity', 'warning');
    assert.equal(await count(), `${data.summaries.filter((s) => s.counts.warning > 0).length} of ${total} records`);
    await page.locator('.filter-text input').fill('no such record anywhere');
    assert.match(
      (await js<string>(page, `getComputedStyle(document.querySelector('.list-spacer'), '::before').content`)) ?? '',
      /No records match the filters/,
    );
    await done();
  });

  test('no completion: says so and shows the response and the request', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    await selectRecord(page, 'response-only');
    assert.equal(viewOf('response-only').tokenOrigin, 'none');
    await page.locator('.no-completion').waitFor();
    assert.match((await page.locator('.no-completion .banner').textContent()) ?? '', /no raw completion/);
    assert.match((await page.locator('.no-completion .response-view').textContent()) ?? '', /Hello! How can I help\?/);
    assert.equal(await page.locator('.no-completion .request-view details.message').count(), 2);
    assert.equal(await page.locator('.stepbar').isVisible(), false);
    assert.equal(await page.locator('.timeline-host').isVisible(), false);
    assert.match((await page.locator('.section-cursor').textContent()) ?? '', /no raw completion/);
    // Keys do nothing harmful here.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('e');
    await selectRecord(page, 'failed-429');
    assert.match((await page.locator('.no-completion .error-banner').textContent()) ?? '', /HTTP 429 Too Many Requests/);
    await done();
  });

  test('request view, response view, raw JSON in the page, help overlay', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    await selectRecord(page, 'two-calls-schema');
    await page.locator('.tab[data-tab="request"]').click();
    const req = page.locator('#panel-request');
    assert.equal(await req.locator('details.message').count(), 2);
    assert.equal(await req.locator('details.tool').count(), 2);
    assert.equal(await req.locator('details.tool summary .tool-name').first().textContent(), 'get_weather');
    assert.equal(await req.locator('details.tool').first().getAttribute('open'), null);
    await req.locator('details.tool summary').first().click();
    assert.match((await req.locator('details.tool').first().locator('pre.json').textContent()) ?? '', /"enum": \[/);
    assert.match((await req.locator('.msg-content').last().textContent()) ?? '', /Weather in Oslo and search news/);
    // The prompt: no recorded one, so the request rendered with Toolscope's template, said so, behind a click.
    assert.match((await req.locator('details.prompt summary').textContent()) ?? '', /rendered prompt.*Toolscope's Kimi K2 template/);
    await req.locator('details.prompt summary').click();
    assert.match(
      (await req.locator('details.prompt .prompt-text').textContent()) ?? '',
      /<\|im_user\|>user<\|im_middle\|>Weather in Oslo and search news[\s\S]*<\|im_assistant\|>assistant<\|im_middle\|>$/,
    );
    // Tabs by keyboard.
    await page.locator('.tab[data-tab="request"]').focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.locator('.tab[data-tab="response"]').getAttribute('aria-selected'), 'true');
    assert.match((await page.locator('#panel-response').textContent()) ?? '', /Tool calls \(1\)/);
    // A stepping key brings the timeline back.
    await page
      .locator('.timeline')
      .focus({ timeout: 1000 })
      .catch(() => undefined);
    await page.keyboard.press('n');
    assert.equal(await page.locator('.tab[data-tab="timeline"]').getAttribute('aria-selected'), 'true');
    // Raw JSON: in a report, shown in the page.
    await page.locator('.raw-button').click();
    const dialog = page.locator('.dialog.raw');
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute('role'), 'dialog');
    const raw = JSON.parse((await dialog.locator('.raw-json').textContent()) ?? '{}') as { id?: string };
    assert.equal(raw.id, 'two-calls-schema');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Help.
    await page.keyboard.press('?');
    const help = page.locator('.dialog.help');
    await help.waitFor();
    assert.match((await help.textContent()) ?? '', /Previous \/ next diagnostic/);
    const pos = await position(page);
    await page.keyboard.press('ArrowRight');
    assert.equal(await position(page), pos, 'keys do not step behind the dialog');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await done();
  });

  test('UI state survives a reload (record, cursor, filters, panels)', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await open(reportUrl);
    await selectRecord(page, 'think-then-call');
    const n = viewOf('think-then-call').tokens.length;
    await page.locator('.timeline').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await waitPosition(page, `token 5 / ${n}`);
    await page.locator('.filter-text input').fill('think');
    await page.locator('.splitter-left').focus();
    await page.keyboard.press('ArrowRight');
    await page.locator('.toggle-inspector').click();
    assert.equal(await page.locator('.inspector').isVisible(), false);
    const width = await js<string>(page, `document.querySelector('.layout').style.getPropertyValue('--list-w')`);
    await page.waitForTimeout(250);
    await page.reload();
    await page.locator('.record-title', { hasText: 'think-then-call' }).waitFor();
    await waitPosition(page, `token 5 / ${n}`);
    assert.equal(await page.locator('.filter-text').evaluate((el) => (el as unknown as { value: string }).value), 'think');
    assert.equal(await page.locator('.inspector').isVisible(), false);
    assert.equal(await js<string>(page, `document.querySelector('.layout').style.getPropertyValue('--list-w')`), width);
    assert.equal(width, '316px');
    await done();
  });

  test('VS Code page: acquireVsCodeApi, init then summaries events, getRecord, openRaw, setState, growth and reset', async (t) => {
    if (skipIfMissing(t)) return;
    const trace = join(tmp, 'live.jsonl');
    await copyFile(BASIC, trace);
    const { page, done } = await open(null, { theme: 'dark' });
    await page.addInitScript(DARK_VSCODE_THEME);
    const host = await openVsCodePage(page, server, trace, '/vscode.html');
    const records = (await readFile(BASIC, 'utf8'))
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{')).length;
    await page.locator('.list-count', { hasText: new RegExp(`^${records} records$`) }).waitFor();
    await host.idle();
    assert.ok(host.events >= 3, `summaries came in ${host.events} events`);
    assert.equal(host.requests[0]?.type, 'ready');
    assert.equal(await page.locator('.line-error .line-error-where').textContent(), 'line 5');
    await selectRecord(page, 'two-calls-schema');
    assert.ok(host.requests.some((r) => r.type === 'getRecord'));
    await page.locator('.timeline').focus();
    await page.keyboard.press('e');
    await page.locator('.raw-button').click();
    await page.waitForTimeout(100);
    const raw = host.requests.find((r) => r.type === 'openRaw');
    assert.ok(raw && raw.type === 'openRaw' && raw.key === '1:0', JSON.stringify(host.requests));
    assert.equal(await page.locator('.dialog.raw').count(), 0, 'VS Code opens the raw record in an editor');
    const pos = await position(page);
    await shot(page, 'vscode-page-dark');
    // Hidden and shown again (the webview is re-created): state comes back through getState.
    await page.waitForTimeout(250);
    await page.reload();
    await page.locator('.record-title', { hasText: 'two-calls-schema' }).waitFor();
    await waitPosition(page, pos);
    // The file grows: new rows arrive as events.
    await appendFile(trace, JSON.stringify({ toolscope: 1, id: 'appended-later', completion: { text: 'late' } }) + '\n');
    await host.fileChanged();
    await page.locator('.rec-id', { hasText: /^appended-later$/ }).waitFor();
    // The file is replaced: reset, then the new list.
    await writeFile(trace, JSON.stringify({ toolscope: 1, id: 'replacement', completion: { text: 'new' } }) + '\n');
    await host.fileChanged();
    await page.locator('.list-count', { hasText: /^1 record$/ }).waitFor();
    await page.locator('.record-title', { hasText: 'replacement' }).waitFor();
    await host.close();
    await done();
  });

  test('a stream still being written: the record on screen is read again as it grows', async (t) => {
    if (skipIfMissing(t)) return;
    const trace = join(tmp, 'growing.sse.jsonl');
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-grow', object: 'chat.completion.chunk', created: 1, model: 'kimi-k2', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    await writeFile(trace, chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Checking the weather. ' }));
    const { page, done } = await open(null);
    const host = await openVsCodePage(page, server, trace, '/growing.html');
    await page.locator('.record-title').first().waitFor();
    await page.locator('.tab[data-tab="response"]').click();
    await page.locator('#panel-response', { hasText: /Tool calls \(0\)/ }).waitFor();
    // The rest of the stream arrives: a call, then the end.
    await appendFile(
      trace,
      chunk({
        tool_calls: [
          { index: 0, id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } },
        ],
      }) +
        chunk({}, 'tool_calls') +
        'data: [DONE]\n\n',
    );
    await host.fileChanged();
    await page.locator('#panel-response', { hasText: /Tool calls \(1\)/ }).waitFor();
    assert.match((await page.locator('#panel-response').textContent()) ?? '', /get_weather/);
    await host.close();
    await done();
  });

  test('10k records: the list stays virtual, arrives in batches, and is navigable', async (t) => {
    if (skipIfMissing(t)) return;
    const trace = join(tmp, 'many.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++)
      lines.push(
        JSON.stringify({ toolscope: 1, id: `r${i}`, completion: { text: i % 7 ? `answer ${i}` : `<|tool_call_begin|>functions.x:${i}` } }),
      );
    await writeFile(trace, lines.join('\n') + '\n');
    const { page, done } = await open(null);
    const started = Date.now();
    const host = await openVsCodePage(page, server, trace, '/many.html', 40);
    await page.locator('.record-title', { hasText: 'r0' }).waitFor();
    const firstRecord = Date.now() - started;
    await page.locator('.list-count', { hasText: /^10000 records$/ }).waitFor({ timeout: 60_000 });
    const allListed = Date.now() - started;
    await host.idle();
    assert.ok(host.events > 2, `${host.events} events`);
    const elements = await elementCount(page);
    assert.ok(elements < 2000, `${elements} elements`);
    await page.locator('.list-scroller').focus();
    await page.keyboard.press('End');
    await page.locator('.record-title', { hasText: 'r9999' }).waitFor();
    assert.equal(await page.locator('.rec-row[aria-selected="true"]').getAttribute('aria-posinset'), '10000');
    await page.locator('.filter-errors').click();
    const errors = Number(/^(\d+) of/.exec((await page.locator('.list-count').textContent()) ?? '')?.[1]);
    assert.ok(errors > 1000 && errors < 10_000, String(errors));
    console.log(
      `timing: 10k records (VS Code page, batches of 40 ms): first record painted ${firstRecord} ms, all ${host.events} batches listed ${allListed} ms; ${elements} elements`,
    );
    await host.close();
    await done();
  });

  test('a 100k-token record opens fast and keeps the DOM small', async (t) => {
    if (skipIfMissing(t)) return;
    const trace = join(tmp, 'big.jsonl');
    let text = '';
    for (let i = 0; text.length < 330_000; i++) text += (i % 23 === 22 ? '\n' : ' ') + `w${i % 1000}`;
    text +=
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.search_web:0<|tool_call_argument_begin|>{"query":"end"}<|tool_call_end|><|tool_calls_section_end|>';
    const tools = [
      { type: 'function', function: { name: 'search_web', parameters: { type: 'object', properties: { query: { type: 'string' } } } } },
    ];
    await writeFile(
      trace,
      JSON.stringify({
        toolscope: 1,
        id: 'big',
        request: { model: 'kimi-k2', messages: [{ role: 'user', content: 'go' }], tools },
        completion: { text },
      }) + '\n',
    );
    const big = await reportData([trace], 'big');
    const view = Object.values(big.records)[0];
    assert.ok(view);
    const n = view.tokens.length;
    assert.ok(n >= 100_000, `${n} tokens`);
    const url = addReport(server, '/big.html', big);
    const { page, done } = await open(null);
    await page.goto(url);
    await page.locator('.chip[data-i]').first().waitFor();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { performance: { getEntriesByName(n: string): unknown[] } }).performance.getEntriesByName(
          'toolscope:record-painted',
        ).length > 0,
    );
    const painted = await js<number>(page, `performance.getEntriesByName('toolscope:record-painted')[0].startTime`);
    const opened = await elementCount(page);
    assert.ok(opened < 5000, `${opened} elements after opening`);
    await page.locator('.timeline').focus();
    await page.keyboard.press('End');
    await waitPosition(page, `token ${n} / ${n}`);
    assert.ok(await page.locator(`#tok-${n - 1}`).isVisible());
    const atEnd = await elementCount(page);
    assert.ok(atEnd < 5000, `${atEnd} elements at the end`);
    await page.locator('.timeline').evaluate((el) => {
      const e = el as unknown as { scrollTop: number; scrollHeight: number };
      e.scrollTop = e.scrollHeight / 2;
    });
    await page.waitForTimeout(50);
    const middle = await elementCount(page);
    assert.ok(middle < 5000, `${middle} elements mid-way`);
    await page.locator('.timeline').evaluate((el) => {
      const e = el as unknown as { scrollTop: number; scrollHeight: number };
      e.scrollTop = e.scrollHeight;
    });
    await page.waitForTimeout(50);
    assert.ok((await elementCount(page)) < 5000);
    // Step keys: from the keydown to the next frame (median of several).
    const steps = await js<Array<[number, number]>>(
      page,
      `(async () => {
        const el = document.querySelector('.timeline');
        const out = [];
        for (let i = 0; i < 7; i++) {
          out.push(await new Promise((resolve) => {
            const t0 = performance.now();
            el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
            const sync = performance.now() - t0;
            requestAnimationFrame(() => resolve([sync, performance.now() - t0]));
          }));
        }
        return out;
      })()`,
    );
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const stepSync = median(steps.map((x) => x[0]));
    const stepMs = median(steps.map((x) => x[1]));
    await waitPosition(page, `token ${n - 7} / ${n}`);
    const jumpMs = await js<number>(
      page,
      `new Promise((resolve) => {
        const el = document.querySelector('.timeline');
        const t0 = performance.now();
        el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true, cancelable: true }));
        requestAnimationFrame(() => resolve(performance.now() - t0));
      })`,
    );
    await waitPosition(page, `token 1 / ${n}`);
    console.log(
      `timing: 100k timeline: ${n} tokens, ${Math.round(JSON.stringify(big).length / 1e6)} MB of embedded data; first record painted ${painted.toFixed(0)} ms after navigation; ` +
        `elements ${opened} (open) / ${atEnd} (end) / ${middle} (middle); step key: handler ${stepSync.toFixed(1)} ms, to the next frame ${stepMs.toFixed(1)} ms (medians of ${steps.length}); End → Home jump → frame ${jumpMs.toFixed(1)} ms`,
    );
    await done();
  });

  test('hostile trace: nothing executes, the text shows literally', async (t) => {
    if (skipIfMissing(t)) return;
    const IMG = '<img src=x onerror="window.__pwned=1">';
    // Even the file name is hostile.
    const trace = join(tmp, `${IMG}.jsonl`);
    const SCRIPT = '</script><script>window.__pwned=1</script>';
    const JSURL = 'javascript:window.__pwned=1';
    const SVG = '<svg onload="window.__pwned=1"></svg>';
    const all = `${IMG} ${SCRIPT} ${JSURL} ${SVG}`;
    const evilTool = {
      type: 'function',
      function: {
        name: IMG,
        description: SCRIPT,
        parameters: { type: 'object', properties: { [SCRIPT]: { type: 'string', description: JSURL } } },
      },
    };
    const tools = [evilTool, { type: 'function', function: { name: 'search', parameters: { type: 'object' } } }];
    const completion = `${all}\n<think>${SCRIPT}</think><|tool_calls_section_begin|><|tool_call_begin|>functions.${IMG}:0<|tool_call_argument_begin|>{"q": ${JSON.stringify(all)}}<|tool_call_end|><|tool_calls_section_end|>`;
    const huge = `${IMG}${'A'.repeat(1_000_000)}${SCRIPT}`;
    const lines = [
      JSON.stringify({
        toolscope: 1,
        id: IMG,
        request: {
          model: SCRIPT,
          messages: [
            { role: 'user', content: all },
            { role: SVG, content: [{ type: 'text', text: all }] },
          ],
          tools,
        },
        completion: { text: completion },
        response: {
          choices: [
            {
              message: {
                role: 'assistant',
                content: all,
                tool_calls: [{ id: JSURL, type: 'function', function: { name: SCRIPT, arguments: all } }],
              },
              finish_reason: 'tool_calls',
            },
          ],
        },
      }),
      JSON.stringify({
        toolscope: 1,
        id: JSURL,
        meta: { model: IMG },
        request: { messages: [{ role: 'user', content: huge }], tools },
        completion: { text: `${SCRIPT}${huge.slice(0, 5000)}` },
      }),
      `${SCRIPT} not json ${'<b>x</b>'.repeat(125_000)}`,
      JSON.stringify({ toolscope: 1, id: SCRIPT, error: all }),
    ];
    await writeFile(trace, lines.join('\n') + '\n');
    const hostile = await reportData([trace]);
    const url = addReport(server, '/hostile.html', hostile);
    const check = async (page: Page, scripts: number) => {
      assert.equal(await js<string>(page, 'typeof window.__pwned'), 'undefined');
      assert.equal(await js<number>(page, `document.querySelectorAll('img, iframe, svg, object, embed, a, b').length`), 0);
      assert.equal(await js<number>(page, `document.querySelectorAll('script').length`), scripts);
    };
    for (const kind of ['report', 'vscode'] as const) {
      const { page, done } = await open(null);
      let host: Awaited<ReturnType<typeof openVsCodePage>> | null = null;
      if (kind === 'report') await page.goto(url);
      else host = await openVsCodePage(page, server, trace, '/hostile-vscode.html');
      await page.locator('.rec-row').first().waitFor();
      await page.locator('.list-count', { hasText: /^3 records$/ }).waitFor();
      // Ids show literally in the list; the bad line is listed by number.
      assert.deepEqual(await page.locator('.rec-row .rec-id').allTextContents(), [IMG, JSURL, SCRIPT]);
      assert.deepEqual(await page.locator('.line-error .line-error-where').allTextContents(), ['line 3']);
      for (const id of [IMG, JSURL, SCRIPT]) {
        await page
          .locator('.rec-row', { has: page.locator('.rec-id', { hasText: id }) })
          .first()
          .click();
        await page.locator('.record-title', { hasText: id }).waitFor();
        for (const tab of ['response', 'request', 'timeline']) await page.locator(`.tab[data-tab="${tab}"]`).click();
        await check(page, kind === 'report' ? 2 : 1);
      }
      // The completion's text, tool name and arguments show as text.
      await page
        .locator('.rec-row', { has: page.locator('.rec-id', { hasText: IMG }) })
        .first()
        .click();
      await page.locator('.record-title', { hasText: IMG }).waitFor();
      const chips = await js<string>(
        page,
        `[...document.querySelectorAll('.chip[data-i]')].map((c) => (c.dataset.lead || '') + c.textContent + (c.dataset.trail || '')).join('')`,
      );
      assert.ok(chips.includes('<img·src=x·onerror="window.__pwned=1">'), chips.slice(0, 200));
      assert.ok(chips.includes('</script><script>window.__pwned=1</script>'));
      await page.locator('.timeline').focus();
      await page.keyboard.press('n');
      assert.ok(((await page.locator('.section-call').textContent()) ?? '').includes(SCRIPT), 'tool definition');
      await page.keyboard.press('End');
      assert.equal(await page.locator('.section-calls .acc-name').textContent(), IMG);
      await page.locator('.tab[data-tab="request"]').click();
      assert.ok(((await page.locator('#panel-request .msg-content').first().textContent()) ?? '').includes(all));
      assert.equal(await page.locator('#panel-request details.tool .tool-name').first().textContent(), IMG);
      if (kind === 'report') {
        await page.locator('.raw-button').click();
        assert.ok(((await page.locator('.raw-json').textContent()) ?? '').includes(JSON.stringify(IMG).slice(1, -1)));
        await page.keyboard.press('Escape');
      }
      // The 1 MB message is cut with a button for the rest.
      await page
        .locator('.rec-row', { has: page.locator('.rec-id', { hasText: JSURL }) })
        .first()
        .click();
      await page.locator('.record-title', { hasText: JSURL }).waitFor();
      await page.locator('.tab[data-tab="request"]').click();
      await page.locator('#panel-request details.message .show-all').click();
      assert.equal((await page.locator('#panel-request .msg-content').first().textContent())?.length, huge.length);
      await check(page, kind === 'report' ? 2 : 1);
      assert.equal(await page.title(), `Toolscope — ${IMG}.jsonl`);
      assert.equal(await page.locator('.topbar .file-name').textContent(), `${IMG}.jsonl`);
      await host?.close();
      await done();
    }
  });

  test('screenshots: light and dark', async (t) => {
    if (skipIfMissing(t)) return;
    for (const theme of ['light', 'dark'] as const) {
      const { page, done } = await open(null, { theme });
      await page.addInitScript(`document.addEventListener('DOMContentLoaded', () => { document.body.dataset.theme = '${theme}'; })`);
      await page.goto(reportUrl);
      await page.locator('.record-title').first().waitFor();
      await selectRecord(page, 'two-calls-schema');
      await page.locator('.timeline').focus();
      await page.keyboard.press('e');
      await shot(page, `timeline-${theme}`);
      await page.locator('.tab[data-tab="request"]').click();
      await shot(page, `request-${theme}`);
      await page.locator('.tab[data-tab="timeline"]').click();
      if (SAMPLES.length) {
        await selectRecord(page, 'clean-parallel-calls');
        await page.locator('.timeline').focus();
        await page.keyboard.press('n');
        await page.keyboard.press('n');
        await shot(page, `recorded-tokens-${theme}`);
      }
      await selectRecord(page, 'response-only');
      await shot(page, `no-completion-${theme}`);
      await page.keyboard.press('?');
      await shot(page, `help-${theme}`);
      await done();
    }
  });
});
