/**
 * Alternated pairs of two packaged builds: open → first record painted in a fresh code-server each run, the sample
 * opened as the workbench e2e opens it (Quick Open as text, then Reopen Editor With… → Toolscope Trace), then, in the
 * same workbench, opened again from the explorer's Open Trace (a second webview). Each run prints the open path split
 * at the extension host's marks (src/extension/openMarks.ts) and the page's, and appends them to a JSON Lines file;
 * `--summary` prints the medians of a file's pairs. Not a test (no `.test.ts`): a tool for measuring the open path.
 *
 *   node --import tsx test/workbench/openPairs.ts PAIRS A.vsix B.vsix [--cold] [--once] [--out FILE]
 *   node --import tsx test/workbench/openPairs.ts --summary FILE A.vsix B.vsix [OPEN]   (OPEN 0: first, 1: second)
 *
 * Each build keeps its own code cache folder, warmed by one run before the pairs (the extension writes its cache 20 s
 * after activation); `--cold` gives every run an empty one, as the e2e's first journey after a build has. `--once`:
 * the first open only. A build named `floor` is test/workbench/floor packed: the least a custom editor can do (it
 * resolves at once, its page one inline script), the workbench's own part of the open path (its first open only: it
 * has no Open Trace).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launch, ROOT } from '../webview/harness.ts';
import { CodeServer, openWorkbench, pickQuick, runCommand, traceFrame } from './codeServer.ts';
import { pageMoments, readOpenMarks, webviewFrameMoments } from './openMoments.ts';

const SAMPLE = 'kimi-k2-raw-completions.jsonl';
/** The moments of an open, in order, as ms after the open command. */
const STEPS = [
  'load',
  'activate',
  'document-open',
  'document-opened',
  'webview-created',
  'page-written',
  'webview frame started',
  'webview frame loaded',
  'page started',
  'page loaded',
  'script started',
  'list drawn',
  'record painted',
  'first contentful paint',
] as const;

type Figures = Record<string, number>;

/** The page's moments and its frame's (epoch ms), and the host's marks: each as ms after `t0`. */
async function openFigures(marksFile: string, t0: number, frame: Frame): Promise<Figures> {
  const page = await pageMoments(frame);
  const outer = await webviewFrameMoments(frame);
  const figures: Figures = {};
  // The last mark of each name: a second open's follow the first's. Activation's may come before the open command.
  for (const m of readOpenMarks(marksFile)) if (m.file === null || m.file === SAMPLE) figures[m.mark] = m.at - t0;
  for (const [k, v] of Object.entries({ ...outer, ...page })) figures[k] = v - t0;
  return figures;
}

async function paintedIn(page: Page, t0: number, marks: string): Promise<Figures> {
  const frame = await traceFrame(page, SAMPLE);
  await frame.waitForFunction(`performance.getEntriesByName('toolscope:record-painted').length > 0`, undefined, {
    timeout: 20_000,
    polling: 20,
  });
  return openFigures(marks, t0, frame);
}

/** The e2e's way: Quick Open the sample (it opens as text), then Reopen Editor With… → Toolscope Trace. */
async function reopenWith(page: Page, marks: string): Promise<Figures> {
  await page.keyboard.press('Control+p');
  await pickQuick(page, SAMPLE);
  await page.locator('.tabs-container .tab.active', { hasText: SAMPLE }).waitFor();
  await runCommand(page, 'View: Reopen Editor With...');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Toolscope Trace' }).waitFor();
  await page.locator('.quick-input-box input').fill('Toolscope Trace');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Toolscope Trace' }).first().waitFor();
  const t0 = Date.now();
  await page.keyboard.press('Enter');
  return paintedIn(page, t0, marks);
}

/** The explorer's Open Trace (the e2e's way for the 200 MB trace). */
async function openTrace(page: Page, marks: string): Promise<Figures> {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: SAMPLE }).click({ button: 'right' });
  const item = page.locator('.context-view .action-item', { hasText: 'Open Trace' }).first();
  await item.waitFor();
  await item.hover();
  const t0 = Date.now();
  await page.keyboard.press('Enter');
  return paintedIn(page, t0, marks);
}

/** One fresh workbench with `vsix` installed: the sample opened, closed, and opened again (`once`: the first only). */
async function run(vsix: string, cache: string, theme: 'dark' | 'light', once = false): Promise<Figures[]> {
  const tmp = await mkdtemp(join(tmpdir(), 'toolscope-open-pairs-'));
  const ws = join(tmp, 'ws');
  await mkdir(ws);
  for (const f of readdirSync(join(ROOT, 'samples')).filter((f) => f.endsWith('.jsonl')))
    await copyFile(join(ROOT, 'samples', f), join(ws, f));
  const marks = join(tmp, 'marks.jsonl');
  const server = await CodeServer.start({
    trust: true,
    theme,
    install: [vsix],
    env: { TOOLSCOPE_OPEN_MARKS: marks, XDG_CACHE_HOME: cache },
  });
  const browser = await launch();
  try {
    const page = await openWorkbench(browser, server.url(ws));
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: SAMPLE }).waitFor();
    const first = await reopenWith(page, marks);
    if (once) return [first];
    await runCommand(page, 'View: Close All Editors');
    await page.waitForTimeout(500);
    return [first, await openTrace(page, marks)];
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

