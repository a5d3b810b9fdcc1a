/**
 * The webview's tabs stay modules (docs/architecture.md, "Adding a tab"): every stylesheet under webview/ is imported
 * by the module of its own name beside it — esbuild bundles only what is imported, so an orphan would be missing from
 * dist/webview.css without a word — and every tab module in webview/tabs/ is listed in the registry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { filesUnder, ROOT } from './repoFiles.ts';

const read = (path: string) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : '');

test('every stylesheet of the webview is imported by its module', () => {
  const sheets = filesUnder('webview', '.css');
  assert.ok(sheets.includes('webview/shell.css'), 'the shell has a stylesheet');
  const orphans: string[] = [];
  for (const sheet of sheets) {
    // The shell's stylesheet belongs to the shell, shell.ts; any other to the module of its name.
    const owner = sheet === 'webview/shell.css' ? 'webview/shell.ts' : sheet.replace(/\.css$/, '.ts');
    if (!read(owner).includes(`import './${basename(sheet)}';`)) orphans.push(`${sheet}: not imported by ${owner}`);
  }
  assert.deepEqual(orphans, []);
});

test('every tab module is in the registry', () => {
  const list = /export const TABS[^=]*=\s*\[([^\]]*)\]/.exec(read('webview/tabs/registry.ts'))?.[1];
  assert.ok(list, 'webview/tabs/registry.ts exports TABS');
  const registered = list.split(',').map((s) => s.trim());
  const modules = filesUnder('webview/tabs', '.ts').flatMap((f) =>
    [...read(f).matchAll(/export const (\w+): TabFactory\b/g)].map((m) => m[1] as string),
  );
  assert.ok(modules.length > 1, 'tab modules found');
  assert.deepEqual([...modules].sort(), [...registered].sort());
});
