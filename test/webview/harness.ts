/**
 * Browser harness for the trace editor webview: builds the bundle, serves pages from a local http server (so
 * the CSP and script URIs are real), and opens either the standalone report page (data embedded by the core)
 * or the VS Code page with a fake `acquireVsCodeApi` whose host side is a real HostRpc over a real TraceSession.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { after, before, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { embeddedTraces } from '../../src/host/view/embeddedTrace.ts';
import type { AnalysisOptions } from '../../src/core/analysis.ts';
import { makeNonce, reportPageHtml, webviewPageHtml, type EmbeddedTrace } from '../../src/host/view/pageHtml.ts';
import { TraceSession } from '../../src/host/view/traceSession.ts';
import { HostRpc, type Envelope, type HostReply, type InitialPage, type WebviewRequest } from '../../src/shared/protocol.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** Debian's chromium (TOOLSCOPE_CHROMIUM_PATH overrides it, e.g. to check the skip path). */
export const CHROMIUM = process.env.TOOLSCOPE_CHROMIUM_PATH || '/usr/bin/chromium';
export const RESULTS = join(ROOT, 'test-results', 'webview');
/**
 * Where the pages' bundle (dist/webview.js and .css) comes from: this checkout, or TOOLSCOPE_WEBVIEW_ROOT, another
 * checkout's build served as it is (not rebuilt), to compare a change with the build before it in the same test.
 */
const BUNDLE_ROOT = process.env.TOOLSCOPE_WEBVIEW_ROOT || ROOT;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests cannot run here, or null. With TOOLSCOPE_REQUIRE_BROWSER=1 a missing browser is a failure. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  if (process.env.TOOLSCOPE_REQUIRE_BROWSER === '1')
    throw new Error(`chromium not found at ${CHROMIUM}, and TOOLSCOPE_REQUIRE_BROWSER=1: the browser tests must run`);
  const message = `chromium not found at ${CHROMIUM}: browser tests skipped`;
  console.warn(`\n*** ${message} ***\n`);
  return message;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist/webview.js and dist/webview.css when they are older than their sources. */
export function ensureBuilt(): void {
  if (BUNDLE_ROOT !== ROOT) return;
  const js = join(ROOT, 'dist', 'webview.js');
  const css = join(ROOT, 'dist', 'webview.css');
  // The stylesheets are in webview/ beside the modules that import them.
  const sources = Math.max(newestMtime(join(ROOT, 'webview')), statSync(join(ROOT, 'src', 'shared', 'protocol.ts')).mtimeMs);
  if (existsSync(js) && existsSync(css) && statSync(js).mtimeMs >= sources && statSync(css).mtimeMs >= sources) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

// ---- server -----------------------------------------------------------------------------------------------

export class PageServer {
  private readonly pages = new Map<string, string>();
  private server: Server | null = null;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] as string;
      const page = this.pages.get(path);
      if (page !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(page);
        return;
      }
      if (path === '/dist/webview.js' || path === '/dist/webview.css') {
        const type = path.endsWith('.js') ? 'text/javascript' : 'text/css';
        res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
        res.end(readFileSync(join(BUNDLE_ROOT, path)));
        return;
      }
      res.writeHead(path === '/favicon.ico' ? 204 : 404);
      res.end();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  add(path: string, html: string): string {
    this.pages.set(path, html);
    return this.origin + path;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export function bundle(): { script: string; style: string } {
  return {
    script: readFileSync(join(BUNDLE_ROOT, 'dist', 'webview.js'), 'utf8'),
    style: readFileSync(join(BUNDLE_ROOT, 'dist', 'webview.css'), 'utf8'),
  };
}

export async function reportData(paths: string[], title = 'test', options: AnalysisOptions = {}): Promise<EmbeddedTrace> {
  return embeddedTraces(
    paths.map((p) => ({ path: p, label: basename(p) })),
    title,
    'report',
    options,
  );
}

export function addReport(server: PageServer, path: string, data: EmbeddedTrace): string {
  const { script, style } = bundle();
  return server.add(path, reportPageHtml({ script, style, data, title: `Toolscope — ${data.info.fileName}` }));
}

// ---- page instrumentation ---------------------------------------------------------------------------------

/** Console errors, page errors and CSP violations seen by a page. */
export interface PageProblems {
  errors: string[];
}

const WATCH_SCRIPT = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || ''));
  });
