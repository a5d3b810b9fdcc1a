/**
 * End to end in a real VS Code workbench (code-server driven by Playwright in chromium), the way a user meets
 * Toolscope: the packaged .vsix is installed, a workspace with the samples is opened, a trace is reopened with the
 * Toolscope editor, a record is picked, the cursor is stepped with the keyboard (the webview's keys and the
 * contributed F8 keybinding, which must act once), a replay runs with guided decoding off and on from the command
 * palette, and a generated 200 MB trace opens from the explorer. Then, in a workbench of its own (vLLM profile A, a
 * fixed proxy port): Evaluate Samples… opens its results on the Eval tab, the recording proxy counts a request sent
 * through it in the status bar, and the vLLM tab shows a divergence. Screenshots of every step, dark and light
 * theme, go to test-results/e2e/; activation and first-paint times are printed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launch, ROOT } from '../webview/harness.ts';
import { mainThreadWork } from '../webview/rendererTrace.ts';
import { BIG_TRACE_SAMPLE, writeBigTrace } from '../../bench/bigTrace.ts';
import { summarize } from '../../src/host/eval/k2vvMetrics.ts';
import { loadK2vvResults } from '../../src/host/eval/loadResults.ts';
import { loadAll } from '../../src/io/trace/loadTrace.ts';
import {
  answerInput,
  CodeServer,
  freePort,
  openWorkbench,
  pickQuick,
  runCommand,
  toasts,
  traceFrame,
  workbenchMissing,
} from './codeServer.ts';
import { type OpenMark, pageMoments, readOpenMarks, webviewFrameMoments } from './openMoments.ts';
import { CpuSampler } from './processCpu.ts';

const missing = workbenchMissing();
const OUT = join(ROOT, 'test-results', 'e2e');
const KIMI = BIG_TRACE_SAMPLE;
const BIG = 'generated-200mb.jsonl';

let browser: Browser;
let tmp: string;
let vsix: string;
const figures: string[] = [];

/** The little of the DOM these tests read inside the webview (the project's Node types have no DOM). */
interface Doc {
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

/**
 * When the webview painted its first record (epoch ms, the browser's clock, which is this machine's). The webview
 * marks it in the animation frame after the record is in the page, so the mark may still be to come when
 * `traceFrame` sees the record: wait for it (a busy or hidden frame runs its animation frames late).
 */
async function paintedAt(frame: Frame): Promise<number> {
  await frame
    .waitForFunction(
      () =>
        (globalThis as unknown as { performance: { getEntriesByName(n: string): unknown[] } }).performance.getEntriesByName(
          'toolscope:record-painted',
        ).length > 0,
      undefined,
      { timeout: 10_000, polling: 50 },
    )
    .catch(() => undefined);
  const at = await frame.evaluate<number | null>(`(() => {
    const m = performance.getEntriesByName('toolscope:record-painted')[0];
    return m ? performance.timeOrigin + m.startTime : null;
  })()`);
  assert.ok(at, 'the webview marks its first painted record');
  return at;
}

/**
 * The open → first paint path of `file` opened at `t0` (epoch ms), split: the extension host's marks (activation,
 * the document opened, the webview created, its first message, the first rows sent, the record asked and sent:
 * src/extension/openMarks.ts) and the webview's (its page started, the list drawn, the record painted), each as ms
 * after the open command and the step from the moment before it.
 */
async function openPath(marksFile: string, file: string, t0: number, frame: Frame): Promise<string> {
  const host = readOpenMarks(marksFile).filter((m) => m.at >= t0 && (m.file === null || m.file === file));
  const page = await pageMoments(frame);
  const outer = await webviewFrameMoments(frame);
  const steps: Array<[string, number]> = Object.entries(outer);
  const first = (name: string) => host.find((m) => m.mark === name)?.at ?? NaN;
  for (const name of ['load', 'activate', 'activated', 'document-open', 'document-opened', 'webview-created', 'page-written'])
    steps.push([name, first(name)]);
  // The page's own steps before the host hears it: a gap after 'ready asked' is the host's, one before it the page's.
  // 'page loaded' is the workbench's placeholder page (the webview writes the trace editor's page into it): in a
  // browser workbench every webview but the first waits about 1 s there for the webview service worker's new version
  // to activate (Chromium delays that activation by a second), whatever the trace; the page's own load follows it.
  steps.push(
    ['page started', page['page started'] as number],
    ['page loaded', page['page loaded'] as number],
    ['script started', page['script started'] as number],
    ['ready asked', page['ready asked'] as number],
  );
  for (const name of ['first-message', 'first-rows', 'record-asked', 'record-sent']) steps.push([name, first(name)]);
  steps.push(['list drawn', page['list drawn'] as number], ['record painted', page['record painted'] as number]);
  let before = t0;
  const parts: string[] = [];
  for (const [name, at] of steps.filter(([, at]) => Number.isFinite(at)).sort((a, b) => a[1] - b[1])) {
    parts.push(`${name} +${(at - t0).toFixed(0)} (${(at - before).toFixed(0)})`);
    before = at;
  }
  return `open → first paint, ms after the open command (step): ${parts.join(', ')}`;
}

/**
 * Where the extension's activation fell (its host's `activate` mark) against the open command at `t0`: the extension
 * activates when a JSON Lines file opens as text (package.json), so the sample opened as text before it is reopened
 * with the trace editor has activated it, and the figure is the open alone.
 */
function activationAt(marksFile: string, t0: number): string {
  const activate = readOpenMarks(marksFile).find((m) => m.mark === 'activate');
  if (!activate) return 'activation not seen';
  return activate.at >= t0
    ? `activation included, ${activate.at - t0} ms after the open`
    : `activated ${t0 - activate.at} ms before the open, when the file opened as text`;
}

/**
 * The extension host process's CPU time (each mark's `cpu`) from its bundle's load to the record sent, split at the
 * host's marks: what a loaded machine does not stretch.
 */
function hostCpu(marksFile: string, t0: number): string {
  const host = readOpenMarks(marksFile).filter((m) => m.at >= t0 && m.cpu !== undefined);
  const names = ['load', 'activate', 'activated', 'document-opened', 'first-rows', 'record-sent'];
  const steps = names.map((n) => host.find((m) => m.mark === n)).filter((m) => m !== undefined);
  const parts = steps.slice(1).map((m, i) => `${m.mark} +${(m.cpu as number) - (steps[i] as { cpu: number }).cpu}`);
  return `extension host CPU, ms (step, from ${steps[0]?.mark ?? '?'}): ${parts.join(', ') || 'no marks'}`;
}

/** One frame at 60 Hz, ms: a frame longer than this (plus timer slack) missed a vsync. */
const FRAME = 1000 / 60;

interface FrameFigures {
  p50: number;
  p95: number;
  max: number;
  n: number;
  /** The share of frames longer than one 60 Hz frame (a missed vsync). */
  dropped: number;
}

/** p50, p95 and the worst of a list of frame times, ms, and the share of frames that missed a vsync. */
function frameFigures(deltas: number[]): FrameFigures {
  const d = [...deltas].sort((a, b) => a - b);
  const at = (q: number) => d[Math.min(d.length - 1, Math.floor(q * d.length))] ?? NaN;
  return {
    p50: at(0.5),
    p95: at(0.95),
    max: d[d.length - 1] ?? NaN,
    n: d.length,
    dropped: d.filter((x) => x > FRAME + 2).length / d.length,
  };
}

const ms = (f: FrameFigures) =>
  `p50 ${f.p50.toFixed(1)} / p95 ${f.p95.toFixed(1)} / worst ${f.max.toFixed(1)} ms, ${(100 * f.dropped).toFixed(1)} % of ${f.n} frames over one 60 Hz frame`;

/** requestAnimationFrame deltas over `frames` frames, each after `stepJs` ran (a string: tsx's helpers do not reach the page). */
function framesJs(frames: number, setupJs: string, stepJs: string, doneJs: string): string {
  return `new Promise((resolve) => {
    ${setupJs}
    const out = [];
    let last = -1;
    function step(t) {
      if (last >= 0) out.push(t - last);
      last = t;
      ${stepJs}
      if (out.length < ${frames}) requestAnimationFrame(step);
      else resolve({ deltas: out, ${doneJs} });
    }
    requestAnimationFrame(step);
  })`;
}

/** requestAnimationFrame deltas of a page doing nothing, in this browser now: what the machine gives any page. */
async function idleFrames(frames = 180): Promise<number[]> {
  const page = await browser.newPage();
  try {
    await page.setContent('<p>idle</p>');
    return (await page.evaluate<{ deltas: number[] }>(framesJs(frames, '', '', 'idle: true'))).deltas;
  } finally {
    await page.close();
  }
}

interface Scrolled {
  deltas: number[];
  analysing: boolean;
  /** Messages the page received meanwhile (the host's rows and findings). */
  messages: number;
  /** The page's long tasks (over 50 ms) meanwhile: how many, and their time, ms. */
  longTasks: number;
  longMs: number;
}

/**
 * Scrolls the record list through `rows` rows, a step per animation frame (as a fling does), and returns the frame
 * deltas, whether the host was still analysing (what-ifs running) when the scroll ended, and what the page's main
 * thread was given meanwhile: the host's messages and its long tasks.
 */
async function scrollList(frame: Frame, rows: number, frames = 300): Promise<Scrolled> {
  return frame.evaluate<Scrolled>(
    framesJs(
      frames,
      `const scroller = document.querySelector('.list-scroller');
       const rowHeight = parseFloat(document.querySelector('.rec-row')?.style.height ?? '42') || 42;
       const per = (${rows} * rowHeight) / ${frames};
       let messages = 0;
       const onMessage = () => messages++;
       window.addEventListener('message', onMessage, true);
       const long = [];
       const observer = new PerformanceObserver((l) => { for (const e of l.getEntries()) long.push(e.duration); });
       try { observer.observe({ type: 'longtask' }); } catch {}`,
      'scroller.scrollTop += per;',
      `analysing: /analysing/.test(document.querySelector('.status')?.textContent ?? ''),
       messages: (window.removeEventListener('message', onMessage, true), messages),
       longTasks: (observer.disconnect(), long.length),
       longMs: long.reduce((a, b) => a + b, 0)`,
    ),
  );
}

/**
 * Records every message the page gets from now on (the host's rows and findings): when it came, how long the page's
 * own handler took (a listener of the bubble phase added after the page's runs after it), what it carried.
 */
async function watchHostMessages(frame: Frame): Promise<void> {
  await frame.evaluate(`(() => {
    const log = (window.__toolscopeMessages = []);
    let current = null;
    window.addEventListener('message', (e) => {
      // A packed message (src/shared/packedEnvelope.ts) is kept as it came and read after the list is complete.
      current = { at: performance.timeOrigin + performance.now(), data: e.data };
      log.push(current);
    }, true);
    window.addEventListener('message', () => { if (current) current.done = performance.timeOrigin + performance.now(); });
  })()`);
}

/**
 * The messages of the list's end, on both sides: what the host sent from its last findings on (its 'list-sent'
 * marks), and when the page got each and was done with it.
 */
async function lastMessages(frame: Frame, marks: OpenMark[], t0: number): Promise<string> {
  const s = (at: number) => `+${((at - t0) / 1000).toFixed(2)}`;
  const analysed = marks.find((m) => m.mark === 'analysed');
  if (!analysed) return 'no host mark';
  const sent = marks.filter((m) => m.mark === 'list-sent');
  const after = sent.filter((m) => m.at >= analysed.at);
  const got = await frame.evaluate<
    Array<{ at: number; done?: number; type: string; rows: number; findings: number; analysing: boolean | null }>
  >(
    `(window.__toolscopeMessages ?? [])
      .map((m) => {
        const data = m.data && m.data.kind === 'packed' ? JSON.parse(new TextDecoder().decode(m.data.bytes)) : m.data;
        const body = data && data.kind === 'event' ? data.body : null;
        return {
          at: m.at,
          done: m.done,
          type: body ? body.type : data && data.kind,
          rows: body && body.summaries ? body.summaries.length : 0,
          findings: body && body.findings ? body.findings.length : 0,
          analysing: body && body.info ? body.info.analysing : null,
        };
      })
      .filter((m) => m.type === 'summaries' || m.type === 'guidedFindings')`,
  );
  const last = got.findIndex((m) => m.analysing === false);
  const gotAfter = got.filter((m) => m.at >= analysed.at);
  const handled = got.reduce((a, m) => a + ((m.done ?? m.at) - m.at), 0);
  const worst = got.reduce((a, m) => Math.max(a, (m.done ?? m.at) - m.at), 0);
  const lastSent = sent.find((m) => m.analysing === false);
  return (
    `host queued its end ${s(analysed.at)} with ${String(analysed.held)} rows held (list moving: ${String(analysed.moving)}); ` +
    `sent ${after.length} messages from then (${after.reduce((a, m) => a + Number(m.rows), 0)} rows, ${after.reduce((a, m) => a + Number(m.findings), 0)} findings), the end ${lastSent ? s(lastSent.at) : '?'}; ` +
    `${sent.length} messages in all, ${sent.filter((m) => m.moving).length} while the list moved; ` +
    `the page got ${got.length} (${gotAfter.length} after the host's end), the end ${last >= 0 ? `${s(got[last]!.at)}, done ${s(got[last]!.done ?? NaN)}` : '?'}; ` +
    `its handlers took ${handled.toFixed(0)} ms in all, the longest ${worst.toFixed(0)} ms; ` +
    `sent → got: ${sent
      .slice(-12)
      .map((m, i, a) => {
        const g = got[got.length - a.length + i];
        return `${s(m.at)}→${g ? s(g.at) : '?'} ${String(m.rows)}r`;
      })
      .join(', ')}`
  );
}

/** Where the cursor is: the token position, and the active diagnostic (several can sit on one token). */
async function position(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const d = (globalThis as unknown as Doc).document;
    return `${d.querySelector('.position')?.textContent ?? ''} | ${d.querySelector('.inspector .active .diag-message')?.textContent ?? ''}`;
  });
}

