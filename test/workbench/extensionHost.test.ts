/**
 * Extension-host tests in a real VS Code workbench (code-server): Toolscope loaded from this repository as the
 * extension under development, test/workbench/host/index.ts as the extension tests. Run twice: in a trusted
 * workspace, and in one started without --disable-workspace-trust (restricted mode), where replay must be refused
 * with a message. The host exits 0 even when a test fails, so the verdict comes from the results file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launch, ROOT } from '../webview/harness.ts';
import { answerInput, CodeServer, openWorkbench, pickQuick, runCommand, toasts, workbenchMissing } from './codeServer.ts';
import type { HostResults, HostTestConfig, Prompt } from './host/runner.ts';

const missing = workbenchMissing();
const RESULTS = join(ROOT, 'test-results', 'workbench');

let browser: Browser;
let tmp: string;
let hostBundle: string;

/** dist/extension.js is what the workbench loads: build it when a source is newer. */
function ensureExtensionBuilt(): void {
  const out = join(ROOT, 'dist', 'extension.js');
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statMtime(join(dir, e.name)))),
    );
  if (existsSync(out) && statMtime(out) >= newest(join(ROOT, 'src'))) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}

function statMtime(p: string): number {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

/**
 * Answers the prompts the in-host tests announce, as a user would, until `done` resolves: the first pending prompt
 * whose title is the one on screen. Each announcement drops what an earlier test announced and never saw, so a
 * command that did not ask cannot leave answers behind for the next one. Answered ids go to `<prompts>.answered`.
 */
async function answerPrompts(page: Page, promptsFile: string, done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  const answered = new Set<number>();
  while (!finished) {
    const lines = existsSync(promptsFile) ? readFileSync(promptsFile, 'utf8').split('\n').filter(Boolean) : [];
    const entries = lines.map((l) => JSON.parse(l) as (Prompt & { id: number }) | { clear: true });
    const lastClear = entries.map((e) => 'clear' in e).lastIndexOf(true);
    const pending = entries.slice(lastClear + 1).filter((e): e is Prompt & { id: number } => !('clear' in e) && !answered.has(e.id));
    const title = await page
      .locator('.quick-input-widget .quick-input-title')
      .filter({ visible: true })
      .first()
      .textContent({ timeout: 100 })
      .catch(() => null);
    const next = title ? pending.find((p) => title.includes(p.title)) : undefined;
    if (next) {
      if (next.kind === 'pick') await pickQuick(page, next.answer);
      else await answerInput(page, next.answer);
      answered.add(next.id);
      appendFileSync(`${promptsFile}.answered`, `${next.id}\n`);
      continue;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitForFile(path: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (signal.aborted) throw new Error('stopped waiting for the results');
    if (Date.now() > deadline) throw new Error(`no results after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface SuiteRun {
  results: HostResults;
  /** Notification texts seen on screen or in the notification centre. */
  toastTexts: string[];
  ms: number;
}

async function runSuite(mode: HostTestConfig['mode']): Promise<SuiteRun> {
  const t0 = performance.now();
  const dir = await mkdtemp(join(tmp, `${mode}-`));
  const workspace = join(dir, 'ws');
  await mkdir(workspace);
  for (const f of readdirSync(join(ROOT, 'samples')).filter((f) => f.endsWith('.jsonl')))
    await copyFile(join(ROOT, 'samples', f), join(workspace, f));
  const server = await CodeServer.start({ trust: mode === 'trusted', env: { TOOLSCOPE_HOST_TEST_CONFIG: join(dir, 'config.json') } });
  const cfg: HostTestConfig = {
    mode,
    results: join(dir, 'results.json'),
    prompts: join(dir, 'prompts.jsonl'),
    workspace,
    userDataDir: server.userDataDir,
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(cfg));
  let page: Page | undefined;
  const toastTexts = new Set<string>();
  const stop = new AbortController();
  try {
    page = await openWorkbench(
      browser,
      server.url(workspace, [
        ['extensionDevelopmentPath', server.remote(ROOT.replace(/\/$/, ''))],
        ['extensionTestsPath', server.remote(hostBundle)],
      ]),
    );
    const p = page;
    const results = waitForFile(cfg.results, 240_000, stop.signal);
    results.catch(() => undefined);
    // Toasts come and go: collect them while the tests run.
    const collecting = (async () => {
      let finished = false;
      void results.finally(() => (finished = true));
      while (!finished) {
        for (const t of await toasts(p).catch(() => [])) toastTexts.add(t);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    await Promise.all([results, answerPrompts(p, cfg.prompts, results), collecting]);
    await mkdir(RESULTS, { recursive: true });
    await p.screenshot({ path: join(RESULTS, `exthost-${mode}.png`) }).catch(() => undefined);
    // Toasts may not show while the tests drive the workbench, but every message lands in the notification centre.
    await runCommand(p, 'Notifications: Show Notifications');
    const centre = p.locator('.notifications-center .notification-list-item');
    await centre
      .first()
      .waitFor({ timeout: 5000 })
      .catch(() => undefined);
    for (const t of await centre.allInnerTexts()) toastTexts.add(t);
    await p.screenshot({ path: join(RESULTS, `exthost-${mode}-notifications.png`) }).catch(() => undefined);
    return {
      results: JSON.parse(readFileSync(cfg.results, 'utf8')) as HostResults,
      toastTexts: [...toastTexts],
      ms: performance.now() - t0,
    };
  } catch (err) {
    await mkdir(RESULTS, { recursive: true });
    await page?.screenshot({ path: join(RESULTS, `exthost-${mode}-failure.png`) }).catch(() => undefined);
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- code-server log ---\n${server.log().slice(-4000)}`, {
      cause: err,
    });
  } finally {
    stop.abort();
    await page
      ?.context()
      .close()
      .catch(() => undefined);
    await server.stop();
  }
}

function report(run: SuiteRun): void {
  const figures = Object.entries(run.results.figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(
    `extension host (${run.results.mode}): ${run.results.passed} passed, ${run.results.failed} failed in ${(run.ms / 1000).toFixed(1)} s; ${figures}`,
  );
}

describe('extension host in code-server', { skip: missing ?? false }, () => {
  before(async () => {
    ensureExtensionBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'toolscope-exthost-'));
    hostBundle = join(tmp, 'host', 'index.js');
    const { umdAsCommonJs } = (await import(pathToFileURL(join(ROOT, 'scripts', 'build.mjs')).href)) as { umdAsCommonJs: Plugin };
    await build({
      entryPoints: [join(ROOT, 'test', 'workbench', 'host', 'index.ts')],
      outfile: hostBundle,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['vscode'],
      plugins: [umdAsCommonJs],
      logLevel: 'warning',
    });
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test('trusted workspace', { timeout: 300_000 }, async (t) => {
    const run = await runSuite('trusted');
    report(run);
    for (const r of run.results.tests) {
      await t.test(`${r.name} [${r.ms} ms in the host]`, () => {
        if (!r.ok) assert.fail(r.error);
      });
    }
    assert.equal(run.results.failed, 0);
    assert.ok(run.results.passed >= 9);
  });

  test('untrusted workspace (started without --disable-workspace-trust)', { timeout: 300_000 }, async (t) => {
    const run = await runSuite('untrusted');
    report(run);
    for (const r of run.results.tests) {
      await t.test(`${r.name} [${r.ms} ms in the host]`, () => {
        if (!r.ok) assert.fail(r.error);
      });
    }
    assert.equal(run.results.failed, 0);
    assert.ok(
      run.toastTexts.some((m) => /replay is disabled in untrusted workspaces/.test(m)),
      `no refusal message among the notifications: ${JSON.stringify(run.toastTexts)}`,
    );
  });
});