`;

export async function watch(page: Page): Promise<PageProblems> {
  const problems: PageProblems = { errors: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.errors.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.errors.push(`pageerror: ${err.message}`));
  await page.addInitScript(WATCH_SCRIPT);
  return problems;
}

export async function cspViolations(page: Page): Promise<string[]> {
  return (await page.evaluate('window.__cspViolations || []')) as string[];
}

// ---- the VS Code page with a scripted host ----------------------------------------------------------------

const ACQUIRE_SCRIPT = `
(() => {
  let acquired = false;
  const KEY = 'toolscope-harness-vscode-state';
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return Object.freeze({
      postMessage: (m) => window.__toolscopeHost(JSON.parse(JSON.stringify(m))),
      getState: () => { const s = sessionStorage.getItem(KEY); return s ? JSON.parse(s) : undefined; },
      setState: (s) => { sessionStorage.setItem(KEY, JSON.stringify(s)); return s; },
    });
  };
})();
`;

interface BrowserGlobals {
  dispatchEvent(e: unknown): boolean;
  MessageEvent: new (type: string, init: { data: unknown }) => unknown;
}

/** Delivers a host message the way VS Code does: a `message` event on the webview's window. */
const deliver = (m: unknown) => {
  const g = globalThis as unknown as BrowserGlobals;
  g.dispatchEvent(new g.MessageEvent('message', { data: m }));
};

export interface FakeHost {
  requests: WebviewRequest[];
  /** Events posted so far. */
  events: number;
  /** Re-reads the file and pushes `reset` or new summaries, as the provider does when the file changes. */
  fileChanged(): Promise<void>;
  /** Reads every record in `format` (undefined: per record), as the provider does when `toolscope.format` changes. */
  setFormat(format: string | undefined): Promise<void>;
  /** Adds a vLLM profile (undefined: none), as the provider does when `toolscope.vllmProfile` changes. */
  setVllmProfile(profile: AnalysisOptions['vllmProfile']): Promise<void>;
  idle(): Promise<void>;
  /** Stops the background analysis after the batch under way (a big trace need not be analysed to the end). */
  stopAnalysis(): void;
  close(): Promise<void>;
}

/**
 * Opens the VS Code-shaped page for a trace. The host answers like TraceEditorProvider: `init` with the
 * snapshot, then the list analysed in small batches pushed as `summaries` events, then the guided findings of rows
 * and records sent before their what-if answered, as `guidedFindings` events (or with the next rows).
 */
export async function openVsCodePage(
  page: Page,
  server: PageServer,
  tracePath: string,
  urlPath: string,
  batchMs = 1,
  options: AnalysisOptions = {},
  /** The page carries its first rows and the first row's record, as TraceEditorProvider writes it. */
  withInitial = false,
): Promise<FakeHost> {
  const session = await TraceSession.open(tracePath, basename(tracePath), options);
  let initial: InitialPage | undefined;
  if (withInitial) {
    await session.nextBatch(batchMs);
    const { summaries, lineErrors } = session.snapshot();
    initial = { init: { type: 'init', info: session.info('harness'), summaries, lineErrors } };
    if (summaries[0]) initial.record = (await session.record(summaries[0].key, { listWaits: true })).view;
  }
  let queue = Promise.resolve();
  const post = (m: Envelope) => {
    queue = queue.then(() => page.evaluate<void, unknown>(deliver, m)).catch(() => undefined);
  };
  let analysing: Promise<void> | null = null;
  let stopped = false;
  const host: FakeHost = {
    requests: [],
    events: 0,
    async fileChanged() {
      await analysing;
      const { reset } = await session.refresh();
      if (reset) event({ type: 'reset', reason: 'file', info: session.info('harness') });
      analyse();
      await analysing;
    },
    async setFormat(format) {
      await analysing;
      if (session.setOptions({ format })) event({ type: 'reset', reason: 'format', info: session.info('harness') });
      analyse();
      await analysing;
    },
    async setVllmProfile(vllmProfile) {
      await analysing;
      if (session.setOptions({ vllmProfile })) event({ type: 'reset', reason: 'vllmProfile', info: session.info('harness') });
      analyse();
      await analysing;
    },
    async idle() {
      await analysing;
      await queue;
    },
    stopAnalysis() {
      stopped = true;
    },
    async close() {
      await analysing;
      await session.close();
    },
  };
  const rpc = new HostRpc(post, async (request, followUp): Promise<HostReply> => {
    host.requests.push(request);
    switch (request.type) {
      case 'ready': {
        const { summaries, lineErrors } = session.snapshot();
        queueMicrotask(analyse);
        return { type: 'init', info: session.info('harness'), summaries, lineErrors };
      }
      case 'getRecord': {
        const { view, guided } = await session.record(request.key);
        if (guided) followUp(guided.then((findings) => findings && { type: 'guidedFindings', findings: [findings] }));
        return { type: 'record', view };
      }
      case 'vllmRun':
        return { type: 'vllm', view: await session.vllmRun(request.key, request.grouping) };
      case 'openRaw':
        await session.record(request.key);
        return { type: 'ok' };
      case 'inView':
        session.setInView(request.keys);
        return { type: 'ok' };
      case 'listMoving':
      case 'painted':
        return { type: 'ok' };
    }
  });
  const event: HostRpc['event'] = (body) => {
    host.events++;
    rpc.event(body);
  };
  const analyse = () => {
    analysing ??= (async () => {
      try {
        for (;;) {
          if (stopped) return;
          const batch = await session.nextBatch(batchMs);
          if (!batch) break;
          // The findings of rows sent before ride with the batch's rows, as the extension host sends them.
          event({
            type: 'summaries',
            summaries: batch.summaries,
            lineErrors: batch.lineErrors,
            info: session.info('harness'),
            ...(batch.guided.length ? { findings: batch.guided } : {}),
          });
          await new Promise((r) => setTimeout(r, 5));
        }
        for (let findings; !stopped && (findings = await session.nextGuidedFindings());)
          if (findings.length) event({ type: 'guidedFindings', findings });
        event({ type: 'summaries', summaries: [], lineErrors: [], info: session.info('harness') });
      } finally {
        analysing = null;
      }
    })();
  };
  await page.exposeFunction('__toolscopeHost', (m: unknown) => rpc.receive(m));
  await page.addInitScript(ACQUIRE_SCRIPT);
  const html = webviewPageHtml({
    ...bundle(),
    cspSource: server.origin,
    nonce: makeNonce(),
    title: basename(tracePath),
    initial,
  });
  await page.goto(server.add(urlPath, html));
  return host;
}

// ---- small page helpers -----------------------------------------------------------------------------------

/** Runs a browser-side expression (the root tsconfig has no DOM types, so browser code is a string). */
export async function js<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

export async function elementCount(page: Page): Promise<number> {
  return js<number>(page, 'document.querySelectorAll("*").length');
}

export async function position(page: Page): Promise<string> {
  return (await page.locator('.position').textContent()) ?? '';
}

/** Waits until the cursor reads `token i / n`. */
export async function waitPosition(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) =>
      (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector(
        '.position',
      )?.textContent === t,
    text,
  );
}

export async function selectRecord(page: Page, id: string): Promise<void> {
  const row = page.locator('.rec-row', {
    has: page.locator('.rec-id', { hasText: new RegExp(`^${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
  });
  // The list is virtualised: a row scrolled out of view is not in the DOM, so scroll from the top until it is.
  // Each scroll is given time to render before the next look, or a row near the top is scrolled past unseen.
  if ((await row.count()) === 0) {
    await page.evaluate('document.querySelector(".list-scroller").scrollTop = 0');
    for (let i = 0; i < 100; i++) {
      await page.waitForTimeout(30);
      if ((await row.count()) > 0) break;
      await page.evaluate('{ const el = document.querySelector(".list-scroller"); el.scrollTop += el.clientHeight / 2; }');
    }
  }
  await row.click();
  await page.locator('.record-title', { hasText: id }).waitFor();
}