async function waitPositionChange(frame: Frame, from: string): Promise<string> {
  // A function, not a string: the webview's CSP forbids eval.
  await frame.waitForFunction(
    (p) => {
      const d = (globalThis as unknown as Doc).document;
      return (
        `${d.querySelector('.position')?.textContent ?? ''} | ${d.querySelector('.inspector .active .diag-message')?.textContent ?? ''}` !==
        p
      );
    },
    from,
    { timeout: 10_000 },
  );
  return position(frame);
}

async function inspectorText(frame: Frame): Promise<string> {
  return (await frame.locator('.inspector').innerText()).replace(/\s+/g, ' ');
}

/** VS Code's own activation time for the extension, from Developer: Show Running Extensions. */
async function activationTime(page: Page, shot: (name: string) => Promise<void>): Promise<string> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'Toolscope' });
  await row.waitFor({ timeout: 15_000 });
  await shot('running-extensions');
  const text = (await row.innerText()).replace(/\s+/g, ' ');
  await page.keyboard.press('Control+w');
  return /(\d+)\s*ms/.exec(text)?.[0] ?? `? (${text})`;
}

async function journey(theme: 'dark' | 'light'): Promise<void> {
  const ws = join(tmp, `ws-${theme}`);
  await mkdir(ws, { recursive: true });
  for (const f of readdirSync(join(ROOT, 'samples')).filter((f) => f.endsWith('.jsonl')))
    await copyFile(join(ROOT, 'samples', f), join(ws, f));
  let big: { bytes: number; records: number } | null = null;
  if (theme === 'dark') big = await writeBigTrace(ROOT, join(ws, BIG));
  const original = readFileSync(join(ws, KIMI));
  // The extension host marks the moments of each open there (src/extension/openMarks.ts).
  const marks = join(tmp, `open-marks-${theme}.jsonl`);
  const server = await CodeServer.start({ trust: true, theme, install: [vsix], env: { TOOLSCOPE_OPEN_MARKS: marks } });
  let page: Page | undefined;
  let step = 0;
  const shot = async (name: string) => {
    await page?.screenshot({ path: join(OUT, `${theme}-${String(++step).padStart(2, '0')}-${name}.png`) });
  };
  try {
    page = await openWorkbench(browser, server.url(ws));
    const p = page;
    await p.locator('.explorer-folders-view .monaco-list-row', { hasText: KIMI }).waitFor();
    await shot('workspace');

    // Open the sample as text (Quick Open), then Reopen Editor With… → Toolscope Trace.
    await p.keyboard.press('Control+p');
    await pickQuick(p, KIMI);
    await p.locator('.tabs-container .tab.active', { hasText: KIMI }).waitFor();
    await runCommand(p, 'View: Reopen Editor With...');
    await p.locator('.quick-input-list .monaco-list-row', { hasText: 'Toolscope Trace' }).waitFor();
    await shot('reopen-editor-with');
    await p.locator('.quick-input-box input').fill('Toolscope Trace');
    await p.locator('.quick-input-list .monaco-list-row', { hasText: 'Toolscope Trace' }).first().waitFor();
    const opened = Date.now();
    await p.keyboard.press('Enter');
    let frame = await traceFrame(p, KIMI);
    const firstPaint = (await paintedAt(frame)) - opened;
    figures.push(`${theme}: open → first record painted, ${KIMI} (${activationAt(marks, opened)}): ${firstPaint.toFixed(0)} ms`);
    figures.push(`${theme}: ${KIMI} ${await openPath(marks, KIMI, opened, frame)}`);
    figures.push(`${theme}: ${KIMI} ${hostCpu(marks, opened)}`);
    await shot('trace-editor');
    if (theme === 'dark') {
      figures.push(`${theme}: activation (Developer: Show Running Extensions): ${await activationTime(p, shot)}`);
      // The editor was hidden meanwhile: its webview is a new page now.
      frame = await traceFrame(p, KIMI);
    }

    // Pick a record. Its own title, not the muted "Loading schema-violations…" shown while it is asked.
    await frame.locator('.rec-row', { has: frame.locator('.rec-id', { hasText: /^schema-violations$/ }) }).click();
    await frame.locator('.record-title:not(.muted)', { hasText: 'schema-violations' }).waitFor();
    await shot('record-picked');

    // Step with the keyboard: the inspector follows the cursor.
    await frame.locator('.timeline').click({ position: { x: 5, y: 5 } });
    await frame.locator('.timeline').focus();
    const start = await position(frame);
    const inspectorBefore = await inspectorText(frame);
    for (let i = 0; i < 3; i++) await p.keyboard.press('ArrowRight');
    const stepped = await waitPositionChange(frame, start);
    const inspectorAfter = await inspectorText(frame);
    assert.notEqual(inspectorAfter, inspectorBefore, 'the inspector shows the new token');
    await shot('stepped-tokens');

    // Next tool call (n): the inspector's current call is the call.
    await p.keyboard.press('n');
    const atCall = await waitPositionChange(frame, stepped);
    assert.notEqual(atCall, stepped);
    assert.doesNotMatch(await inspectorText(frame), /The cursor is not inside a tool call/);
    await shot('next-tool-call');

    // Next diagnostic (e): the schema violation is at the cursor.
    await p.keyboard.press('e');
    const diag1 = await waitPositionChange(frame, atCall);
    assert.match(await inspectorText(frame), /TS005/);
    await shot('next-diagnostic');
    // The contributed keybindings step once per key, though VS Code also hands the key to the webview.
    await p.keyboard.press('e');
    const diag2 = await waitPositionChange(frame, diag1);
    await p.keyboard.press('Shift+F8');
    assert.equal(await waitPositionChange(frame, diag2), diag1, 'Shift+F8 went back exactly one diagnostic');
    await p.keyboard.press('F8');
    assert.equal(await waitPositionChange(frame, diag1), diag2, 'F8 went forward exactly one diagnostic');
    await p.keyboard.press('F10');
    await waitPositionChange(frame, diag2);

    // Replay from the command palette, guided decoding off and on.
    await runCommand(p, 'Toolscope: Replay Record');
    await pickQuick(p, 'schema-violations', 'Replay which record?');
    await pickQuick(p, 'Embedded endpoint', 'Replay against which endpoint?');
    await pickQuick(p, 'Chat', 'Replay mode');
    await p.locator('.quick-input-title', { hasText: 'Guided decoding' }).waitFor();
    await shot('replay-guided-pick');
    await pickQuick(p, 'Both');
    const replays = await traceFrame(p, KIMI.replace('.jsonl', '.replays.jsonl'));
    // Beside the trace the editor is narrow: the record list is an overlay, closed (its rows are still there).
    await replays.locator('.rec-row').nth(1).waitFor({ state: 'attached' });
    const ids = await replays.locator('.rec-id').allTextContents();
    assert.equal(ids.length, 2);
    assert.ok(ids.some((id) => /guided-off/.test(id)) && ids.some((id) => /guided-on/.test(id)), ids.join(', '));
    // The Toolscope output channel compares the recording with the two replays.
    const panel = p.locator('[id="workbench.parts.panel"]');
    await panel.locator('.view-lines', { hasText: 'guided on' }).waitFor({ timeout: 10_000 });
    await shot('replay-result');
    const output = (await panel.innerText()).replace(/\u00a0/g, ' ');
    assert.match(output, /Replay of schema-violations/);
    assert.match(output, /guided off/);
    assert.match(output, /guided on/);
    assert.deepEqual(readFileSync(join(ws, KIMI)), original, 'the original trace is unchanged');
    // The replays on their own: the record view compares them with the recording.
    await runCommand(p, 'View: Hide Panel');
    await runCommand(p, 'View: Close Editors in Other Groups');
    const compared = await traceFrame(p, KIMI.replace('.jsonl', '.replays.jsonl'));
    await compared.locator('.record-title').waitFor();
    // Room for the comparison: the inspector folds away (its toolbar toggle).
    await compared.locator('.toggle-inspector').click();
    await compared.locator('main.inspector-collapsed, .inspector-collapsed').first().waitFor();
    await p.waitForTimeout(300);
    await shot('replay-compare');

    if (theme === 'light') {
      // The getting-started walkthrough opens a bundled sample in the trace editor.
      await runCommand(p, 'View: Close All Editors');
      await runCommand(p, 'Welcome: Open Walkthrough...');
      await pickQuick(p, 'Get Started with Toolscope');
      const button = p.locator('.getting-started-step a, .getting-started-step .button-link', { hasText: 'Open a Sample Trace' }).first();
      await button.waitFor({ timeout: 15_000 });
      // The step's media (markdown) renders in a webview of its own.
      await p
        .locator('.getting-started-media iframe, .getting-started-media .webview')
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => undefined);
      await p.waitForTimeout(1500);
      await shot('walkthrough');
      await button.click();
      const sample = await traceFrame(p, KIMI);
      await sample.locator('.rec-row').first().waitFor();
      await shot('walkthrough-sample-opened');
    }

    if (big) {
      // The 200 MB trace, from the explorer's context menu.
      await runCommand(p, 'View: Close All Editors');
      const row = p.locator('.explorer-folders-view .monaco-list-row', { hasText: BIG });
      await row.click({ button: 'right' });
      const item = p.locator('.context-view .action-item', { hasText: 'Open Trace' }).first();
      await item.waitFor();
      // The menu follows the mouse and acts on Enter (a synthetic click on the item is not always taken).
      await item.hover();
      await shot('explorer-open-trace');
      // TOOLSCOPE_E2E_CPU=1: every process's and the extension host's threads' CPU from the open to the list complete.
      const sampler = process.env.TOOLSCOPE_E2E_CPU === '1' ? new CpuSampler() : undefined;
      // TOOLSCOPE_E2E_PROFILE=<file>: the workbench renderer's JavaScript (the page's frames too) from the open to the list complete.
      const profiling = process.env.TOOLSCOPE_E2E_PROFILE ? await p.context().newCDPSession(p) : undefined;
      // TOOLSCOPE_E2E_TRACE_OPEN=<file>: a Chromium trace of every process from the open to the list complete.
      if (process.env.TOOLSCOPE_E2E_TRACE_OPEN)
        await browser.startTracing(p, {
          categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'ipc', 'mojom'],
        });
      if (profiling) {
        await profiling.send('Profiler.enable');
        await profiling.send('Profiler.setSamplingInterval', { interval: 500 });
        await profiling.send('Profiler.start');
      }
      const t0 = Date.now();
      await p.keyboard.press('Enter');
      const bigFrame = await traceFrame(p, BIG, 120_000);
      const paint = (await paintedAt(bigFrame)) - t0;
      figures.push(
        `${theme}: open → first record painted, ${BIG} (${(big.bytes / 1024 / 1024).toFixed(0)} MB, ${big.records} records): ${paint.toFixed(0)} ms (goal ≤ 400 ms)`,
      );
      figures.push(`${theme}: ${BIG} ${await openPath(marks, BIG, t0, bigFrame)}`);
      // Loose: a loaded machine (load average 15–20) stretches everything; the strict goal is in the figure above.
      assert.ok(paint < 20_000, `first record painted ${paint.toFixed(0)} ms after the open command`);
      await shot('200mb-first-record');
      await watchHostMessages(bigFrame);
      // Scrolling 20k rows while the host analyses and the what-ifs run (rows marked … until theirs answers).
      const SCROLLED = 20_000;
      await bigFrame.waitForFunction(
        (n) => {
          const d = (globalThis as unknown as Doc).document;
          const listed = Number(/^(\d+)/.exec(d.querySelector('.list-count')?.textContent ?? '')?.[1] ?? 0);
          return listed >= n || !/analysing/.test(d.querySelector('.status')?.textContent ?? '');
        },
        // TOOLSCOPE_E2E_SCROLL_AT: the scroll starts once that many rows are listed (on a busy machine, later rows put
        // the analysis's end inside the scroll, as on a quiet one, for the list's last messages below).
        Number(process.env.TOOLSCOPE_E2E_SCROLL_AT ?? SCROLLED),
        { timeout: 300_000, polling: 250 },
      );
      // TOOLSCOPE_E2E_TRACE=1: the scroll under Chromium's tracing (which costs frames), what each renderer's main thread did.
      const tracing = process.env.TOOLSCOPE_E2E_TRACE === '1';
      const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'];
      // Written to a file, the trace also holds the frames and the JavaScript's samples (more cost, more to read).
      if (process.env.TOOLSCOPE_E2E_TRACE_FILE)
        categories.push('disabled-by-default-devtools.timeline.frame', 'disabled-by-default-v8.cpu_profiler');
      if (tracing) await browser.startTracing(p, { categories });
      const scrollFrom = Date.now();
      const scrolled = await scrollList(bigFrame, SCROLLED);
      const scrollTo = Date.now();
      if (tracing) {
        const trace = await browser.stopTracing();
        // TOOLSCOPE_E2E_TRACE_FILE: the trace itself, for DevTools' Performance panel.
        if (process.env.TOOLSCOPE_E2E_TRACE_FILE) writeFileSync(process.env.TOOLSCOPE_E2E_TRACE_FILE, trace);
        figures.push(`${theme}: ${BIG} the scroll's main threads (Chromium trace): ${mainThreadWork(trace, scrolled.deltas.length)}`);
      }
      const idle = frameFigures(await idleFrames());
      const list = frameFigures(scrolled.deltas);
      figures.push(
        `${theme}: ${BIG} list scrolled through ${SCROLLED} rows${scrolled.analysing ? ' while the host analysed and ran what-ifs' : ' (analysis already done)'}: requestAnimationFrame ${ms(list)} (goal p95 ≤ 16 ms); meanwhile the page got ${scrolled.messages} messages and had ${scrolled.longTasks} long tasks (${scrolled.longMs.toFixed(0)} ms); an idle page in the same browser then: ${ms(idle)}`,
      );
      assert.ok(list.p95 < Math.max(250, 4 * idle.p95), `list scroll frames ${ms(list)}; idle page ${ms(idle)}`);
      await shot('200mb-scrolled');
      // The list fills in as the host analyses in the background; every row's what-if answers.
      const t1 = Date.now();
      await bigFrame.waitForFunction(
        () => !/analysing/.test((globalThis as unknown as Doc).document.querySelector('.status')?.textContent ?? ''),
        undefined,
        { timeout: 400_000, polling: 500 },
      );
      if (process.env.TOOLSCOPE_E2E_TRACE_OPEN) writeFileSync(process.env.TOOLSCOPE_E2E_TRACE_OPEN, await browser.stopTracing());
      if (profiling) {
        const { profile } = await profiling.send('Profiler.stop');
        writeFileSync(process.env.TOOLSCOPE_E2E_PROFILE as string, JSON.stringify(profile));
      }
      const pending = await bigFrame.locator('.guided-pending').count();
      assert.equal(pending, 0, 'no row in view still waits for its what-if');
      // When the page had everything (its mark), and when the host had sent it: the test saw it later, after the
      // scroll, the idle page's frames and a screenshot.
      const analysedAt = await bigFrame.evaluate<number | null>(`(() => {
        const m = performance.getEntriesByName('toolscope:analysed')[0];
        return m ? performance.timeOrigin + m.startTime : null;
      })()`);
      const bigMarks = readOpenMarks(marks).filter((m) => m.file === BIG && m.at >= t0);
      const hostAnalysed = bigMarks.find((m) => m.mark === 'analysed');
      const opening = bigMarks.find((m) => m.mark === 'document-open');
      // The extension host process's CPU (its threads, the list workers' included) from the open to the last findings.
      const hostCpuS =
        hostAnalysed?.cpu !== undefined && opening?.cpu !== undefined ? `${((hostAnalysed.cpu - opening.cpu) / 1000).toFixed(1)} s` : '?';
      assert.ok(analysedAt, 'the webview marks the moment its list is complete');
      const s = (at: number) => `${((at - t0) / 1000).toFixed(1)} s`;
      figures.push(
        `${theme}: ${BIG} fully analysed in the list, every what-if filled in the page ${s(analysedAt)} after the open command (goal ≤ 10 s; the host's last findings sent ${hostAnalysed === undefined ? '?' : s(hostAnalysed.at)}, its process having used ${hostCpuS} of CPU since the open; the test saw it ${s(Date.now())}, ${((Date.now() - t1) / 1000).toFixed(1)} s after the scroll)`,
      );
      figures.push(`${theme}: ${BIG} the list's last messages: ${await lastMessages(bigFrame, bigMarks, t0)}`);
      if (sampler) {
        sampler.stop();
        figures.push(`${theme}: ${BIG} open → list complete in the page, ${sampler.between(t0, analysedAt)}`);
        figures.push(
          `${theme}: ${BIG} CPU s before the scroll ${sampler.between(t0, scrollFrom, false)}; the scroll ${sampler.between(scrollFrom, scrollTo, false)}; after it ${sampler.between(scrollTo, analysedAt, false)}`,
        );
      }
      await shot('200mb-analysed');
    }
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
}

