/**
 * The editor for every user (issue #21), in a real browser: no horizontal overflow at 500, 820 and 1400 px (side
 * panels become overlays when narrow), axe-core's WCAG 2 A/AA rules on the report and the VS Code page with a
 * record open on every tab in all four theme kinds, a keyboard-only journey with a visible focus, the polite live
 * region that announces the cursor, and Play under `prefers-reduced-motion`. Screenshots go to
 * test-results/webview/ (layout-*, a11y-*).
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  addReport,
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
  watch,
  cspViolations,
  js,
  type FakeHost,
} from './harness.ts';
import { axeViolations } from './axe.ts';
import { reportContextOptions, THEME_KINDS, vscodeThemeScript, type ThemeKind } from './themes.ts';

const missing = browserMissing();
const SAMPLE = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');
const WIDTHS = [500, 820, 1400] as const;
const TABS = ['timeline', 'response', 'request', 'vllm', 'compare', 'eval'] as const;

let browser: Browser;
let server: PageServer;
let reportUrl: string;

function skipIfMissing(t: TestContext): boolean {
  if (missing) t.skip(missing);
  return Boolean(missing);
}

/** Elements that run past the viewport or past their panel's edge (content in a horizontal scroller is fine). */
async function overflow(page: Page): Promise<string[]> {
  return js<string[]>(
    page,
    `(() => {
      const out = [];
      const vw = document.documentElement.clientWidth;
      const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      if (document.documentElement.scrollWidth > vw + 1) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
      const scrolls = (el, stop) => {
        for (let p = el; p && p !== stop; p = p.parentElement) {
          const s = getComputedStyle(p);
          if (s.overflowX === 'auto' || s.overflowX === 'scroll' || s.textOverflow === 'ellipsis') return true;
        }
        return false;
      };
      for (const panel of document.querySelectorAll('.topbar, .list-panel, .centre, .inspector, .stepbar')) {
        const r = panel.getBoundingClientRect();
        if (r.width === 0 || getComputedStyle(panel).visibility === 'hidden') continue;
        if (r.right > vw + 1 || r.left < -1) out.push(name(panel) + ' outside the viewport: ' + Math.round(r.left) + '…' + Math.round(r.right) + ' of ' + vw);
        for (const el of panel.querySelectorAll('*')) {
          const e = el.getBoundingClientRect();
          if (e.width === 0 || e.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
          if (e.right > r.right + 1 && !scrolls(el.parentElement, panel)) out.push(name(el) + ' runs past ' + name(panel) + ': ' + Math.round(e.right) + ' > ' + Math.round(r.right));
        }
      }
      return [...new Set(out)].slice(0, 12);
    })()`,
  );
}

async function showTab(page: Page, tab: string): Promise<boolean> {
  const t = page.locator(`#tab-${tab}`);
  if (!(await t.isVisible())) return false;
  await t.click();
  await page.locator(`#panel-${tab}:not([hidden])`).waitFor();
  return true;
}