/** A few Dark Modern colours, set the way VS Code sets them (on <html>), for the VS Code page's screenshots. */
export const DARK_VSCODE_THEME = `
document.addEventListener('DOMContentLoaded', () => {
  document.body.classList.add('vscode-dark');
  const vars = {
    '--vscode-font-family': 'system-ui, sans-serif', '--vscode-font-size': '13px', '--vscode-font-weight': 'normal',
    '--vscode-editor-font-family': "'DejaVu Sans Mono', monospace", '--vscode-editor-font-size': '14px',
    '--vscode-editor-background': '#1f1f1f', '--vscode-foreground': '#cccccc', '--vscode-descriptionForeground': '#9d9d9d',
    '--vscode-errorForeground': '#f85149', '--vscode-editorError-foreground': '#f14c4c', '--vscode-editorWarning-foreground': '#cca700',
    '--vscode-editorInfo-foreground': '#3794ff', '--vscode-focusBorder': '#0078d4', '--vscode-panel-border': '#2b2b2b',
    '--vscode-sideBar-background': '#181818', '--vscode-list-activeSelectionBackground': '#04395e', '--vscode-list-activeSelectionForeground': '#ffffff',
    '--vscode-list-inactiveSelectionBackground': '#37373d', '--vscode-list-hoverBackground': '#2a2d2e', '--vscode-list-focusOutline': '#0078d4',
    '--vscode-charts-red': '#f14c4c', '--vscode-charts-blue': '#3794ff', '--vscode-charts-yellow': '#cca700', '--vscode-charts-orange': '#d18616',
    '--vscode-charts-green': '#89d185', '--vscode-charts-purple': '#b180d7', '--vscode-charts-lines': 'rgba(204,204,204,0.5)',
    '--vscode-textLink-foreground': '#4daafc', '--vscode-textCodeBlock-background': '#2b2b2b', '--vscode-textPreformat-foreground': '#d0d0d0',
    '--vscode-editorWidget-background': '#202020', '--vscode-editorWidget-border': '#454545', '--vscode-widget-shadow': 'rgba(0,0,0,0.36)',
    '--vscode-editorCursor-foreground': '#aeafad', '--vscode-editor-selectionBackground': '#264f78',
    '--vscode-diffEditor-insertedTextBackground': 'rgba(156,204,44,0.2)', '--vscode-diffEditor-removedTextBackground': 'rgba(255,0,0,0.2)',
  };
  for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
});
`;