/** test/workbench/floor as a .vsix in `dir`. */
async function packFloor(dir: string): Promise<string> {
  const stage = await mkdtemp(join(tmpdir(), 'toolscope-floor-'));
  const out = join(dir, 'floor.vsix');
  try {
    cpSync(join(ROOT, 'test', 'workbench', 'floor'), stage, { recursive: true });
    const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
    const args = ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out];
    const r = spawnSync(process.execPath, [vsce, ...args], { cwd: stage, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`packing the floor editor failed:\n${r.stdout}\n${r.stderr}`);
    return out;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

const median = (v: number[]) => {
  const x = v.filter(Number.isFinite).sort((a, b) => a - b);
  if (!x.length) return NaN;
  return x.length % 2 ? (x[x.length >> 1] as number) : ((x[x.length / 2 - 1] as number) + (x[x.length / 2] as number)) / 2;
};

interface Row extends Figures {
  pair: number;
  open: number;
}

function summary(file: string, a: string, b: string, open: number): void {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row & { vsix: string; loadavg: number })
    .filter((r) => r.open === open);
  const get = (v: string, p: number) => rows.find((r) => r.vsix === v && r.pair === p);
  const pairs = [...new Set(rows.map((r) => r.pair))].filter((p) => get(a, p) && get(b, p));
  const loads = rows.map((r) => r.loadavg);
  console.log(
    `open ${open}: ${pairs.length} pairs, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; medians, ms after the open command`,
  );
  for (const k of STEPS) {
    const va = pairs.map((p) => get(a, p)?.[k] ?? NaN);
    const vb = pairs.map((p) => get(b, p)?.[k] ?? NaN);
    const d = pairs.map((_, i) => (vb[i] as number) - (va[i] as number));
    const faster = d.filter((x) => x < 0).length;
    console.log(
      `${k.padEnd(24)} ${median(va).toFixed(0).padStart(7)} ${median(vb).toFixed(0).padStart(7)}   median difference ${median(d).toFixed(0).padStart(6)}, ${b} earlier in ${faster} of ${d.length}`,
    );
  }
  console.log(
    `record painted, pair by pair (${a} / ${b}): ${pairs.map((p) => `${get(a, p)?.['record painted']?.toFixed(0)} / ${get(b, p)?.['record painted']?.toFixed(0)}`).join(', ')}`,
  );
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--summary') {
    const [, file, a, b, open = '0'] = args;
    if (!file || !a || !b) throw new Error('usage: --summary FILE A.vsix B.vsix [OPEN]');
    summary(file, basename(a), basename(b), Number(open));
    return;
  }
  const cold = args.includes('--cold');
  const once = args.includes('--once');
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? (args[outAt + 1] as string) : join(tmpdir(), `toolscope-open-pairs-${Date.now()}.jsonl`);
  const [pairsArg, ...rest] = args.filter((a, i) => !a.startsWith('--') && i !== outAt + 1);
  const floorDir = await mkdtemp(join(tmpdir(), 'toolscope-floor-vsix-'));
  const builds = await Promise.all(rest.map((r) => (r === 'floor' ? packFloor(floorDir) : r)));
  if (!pairsArg || builds.length !== 2 || !builds.every((b) => b.endsWith('.vsix')))
    throw new Error('usage: PAIRS A.vsix B.vsix [--cold] [--once] [--out FILE]   (floor for the floor editor)');
  const caches = new Map<string, string>();
  for (const v of builds) caches.set(v, await mkdtemp(join(tmpdir(), 'toolscope-open-cache-')));
  try {
    if (!cold)
      for (const v of builds.filter((b) => b.startsWith(floorDir) === false))
        await run(v, caches.get(v) as string, 'dark', true).then(() => new Promise((r) => setTimeout(r, 22_000)));
    for (let pair = 0; pair < Number(pairsArg); pair++) {
      const theme = pair % 2 ? 'light' : 'dark';
      for (const vsix of pair % 2 ? [...builds].reverse() : builds) {
        const cache = cold ? await mkdtemp(join(tmpdir(), 'toolscope-open-cache-')) : (caches.get(vsix) as string);
        const load = loadavg()[0] as number;
        try {
          (await run(vsix, cache, theme, once || vsix.startsWith(floorDir))).forEach((figures, open) => {
            appendFileSync(out, JSON.stringify({ pair, open, vsix: basename(vsix), theme, loadavg: load, ...figures }) + '\n');
            const steps = STEPS.map((k) => `${k} ${Number.isFinite(figures[k]) ? (figures[k] as number).toFixed(0) : '-'}`);
            console.log(`pair ${pair} open ${open} ${basename(vsix)} (load ${load.toFixed(1)}): ${steps.join(', ')}`);
          });
        } catch (err) {
          console.log(`pair ${pair} ${basename(vsix)} failed: ${err instanceof Error ? err.message : String(err)}`);
        } finally {
          if (cold) await rm(cache, { recursive: true, force: true });
        }
      }
    }
    console.log(`written to ${out}`);
  } finally {
    for (const c of caches.values()) await rm(c, { recursive: true, force: true });
    await rm(floorDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
