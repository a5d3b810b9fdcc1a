/**
 * The extension's entry as VS Code loads it (dist/extension.js): it loads the extension itself (extension.ts, bundled
 * as dist/extension-main.js) through V8's code cache, as the CLI's launcher loads the CLI (src/io/cache/codeCache.ts).
 * The extension host's Node has no code cache for extensions: compiling the 1.9 MB bundle and the functions its
 * activation runs cost the extension host 152–179 ms of CPU from this file's load to `activate()`, 48–63 ms from the
 * cache (workbench e2e, load 13–23), all of it on the path from the first open command to the first record painted.
 * The cache is written a while after the session's first trace editor, so the functions its open ran are in it; a
 * missing or bad cache only means a normal load (and a new cache).
 */
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { compileWithCodeCache } from '../io/cache/codeCache.ts';
import { openMark } from './openMarks.ts';

type Extension = typeof import('./extension.ts');

/** How long after the session's first trace editor the cache is written (its open has compiled what it needs by then). */
const SAVE_AFTER_MS = 20_000;

let save: (() => void) | undefined;
openMark('load');
const extension = compileWithCodeCache(join(__dirname, 'extension-main.js'), '', (s) => (save = s))() as Extension;

export function activate(context: vscode.ExtensionContext): void {
  extension.activate(context);
  const write = save;
  save = undefined;
  if (!write) return;
  // Not from activation: a JSON Lines file opened as text activates the extension, maybe long before a trace is
  // opened, and a cache written without the open's functions would be kept. A session with no trace writes none.
  extension.afterFirstTraceOpen(() => {
    const timer = setTimeout(write, SAVE_AFTER_MS);
    timer.unref();
    context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  });
}

export function deactivate(): void {
  extension.deactivate();
}