/** The trace editor's page for a file once it shows `selector` (the Eval tab of a results file has no record painted). */
async function frameShowing(page: Page, fileName: string, selector: string, timeoutMs = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      const ok = await f
        .evaluate<boolean>(
          `document.querySelector('.file-name')?.textContent === ${JSON.stringify(fileName)} && document.querySelector(${JSON.stringify(selector)}) !== null`,
        )
        .catch(() => false);
      if (ok) return f;
    }
    if (Date.now() > deadline) throw new Error(`no Toolscope editor of ${fileName} showed ${selector} in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The README's other journeys, dark theme: Evaluate Samples… (the Eval tab), the recording proxy, the vLLM tab. */
async function moreJourneys(): Promise<void> {
  const ws = join(tmp, 'ws-journeys');
  await mkdir(ws, { recursive: true });
  for (const f of readdirSync(join(ROOT, 'samples')).filter((f) => f.endsWith('.jsonl')))
    await copyFile(join(ROOT, 'samples', f), join(ws, f));
  const proxyPort = await freePort();
  const server = await CodeServer.start({
    trust: true,
    theme: 'dark',
    install: [vsix],
    settings: { 'toolscope.vllmProfile': 'A', 'toolscope.proxyPort': proxyPort },
  });
  let page: Page | undefined;
  let step = 0;
  const shot = async (name: string) => {
    await page?.screenshot({ path: join(OUT, `journeys-${String(++step).padStart(2, '0')}-${name}.png`) });
  };
  try {
    page = await openWorkbench(browser, server.url(ws));
    const p = page;
    await p.locator('.explorer-folders-view .monaco-list-row', { hasText: KIMI }).waitFor();

    // Evaluate Samples… on the K2VV requests (the active text editor): embedded endpoint, 30 % broken, both runs.
    const SAMPLES = 'k2vv-requests.jsonl';
    await p.keyboard.press('Control+p');
    await pickQuick(p, SAMPLES);
    await p.locator('.tabs-container .tab.active', { hasText: SAMPLES }).waitFor();
    const t0 = Date.now();
    await runCommand(p, 'Toolscope: Evaluate Samples');
    await pickQuick(p, 'Embedded endpoint', 'Evaluate against which endpoint?');
    await pickQuick(p, '30 % broken answers', 'how often should it answer with a broken call?');
    await pickQuick(p, 'Kimi K2', 'Which format should the simulated model write');
    await pickQuick(p, 'Both', 'Guided decoding');
    // The last run opens in the trace editor, on its Eval tab: K2VV's figures for both runs side by side.
    const evalFrame = await frameShowing(p, 'results.guided-on.jsonl', '#tab-eval[aria-selected="true"]');
    await evalFrame.locator('.eval-view .eval-table tbody tr').nth(1).waitFor();
    figures.push(`journeys: Evaluate Samples… (4 requests, guided off and on) → Eval tab shown: ${Date.now() - t0} ms (picks included)`);
    // Both runs side by side, the schema errors as the user reads them: some with guided decoding off, none on.
    const headers = (await evalFrame.locator('.eval-view .eval-table thead th').allInnerTexts()).map((t) => t.trim());
    const rows = await evalFrame
      .locator('.eval-view .eval-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
    const shown = Object.fromEntries(rows.map((r) => [r[0], Number(r[headers.indexOf('schema errors')])]));
    // The embedded endpoint's answers are the simulator's, and each row says so (issue 41, point 4).
    assert.deepEqual(Object.keys(shown), ['guided off · simulated', 'guided on · simulated'], JSON.stringify(rows));
    assert.ok(
      (shown['guided off · simulated'] ?? 0) > 0 && shown['guided on · simulated'] === 0,
      `schema errors shown: ${JSON.stringify(shown)}`,
    );
    // Room for every column (the table scrolls sideways otherwise): the inspector and the record list fold away.
    await evalFrame.locator('.toggle-inspector').click();
    await evalFrame.locator('.inspector-collapsed').first().waitFor();
    await evalFrame.locator('.toggle-list').click();
    await evalFrame.locator('.list-collapsed').first().waitFor();
    await p.waitForTimeout(300);
    await shot('eval-tab');
    const outDir = join(ws, 'k2vv-requests.toolscope-eval');
    assert.deepEqual(readdirSync(outDir).sort(), ['results.guided-off.jsonl', 'results.guided-on.jsonl']);
    const schemaErrors = async (run: string) =>
      summarize((await loadK2vvResults(join(outDir, `results.guided-${run}.jsonl`))).results).schema_validation_error_count;
    assert.ok((await schemaErrors('off')) > 0, 'guided off: schema errors');
    assert.equal(await schemaErrors('on'), 0, 'guided on: none');

    // Start Recording Proxy in front of the embedded endpoint; a chat completion through it is counted and recorded.
    await runCommand(p, 'View: Close All Editors');
    const trace = join(ws, 'proxy-trace.jsonl');
    await runCommand(p, 'Toolscope: Start Recording Proxy');
    await pickQuick(p, 'Embedded endpoint', 'Record the traffic to which endpoint?');
    await pickQuick(p, 'Exchanges', 'What to record');
    // The save dialog of a remote workbench is a quick input that takes a path. It fills in its default name once
    // open: typing before that is overwritten, so wait for it.
    await p.locator('.quick-input-widget .quick-input-title', { hasText: 'Record the trace to' }).waitFor();
    const pathBox = p.locator('.quick-input-widget .quick-input-box input');
    await p.waitForFunction(
      (el) => /toolscope-proxy-[\d-]+\.jsonl$/.test((el as unknown as { value: string }).value),
      await pathBox.elementHandle(),
      { timeout: 10_000 },
    );
    await answerInput(p, trace);
    await p.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    const status = p.locator('.statusbar-item[aria-label^="Toolscope recording proxy"]');
    await status.waitFor({ timeout: 15_000 });
    assert.match((await status.getAttribute('aria-label')) ?? '', /, 0 exchanges recorded/);
    const res = await fetch(`http://127.0.0.1:${proxyPort}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'toolscope-sim-kimi-k2',
        messages: [{ role: 'user', content: 'What is the weather in Lisbon?' }],
        stream: false,
      }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const answer = (await res.json()) as { choices?: unknown[] };
    assert.ok(Array.isArray(answer.choices) && answer.choices.length >= 1, 'the client got a chat completion');
    await p.locator('.statusbar-item[aria-label^="Toolscope recording proxy, 1 exchanges recorded"]').waitFor({ timeout: 15_000 });
    assert.match(await status.innerText(), /\b1\b/);
    // The count and, on hover, where the exchanges go.
    await runCommand(p, 'Notifications: Clear All Notifications');
    await status.hover();
    await p.locator('.monaco-hover', { hasText: '1 exchange recorded' }).waitFor({ timeout: 10_000 });
    await shot('recording-proxy-status');
    await p.mouse.move(700, 400);
    assert.ok(existsSync(trace), 'the trace file was written where the save dialog said');
    const { records, errors } = await loadAll(trace);
    assert.deepEqual(errors, []);
    assert.equal(records.length, 1, 'one exchange, one record');
    assert.equal(readFileSync(trace, 'utf8').split('\n').filter(Boolean).length, 1);
    await runCommand(p, 'Toolscope: Stop Recording Proxy');
    await status.waitFor({ state: 'detached', timeout: 15_000 });
    const deadline = Date.now() + 10_000;
    while (!(await toasts(p)).some((t) => /recorded 1 exchange to/.test(t))) {
      if (Date.now() > deadline) throw new Error(`no "recorded 1 exchange" message: ${JSON.stringify(await toasts(p))}`);
      await p.waitForTimeout(100);
    }
    await p
      .locator('.notification-toast', { hasText: 'stopping the recording proxy' })
      .waitFor({ state: 'detached', timeout: 5000 })
      .catch(() => undefined);
    await p.waitForTimeout(300);
    await shot('recording-proxy-stopped');
    // The proxy is closed.
    await assert.rejects(fetch(`http://127.0.0.1:${proxyPort}/v1/models`));

    // The vLLM tab (toolscope.vllmProfile = "A"): the record whose arguments hold a newline, which vLLM A cuts.
    await runCommand(p, 'Notifications: Clear All Notifications');
    await runCommand(p, 'View: Close All Editors');
    await p.keyboard.press('Control+p');
    await pickQuick(p, KIMI);
    await p.locator('.tabs-container .tab.active', { hasText: KIMI }).waitFor();
    await runCommand(p, 'View: Reopen Editor With...');
    await pickQuick(p, 'Toolscope Trace');
    const frame = await traceFrame(p, KIMI);
    await frame.locator('.rec-row', { has: frame.locator('.rec-id', { hasText: /^arguments-cut-at-newline$/ }) }).click();
    await frame.locator('.record-title:not(.muted)', { hasText: 'arguments-cut-at-newline' }).waitFor();
    await frame.locator('#tab-vllm').click();
    const finding = frame.locator('.vllm-view .vllm-finding').first();
    await finding.waitFor({ timeout: 15_000 });
    const text = (await frame.locator('.vllm-view').innerText()).replace(/\s+/g, ' ');
    assert.match(text, /What vLLM generation A would have sent/);
    // A vllm-divergence finding (TS026), named by the difference it explains.
    assert.equal(await finding.getAttribute('data-detail'), 'arguments-truncated');
    assert.match(await finding.innerText(), /TS026/);
    assert.match(text, /1 difference from the reference parse/);
    await frame.locator('.toggle-inspector').click();
    await p.waitForTimeout(300);
    await shot('vllm-tab');
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
}

