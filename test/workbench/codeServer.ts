/**
 * A real VS Code workbench for tests: code-server (scripts/setup-code-server.sh installs it) served on a loopback
 * port, driven by playwright-core in Debian's chromium. Every server gets its own config, user data and extensions
 * folders in a temporary directory, so nothing lands in the home folder, and is stopped with its whole process
 * group (a file-watcher child can outlive the parent).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { CHROMIUM } from '../webview/harness.ts';

/** TOOLSCOPE_CODE_SERVER overrides where code-server is (the default is where scripts/setup-code-server.sh puts it). */
export const CODE_SERVER = process.env.TOOLSCOPE_CODE_SERVER || '/tmp/code-server/node_modules/.bin/code-server';

/** Why the workbench tests cannot run here, or null. With TOOLSCOPE_REQUIRE_WORKBENCH=1 a missing piece is a failure. */
export function workbenchMissing(): string | null {
  const missing = [
    existsSync(CHROMIUM) ? null : `chromium (${CHROMIUM})`,
    existsSync(CODE_SERVER)
      ? null
      : `code-server (${CODE_SERVER}; install it with scripts/setup-code-server.sh, or set TOOLSCOPE_CODE_SERVER)`,
  ].filter((m): m is string => m !== null);
  if (!missing.length) return null;
  const message = `${missing.join(' and ')} not found: the VS Code workbench tests are SKIPPED`;
  if (process.env.TOOLSCOPE_REQUIRE_WORKBENCH === '1')
    throw new Error(`${message.replace(/: .*$/, '')}, and TOOLSCOPE_REQUIRE_WORKBENCH=1: the workbench tests must run`);
  console.warn(`\n${'*'.repeat(100)}\n*** ${message}\n${'*'.repeat(100)}\n`);
  return message;
}

/** A free loopback port (for servers the tests point somewhere, like the recording proxy). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** User settings for a quiet, deterministic workbench. */
export function quietSettings(theme: 'dark' | 'light'): Record<string, unknown> {
  return {
    'workbench.colorTheme': theme === 'dark' ? 'Default Dark Modern' : 'Default Light Modern',
    'workbench.startupEditor': 'none',
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
    'chat.commandCenter.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'git.enabled': false,
    'window.restoreWindows': 'none',
  };
}

export interface CodeServerOptions {
  /** false: started without --disable-workspace-trust (the workspace asks to be trusted and starts restricted). */
  trust: boolean;
  theme?: 'dark' | 'light';
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /** Variables for the server and its extension host. */
  env?: Record<string, string>;
  /** .vsix files to install before starting. */
  install?: string[];
}

