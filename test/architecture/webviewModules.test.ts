/**
 * The webview's parts stay apart (docs/architecture.md, "The webview"): the shell (shell.ts: page, layout, host,
 * keys) hands records to the record controller (recordController.ts: the open record, its tabs, stepping, inspector)
 * and names none of the controller's parts; the tabs take shared render helpers from widgets.ts, never from another
 * panel; the stylesheets join dist/webview.css with the page's first and the shared widgets' second, so every panel's
 * rules come after the rules they refine; and no module or stylesheet grows back into the 865-line shell and the
 * 1,273-line stylesheet these were split from.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { graph } from './importGraph.ts';
import { filesUnder, ROOT } from './repoFiles.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Every webview module with the files it imports (read once: the graph walks src/ too). */
const imports = new Map([...graph()].filter(([from]) => from.startsWith('webview/')));

/** The record controller's parts: only it builds them (a tab may name the services it is lent, by type). */
const CONTROLLER_PARTS = [
  'webview/inspector.ts',
  'webview/timeline.ts',
  'webview/stepbar.ts',
  'webview/recordHead.ts',
  'webview/cursorAnnouncer.ts',
  'webview/tabs/registry.ts',
];

/** What a tab module may import from the webview besides other tabs: the shared helpers and DOM, the finding kinds. */
const TAB_MAY_IMPORT = ['webview/widgets.ts', 'webview/dom.ts', 'webview/diagnosticKinds.ts'];
/** The services the controller lends its tabs (tabs/recordTab.ts, TabServices): named by type only. */
const TAB_SERVICE_TYPES = ['webview/hostConnection.ts', 'webview/timeline.ts', 'webview/stepbar.ts'];

test("the shell names none of the record controller's parts", () => {
  const shell = imports.get('webview/shell.ts');
  assert.ok(shell, 'webview/shell.ts exists');
  assert.ok(shell.includes('webview/recordController.ts'), 'the shell builds the record controller');
  const reached = shell.filter((to) => CONTROLLER_PARTS.includes(to) || to.startsWith('webview/tabs/'));
  assert.deepEqual(reached, [], 'the shell imports parts of the record controller');
  // Only the controller's class (and its host's interface) from its module.
  const names = [...read('webview/shell.ts').matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'\.\/recordController\.ts'/g)]
    .flatMap((m) => (m[2] as string).split(','))
    .map((s) => s.replace(/^\s*type\s+/, '').trim())
    .filter(Boolean);
  assert.deepEqual(
    names.filter((n) => n !== 'RecordController' && n !== 'RecordControllerHost'),
    [],
    'the shell imports more than the controller',
  );
});

test("the record controller's parts are built by it alone", () => {
  const wrong: string[] = [];
  for (const [from, targets] of imports) {
    if (from === 'webview/recordController.ts' || from.startsWith('webview/tabs/')) continue;
    for (const to of targets) if (CONTROLLER_PARTS.includes(to)) wrong.push(`${from} -> ${to}`);
  }
  assert.deepEqual(wrong, []);
});

test('a tab imports only other tabs, the shared widgets, the DOM helpers and the types of the services it is lent', () => {
  const tabs = filesUnder('webview/tabs', '.ts');
  assert.ok(tabs.length > 1, 'tab modules found');
  const wrong: string[] = [];
  for (const tab of tabs) {
    const source = read(tab);
    for (const to of imports.get(tab) ?? []) {
      if (to.startsWith('src/shared/') || to.startsWith('webview/tabs/') || TAB_MAY_IMPORT.includes(to)) continue;
      const name = to.slice('webview/'.length);
      const typeOnly = new RegExp(`import type [^;]*from '\\.\\./${name.replace('.', '\\.')}';`).test(source);
      if (TAB_SERVICE_TYPES.includes(to) && typeOnly) continue;
      wrong.push(`${tab} -> ${to}`);
    }
  }
  // inspector.ts above all: its helpers moved to widgets.ts, and a tab borrowing from it tied the two panels together.
  assert.deepEqual(wrong, []);
});

/** Lines: one concept per file. The shell was 865 lines and its stylesheet 1,273 before they were split. */
const MAX_MODULE_LINES = 600;
const MAX_STYLESHEET_LINES = 500;

test(`webview modules stay under ${MAX_MODULE_LINES} lines and stylesheets under ${MAX_STYLESHEET_LINES}`, () => {
  const lines = (f: string) => read(f).split('\n').length;
  const big = [
    ...filesUnder('webview', '.ts')
      .filter((f) => lines(f) > MAX_MODULE_LINES)
      .map((f) => `${f}: ${lines(f)} lines`),
    ...filesUnder('webview', '.css')
      .filter((f) => lines(f) > MAX_STYLESHEET_LINES)
      .map((f) => `${f}: ${lines(f)} lines`),
  ];
  assert.deepEqual(big, []);
});

test("dist/webview.css: the page's stylesheet first, the shared widgets' second, every other after them", async () => {
  // The build scripts/build.mjs makes for the webview, in memory: esbuild joins the stylesheets in import order.
  const result = await build({
    entryPoints: [join(ROOT, 'webview/main.ts')],
    bundle: true,
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
    outdir: join(ROOT, 'dist'),
    write: false,
    logLevel: 'silent',
  });
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
  assert.ok(css, 'the bundle has a stylesheet');
  const order = [...css.text.matchAll(/^\/\* (webview\/\S+\.css) \*\/$/gm)].map((m) => m[1]);
  assert.deepEqual(order.slice(0, 2), ['webview/shell.css', 'webview/widgets.css']);
  assert.deepEqual([...order].sort(), filesUnder('webview', '.css').sort(), 'every stylesheet is in the bundle once');
});