// ---- pages the tests open -------------------------------------------------------------------------------

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  problems: PageProblems;
  /** Asserts no console error, page error or CSP violation happened, and closes the page. */
  done(): Promise<void>;
}

/** A page in a fresh context (viewport, colour scheme), watched for errors; with a URL, opened on its first record. */
export async function openPage(
  browser: Browser,
  url: string | null,
  opts: { theme?: 'light' | 'dark'; contrast?: 'more' | 'no-preference'; width?: number; height?: number } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1400, height: opts.height ?? 850 },
    colorScheme: opts.theme ?? 'light',
    contrast: opts.contrast ?? 'no-preference',
  });
  const page = await context.newPage();
  const problems = await watch(page);
  if (url) {
    await page.goto(url);
    await page.locator('.record-title').first().waitFor();
  }
  return {
    page,
    context,
    problems,
    async done() {
      const csp = await cspViolations(page).catch(() => []);
      await context.close();
      assert.deepEqual(problems.errors, [], 'console errors');
      assert.deepEqual(csp, [], 'CSP violations');
    },
  };
}

/** A screenshot into test-results/webview/. */
export async function shot(page: Page, name: string): Promise<void> {
  await mkdir(RESULTS, { recursive: true });
  await page.screenshot({ path: join(RESULTS, `${name}.png`) });
}

/** What the tests of one `describe` share: a browser, a page server and a scratch folder. */
export interface BrowserSuite {
  readonly browser: Browser;
  readonly server: PageServer;
  readonly tmp: string;
  /** Skips the test, with the reason, when there is no browser; true when it did. */
  skip(t: TestContext): boolean;
}

/** Sets up a BrowserSuite before the `describe`'s tests (none without a browser) and closes it after them. */
export function browserSuite(tmpPrefix: string): BrowserSuite {
  const missing = browserMissing();
  const suite = {
    browser: undefined as unknown as Browser,
    server: undefined as unknown as PageServer,
    tmp: '',
    skip(t: TestContext): boolean {
      if (missing) t.skip(missing);
      return Boolean(missing);
    },
  };
  before(async () => {
    if (missing) return;
    ensureBuilt();
    suite.server = new PageServer();
    await suite.server.start();
    suite.browser = await launch();
    suite.tmp = await mkdtemp(join(tmpdir(), tmpPrefix));
  });
  after(async () => {
    if (missing) return;
    await suite.browser?.close();
    await suite.server?.stop();
    if (suite.tmp) await rm(suite.tmp, { recursive: true, force: true });
  });
  return suite;
}