/** `toolscope serve --script <trace>` from the built CLI, on a free loopback port; its model name from /v1/models. */
async function startServe(script: string): Promise<{ url: string; model: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'serve', '--script', script, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}/v1`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`toolscope serve exited (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${url}/models`);
      if (res.ok) {
        const model = ((await res.json()) as { data: Array<{ id: string }> }).data[0]?.id ?? '';
        return { url, model, stop };
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`toolscope serve did not answer in 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The journey the extension exists for, in a fresh profile with the endpoint in the User settings only: the Settings
 * UI's User tab lists it, Replay Record offers the open (failing) record first and the user's endpoint — a
 * `toolscope serve` scripted with the trace — replays it in completions mode with guided decoding off and on, the
 * guided-on answer opens on its timeline, is stepped to the token where it parts from guided off, and the same
 * token of the guided-off answer holds the finding: the grammar would have blocked it. Waits on conditions only.
 */
async function replayJourney(): Promise<void> {
  const ws = join(tmp, 'ws-replay');
  await mkdir(ws, { recursive: true });
  await copyFile(join(ROOT, 'samples', KIMI), join(ws, KIMI));
  const serve = await startServe(join(ws, KIMI));
  const endpoint = { name: 'local-serve', baseUrl: serve.url, model: serve.model, engine: 'vllm' };
  const server = await CodeServer.start({ trust: true, theme: 'dark', install: [vsix], settings: { 'toolscope.endpoints': [endpoint] } });
  let page: Page | undefined;
  let step = 0;
  const shot = async (name: string) => {
    await page?.screenshot({ path: join(OUT, `replay-${String(++step).padStart(2, '0')}-${name}.png`) });
  };
  try {
    page = await openWorkbench(browser, server.url(ws));
    const p = page;
    await p.locator('.explorer-folders-view .monaco-list-row', { hasText: KIMI }).waitFor();

    // The endpoint is a User setting, and the Settings UI's User tab lists it (a machine setting is missing there).
    await runCommand(p, 'Preferences: Open User Settings');
    const settings = p.locator('.settings-editor');
    await settings.waitFor();
    await p.keyboard.type('toolscope.endpoints');
    const item = settings.locator('.setting-item', { hasText: 'Endpoints' }).first();
    await item.waitFor({ timeout: 30_000 });
    assert.match((await item.innerText()).replace(/\s+/g, ' '), /Toolscope: Endpoints/);
    await shot('user-settings-endpoints');
    await runCommand(p, 'View: Close All Editors');

    // The failing record, open in the trace editor.
    await p.keyboard.press('Control+p');
    await pickQuick(p, KIMI);
    await p.locator('.tabs-container .tab.active', { hasText: KIMI }).waitFor();
    await runCommand(p, 'View: Reopen Editor With...');
    await pickQuick(p, 'Toolscope Trace');
    const frame = await traceFrame(p, KIMI);
    await frame.locator('.rec-row', { has: frame.locator('.rec-id', { hasText: /^schema-violations$/ }) }).click();
    await frame.locator('.record-title:not(.muted)', { hasText: 'schema-violations' }).waitFor();
    await shot('failing-record');

    // Replay Record: the open record is offered first (Enter takes it), then the user's endpoint, completions, both.
    await runCommand(p, 'Toolscope: Replay Record');
    await p.locator('.quick-input-title', { hasText: 'Replay which record?' }).waitFor();
    const firstRow = p.locator('.quick-input-list .monaco-list-row').first();
    await firstRow.waitFor();
    assert.match(await firstRow.innerText(), /schema-violations[\s\S]*open in the editor/);
    await shot('record-offered-first');
    await p.keyboard.press('Enter');
    await p.locator('.quick-input-title', { hasText: 'Replay against which endpoint?' }).waitFor();
    await p.locator('.quick-input-list .monaco-list-row', { hasText: 'local-serve' }).waitFor();
    await shot('endpoint-picker');
    await pickQuick(p, 'local-serve', 'Replay against which endpoint?');
    await pickQuick(p, 'Completions', 'Replay mode');
    await pickQuick(p, 'Both', 'Guided decoding');

    // The guided-on answer opens on its timeline, saying where it parts from guided off.
    const replays = await frameShowing(p, KIMI.replace('.jsonl', '.replays.jsonl'), '.parting[data-token]', 120_000);
    await runCommand(p, 'View: Close Editors in Other Groups');
    const answer = await frameShowing(p, KIMI.replace('.jsonl', '.replays.jsonl'), '.parting[data-token]');
    assert.ok(replays);
    const title = (await answer.locator('.record-title').innerText()).trim();
    assert.match(title, /^schema-violations~replay-completions-guided-on-/);
    const token = Number(await answer.locator('.parting').getAttribute('data-token'));
    const banner = (await answer.locator('.parting').innerText()).replace(/\s+/g, ' ');
    assert.match(banner, new RegExp(`guided on \\(completions\\) parts from guided off \\(completions\\) at token ${token + 1}`));
    await shot('guided-on-answer');

    // Step there: the cursor on that token of the guided-on answer.
    await answer.locator('.parting-here').click();
    await answer.waitForFunction(
      (n) => ((globalThis as unknown as Doc).document.querySelector('.position')?.textContent ?? '').includes(`token ${n} `),
      token + 1,
      { timeout: 30_000 },
    );
    await shot('stepped-to-parting-token');

    // The same token in the guided-off answer: the guided-decoding what-if's finding is there.
    await answer.locator('.parting-there').click();
    await answer.locator('.record-title', { hasText: /guided-off/ }).waitFor({ timeout: 30_000 });
    // Read from the inspector's "Diagnostics at the cursor" (the what-if's findings follow the record when xgrammar answers).
    const here = answer.locator('.inspector .section-here .section-body');
    await here.locator('.diag-item', { hasText: 'TS024' }).first().waitFor({ timeout: 60_000 });
    const finding = (await here.innerText()).replace(/\s+/g, ' ');
    assert.match(finding, /TS024 Guided decoding would have blocked this token/);
    assert.match(((await position(answer)).split('|')[0] ?? '').trim(), new RegExp(`token ${token + 1}\\b`));
    await here.locator('.diag-item', { hasText: 'TS024' }).first().scrollIntoViewIfNeeded();
    await shot('guided-off-finding');
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
    await serve.stop();
  }
}

describe('workbench end to end (packaged .vsix in code-server)', { skip: missing ?? false }, () => {
  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-e2e-'));
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
    vsix = join(tmp, 'toolscope.vsix');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--out', vsix], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run package failed:\n${r.stdout}\n${r.stderr}`);
    figures.push(r.stdout.trim().split('\n').pop() ?? '');
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
    console.log(`\nworkbench e2e figures:\n  ${figures.join('\n  ')}\n  screenshots: ${OUT}\n`);
  });

  test('dark theme: open, pick, step, next diagnostic, replay off/on, 200 MB trace', { timeout: 900_000 }, () => journey('dark'));
  test('light theme: open, pick, step, next diagnostic, replay off/on', { timeout: 300_000 }, () => journey('light'));
  test('dark theme: Evaluate Samples… (Eval tab), recording proxy (status bar), vLLM tab', { timeout: 240_000 }, () => moreJourneys());
  test(
    'replay journey: endpoint in User settings, failing record replayed in completions mode against toolscope serve, stepped to where guided on parts from off',
    { timeout: 300_000 },
    () => replayJourney(),
  );
});