describe('the editor for every user', { skip: missing ?? false }, () => {
  before(async () => {
    ensureBuilt();
    browser = await launch();
    server = new PageServer();
    await server.start();
    reportUrl = addReport(server, '/a11y-report.html', await reportData([SAMPLE]));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('no horizontal overflow at 500, 820 and 1400 px, light, dark and high contrast; narrow panels are overlays', async (t) => {
    if (skipIfMissing(t)) return;
    const problems: string[] = [];
    for (const width of WIDTHS) {
      for (const kind of ['light', 'dark', 'high-contrast'] as ThemeKind[]) {
        const ctx = await browser.newContext({ viewport: { width, height: 760 }, ...reportContextOptions(kind) });
        const p = await ctx.newPage();
        const watched = await watch(p);
        await p.goto(reportUrl);
        if (width < 1000) await p.locator('.toggle-list').click();
        await selectRecord(p, 'schema-violations');
        for (const tab of TABS) {
          if (!(await showTab(p, tab))) continue;
          for (const o of await overflow(p)) problems.push(`${width} px ${kind} ${tab}: ${o}`);
        }
        await showTab(p, 'timeline');
        await shot(p, `layout-${width}-${kind}`);
        if (width < 1000) {
          // Narrow: the record list is an overlay, opened from the top bar, closed with Escape.
          assert.equal(await p.locator('.list-panel').isVisible(), false, `${width}: the list starts closed`);
          await p.locator('.toggle-list').click();
          await p.locator('.list-panel').waitFor({ state: 'visible' });
          for (const o of await overflow(p)) problems.push(`${width} px ${kind} list open: ${o}`);
          await shot(p, `layout-${width}-${kind}-list`);
          await p.keyboard.press('Escape');
          await p.locator('.list-panel').waitFor({ state: 'hidden' });
        }
        if (width < 700) {
          assert.equal(await p.locator('.inspector').isVisible(), false, `${width}: the inspector starts closed`);
          await p.locator('.toggle-inspector').click();
          await p.locator('.inspector').waitFor({ state: 'visible' });
          for (const o of await overflow(p)) problems.push(`${width} px ${kind} inspector open: ${o}`);
          await shot(p, `layout-${width}-${kind}-inspector`);
        }
        assert.deepEqual(watched.errors, []);
        assert.deepEqual(await cspViolations(p), []);
        await ctx.close();
      }
    }
    assert.deepEqual(problems, []);
  });

  test('panel widths: dragged or moved with the keys, remembered, never past the window', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await openPage(browser, null, { width: 1400 });
    const host = await openVsCodePage(page, server, SAMPLE, '/a11y-widths.html');
    await page.locator('.rec-row').first().waitFor();
    const list = page.locator('.list-panel');
    const before = (await list.boundingBox())?.width ?? 0;
    const split = page.locator('.splitter-left');
    await split.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const after = (await list.boundingBox())?.width ?? 0;
    assert.ok(after >= before + 30, `${before} → ${after}`);
    const box = (await split.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + 2 + 5000, box.y + 200, { steps: 4 });
    await page.mouse.up();
    assert.deepEqual(await overflow(page), [], 'dragged to the far right');
    const dragged = (await list.boundingBox())?.width ?? 0;
    // Remembered in the webview state: a reload keeps the width.
    await page.waitForTimeout(300);
    await page.reload();
    await page.locator('.rec-row').first().waitFor();
    const kept = (await list.boundingBox())?.width ?? 0;
    assert.ok(Math.abs(kept - dragged) <= 2, `width kept after reload: ${dragged} → ${kept}`);
    await host.close();
    await done();
  });

  for (const page of ['report', 'editor'] as const) {
    test(`axe-core: no WCAG 2 A/AA violation on the ${page} with a record open, on every tab, in all four theme kinds`, async (t) => {
      if (skipIfMissing(t)) return;
      const found: string[] = [];
      for (const kind of THEME_KINDS) {
        const ctx = await browser.newContext({ viewport: { width: 1400, height: 850 }, ...reportContextOptions(kind) });
        const p = await ctx.newPage();
        const watched = await watch(p);
        let host: FakeHost | null = null;
        if (page === 'report') await p.goto(reportUrl);
        else {
          await p.addInitScript(vscodeThemeScript(kind));
          host = await openVsCodePage(p, server, SAMPLE, `/a11y-editor-${kind}.html`, 1, { vllmProfile: 'A' });
          await host.idle();
        }
        await selectRecord(p, 'schema-violations');
        // A diagnostic under the cursor: the inspector shows the finding.
        await p.locator('.timeline').focus();
        await p.keyboard.press('e');
        for (const tab of TABS) {
          if (!(await showTab(p, tab))) continue;
          for (const v of await axeViolations(p)) found.push(`${kind} ${tab}: ${v}`);
        }
        await shot(p, `a11y-${page}-${kind}`);
        await host?.close();
        assert.deepEqual(watched.errors, []);
        await ctx.close();
      }
      assert.deepEqual(found, []);
    });
  }

  test('keyboard only: list → timeline → inspector → tabs, every stop with a visible focus', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await openPage(browser, null, { width: 1400 });
    await page.goto(reportUrl);
    await page.locator('.rec-row').first().waitFor();
    const focused = () =>
      js<{ sel: string; outline: string; shadow: string }>(
        page,
        `(() => { const a = document.activeElement; const s = getComputedStyle(a); return { sel: a.tagName.toLowerCase() + '.' + (a.className || ''), outline: s.outlineStyle === 'none' || s.outlineWidth === '0px' ? '' : s.outlineWidth + ' ' + s.outlineStyle, shadow: s.boxShadow === 'none' ? '' : s.boxShadow }; })()`,
      );
    const tabTo = async (selector: string, max = 40): Promise<void> => {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press('Tab');
        if (await js<boolean>(page, `document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) {
          const f = await focused();
          assert.ok(f.outline || f.shadow, `a visible focus on ${f.sel}`);
          return;
        }
      }
      assert.fail(`${selector} not reached with Tab`);
    };
    // The record list: arrow keys pick a record, Enter opens it.
    await tabTo('.list-scroller');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.locator('.record-title').waitFor();
    const title = await page.locator('.record-title').textContent();
    // The timeline: the cursor steps with the arrows.
    await tabTo('.timeline');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.match((await page.locator('.position').textContent()) ?? '', /^token 3 \//);
    // The inspector: its sections open and close with Enter.
    await tabTo('.inspector summary, .inspector button, .inspector [tabindex="0"]', 80);
    // The tabs: back with Shift+Tab to the tab bar, arrows move between tabs.
    for (let i = 0; i < 80 && !(await js<boolean>(page, 'document.activeElement?.matches(".tab") ?? false')); i++)
      await page.keyboard.press('Shift+Tab');
    assert.equal(await js<boolean>(page, 'document.activeElement?.matches(".tab") ?? false'), true, 'a tab reached with Shift+Tab');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#tab-response').getAttribute('aria-selected'), 'true');
    await page.locator('#panel-response:not([hidden])').waitFor();
    assert.equal(await page.locator('.record-title').textContent(), title);
    await shot(page, 'a11y-keyboard-journey');
    await done();
  });

  test('every control is reachable with Tab and shows a visible focus, in light and high contrast', async (t) => {
    if (skipIfMissing(t)) return;
    for (const kind of ['light', 'high-contrast'] as ThemeKind[]) {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 850 }, ...reportContextOptions(kind) });
      const page = await ctx.newPage();
      await page.goto(reportUrl);
      await selectRecord(page, 'schema-violations');
      // From the top of the page: back with Shift+Tab until the focus leaves the first control.
      for (let i = 0; i < 40 && !(await js<boolean>(page, 'document.activeElement === document.body')); i++)
        await page.keyboard.press('Shift+Tab');
      const seen: string[] = [];
      const invisible: string[] = [];
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press('Tab');
        // The focused element, through open shadow roots (vscode-elements focus an inner control).
        const f = await js<{ key: string; visible: boolean }>(
          page,
          `(() => {
            let a = document.activeElement;
            const chain = [a];
            while (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; chain.push(a); }
            // Inside a component the ring may be drawn by the focused control's frame (a text field's root).
            // (parentElement stops at the shadow root, so nothing outside the component counts.)
            if (chain.length > 1) for (let p = a && a.parentElement; p; p = p.parentElement) chain.push(p);
            const probe = document.createElement('span');
            probe.style.color = 'var(--vscode-focusBorder)';
            document.body.appendChild(probe);
            const focusColour = getComputedStyle(probe).color;
            probe.remove();
            // An outline, a shadow, or (as VS Code's own inputs) a border in the focus colour.
            const shows = (el) => {
              const s = getComputedStyle(el);
              if ((s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none') return true;
              return parseFloat(s.borderTopWidth) > 0 && s.borderTopColor === focusColour;
            };
            const top = chain[0];
            const key = top ? top.tagName.toLowerCase() + (top.id ? '#' + top.id : '') + '.' + (typeof top.className === 'string' ? top.className : '') + '@' + Array.prototype.indexOf.call(document.querySelectorAll('*'), top) : 'none';
            return { key, visible: chain.some((el) => el && el !== document.body && shows(el)) };
          })()`,
        );
        // Past the last control the focus leaves the page (body): the cycle is done.
        if ((f.key.startsWith('body.') && seen.length > 0) || seen.includes(f.key)) break;
        seen.push(f.key);
        if (!f.visible) invisible.push(f.key);
      }
      assert.ok(seen.length >= 20, `${kind}: tab stops ${seen.join(', ')}`);
      assert.ok(
        seen.some((k) => k.includes('toggle-list')) && seen.some((k) => k.includes('timeline')) && seen.some((k) => k.includes('section')),
        seen.join(', '),
      );
      assert.deepEqual(invisible, [], `${kind}: focus not visible`);
      await ctx.close();
    }
  });

  test('the live region announces the cursor token, its role and the finding there, politely and briefly', async (t) => {
    if (skipIfMissing(t)) return;
    const { page, done } = await openPage(browser, reportUrl, { width: 1400 });
    await selectRecord(page, 'schema-violations');
    const region = page.locator('[aria-live="polite"].cursor-announcer');
    assert.equal(await region.count(), 1, 'one polite live region for the cursor');
    await page.locator('.timeline').focus();
    await page.keyboard.press('ArrowRight');
    // Announced once the cursor rests (after the record's own first announcement).
    await page.waitForFunction(() =>
      /^Token 2 of/.test(
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector(
          '.cursor-announcer',
        )?.textContent ?? '',
      ),
    );
    const said = (await region.textContent()) ?? '';
    assert.match(said, /^Token 2 of \d+/, said);
    assert.match(said, /content|reasoning|marker|arguments|call/, said);
    await page.keyboard.press('e');
    await page.waitForFunction(() =>
      /error|warning|info/.test(
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector(
          '.cursor-announcer',
        )?.textContent ?? '',
      ),
    );
    const finding = (await region.textContent()) ?? '';
    assert.match(finding, /schema/i, finding);
    // Brief: not the record's text.
    assert.ok(finding.length < 300, finding);
    await done();
  });

  test('prefers-reduced-motion: Play moves calmly', async (t) => {
    if (skipIfMissing(t)) return;
    const rates: number[] = [];
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 850 }, reducedMotion });
      const p = await ctx.newPage();
      await p.goto(reportUrl);
      await selectRecord(p, 'schema-violations');
      await p.locator('.timeline').focus();
      await p.keyboard.press('Home');
      await p.keyboard.press(' ');
      await p.waitForTimeout(1500);
      await p.keyboard.press(' ');
      rates.push(Number(/token (\d+)/.exec((await p.locator('.position').textContent()) ?? '')?.[1] ?? 0));
      await ctx.close();
    }
    const [normal, reduced] = rates as [number, number];
    assert.ok(reduced <= 4, `reduced motion: at most a few steps in 1.5 s (${reduced})`);
    assert.ok(normal > reduced, `without it Play is faster (${normal} vs ${reduced})`);
  });
});