export class CodeServer {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly child: ChildProcess,
    readonly log: () => string,
  ) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get userDataDir(): string {
    return join(this.dir, 'data');
  }

  get extensionsDir(): string {
    return join(this.dir, 'ext');
  }

  private static args(dir: string): string[] {
    return ['--config', join(dir, 'config.yaml'), '--user-data-dir', join(dir, 'data'), '--extensions-dir', join(dir, 'ext')];
  }

  static async start(opts: CodeServerOptions): Promise<CodeServer> {
    const dir = await mkdtemp(join(tmpdir(), 'toolscope-cs-'));
    await mkdir(join(dir, 'data', 'User'), { recursive: true });
    await writeFile(join(dir, 'config.yaml'), 'auth: none\n');
    await writeFile(
      join(dir, 'data', 'User', 'settings.json'),
      JSON.stringify({ ...quietSettings(opts.theme ?? 'dark'), ...opts.settings }, null, 2),
    );
    for (const vsix of opts.install ?? []) {
      const r = spawnSync(CODE_SERVER, [...CodeServer.args(dir), '--install-extension', vsix], { encoding: 'utf8', timeout: 120_000 });
      if (r.status !== 0 || !/successfully installed/i.test(r.stdout))
        throw new Error(`installing ${vsix} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    }
    const port = await freePort();
    const args = [
      ...CodeServer.args(dir),
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      ...(opts.trust ? ['--disable-workspace-trust'] : []),
    ];
    let out = '';
    const child = spawn(CODE_SERVER, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...opts.env },
    });
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const server = new CodeServer(dir, port, child, () => out);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${out}`);
      try {
        const res = await fetch(`${server.origin}/healthz`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`code-server did not answer /healthz in 60 s:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return server;
  }

  /** The workbench URL for a folder; `payload` adds workbench arguments (extension development and tests paths). */
  url(folder: string, payload?: Array<[string, string]>): string {
    let u = `${this.origin}/?folder=${encodeURIComponent(folder)}`;
    if (payload) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    return u;
  }

  /** A path on this machine as the workbench's remote URI. */
  remote(path: string): string {
    return `vscode-remote://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.pid !== undefined) {
      const exited = new Promise((r) => this.child.once('exit', r));
      try {
        process.kill(-this.child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

// ---- driving the workbench ----------------------------------------------------------------------------

export async function openWorkbench(browser: Browser, url: string, opts: { width?: number; height?: number } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  return page;
}

const QUICK_INPUT = '.quick-input-widget';

/** Runs a command from the command palette by its title (as the palette shows it: "Toolscope: Replay Record"). */
export async function runCommand(page: Page, title: string): Promise<void> {
  // The palette lists the commands enabled when it opens: a context key that was still settling (an editor that
  // just opened) can leave a command out, so look again a few times.
  // F1 pressed while the previous command's palette is still closing can be swallowed (the palette stays hidden; seen
  // after "View: Hide Panel" on a quiet machine): press it again rather than wait out the whole timeout.
  for (let attempt = 1; ; attempt++) {
    const timeout = attempt < 4 ? 5000 : 30_000;
    let opened = false;
    try {
      await page.keyboard.press('F1');
      const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
      await input.waitFor({ state: 'visible', timeout });
      opened = true;
      // The palette can close between showing and typing, or after its row appears, leaving the row in the DOM but
      // hidden (focus taken by an editor or webview that was still opening; CI waited 30 s on such a row): each step
      // has the attempt's timeout, and a step that times out opens the palette again.
      await input.fill(`>${title}`, { timeout });
      const row = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: title }).first();
      await row.waitFor({ timeout });
      // The row itself, not Enter: Enter runs the focused row, which may still be one of the list before the filter.
      await row.click({ timeout });
      return;
    } catch (err) {
      if (attempt >= 4) throw err;
      if (opened) await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
}

/** Answers an open quick pick (waiting for its title when given) by filtering for `label` and picking the row. */
export async function pickQuick(page: Page, label: string, title?: string): Promise<void> {
  if (title) await page.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: title }).waitFor();
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  await input.waitFor({ state: 'visible' });
  await input.fill(label);
  await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: label }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Types into an open input box (waiting for its title when given) and accepts. */
export async function answerInput(page: Page, text: string, title?: string): Promise<void> {
  if (title) await page.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: title }).waitFor();
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
  await page.keyboard.press('Enter');
}

/** The content of the active webview (a custom editor's page is an iframe inside the workbench's iframe). */
export function activeWebview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** Texts of the notification toasts on screen. */
export async function toasts(page: Page): Promise<string[]> {
  return page.locator('.notification-toast').allInnerTexts();
}

/** The trace editor's page for a file (each custom editor is a webview, a frame inside a frame). */
export async function traceFrame(page: Page, fileName: string, timeoutMs = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      const state = await f
        .evaluate<{ file: string | null; painted: boolean }>(
          `({ file: document.querySelector('.file-name')?.textContent ?? null, painted: document.querySelector('.record-title:not(.muted)') !== null })`,
        )
        .catch(() => null);
      if (state?.file === fileName && state.painted) return f;
    }
    if (Date.now() > deadline) throw new Error(`no Toolscope editor painted a record of ${fileName} in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
