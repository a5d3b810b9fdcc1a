/**
 * The moments of a trace editor's open, as the workbench e2e and openPairs.ts split it: the extension host's open
 * marks (src/extension/openMarks.ts, written to TOOLSCOPE_OPEN_MARKS) and the page's and its webview frame's own,
 * each in epoch ms.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Frame } from 'playwright-core';

/** One of the host's marks: its name, the file's base name (null: none), when, the host's CPU so far, and details. */
export type OpenMark = { mark: string; file: string | null; at: number; cpu?: number } & Record<string, unknown>;

/** The host's marks in the order written (none when the file is not there: no open marked yet). */
export function readOpenMarks(marksFile: string): OpenMark[] {
  if (!existsSync(marksFile)) return [];
  return readFileSync(marksFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as OpenMark);
}

/**
 * The page's moments: its start, its document loaded, its script started, its `ready` asked, its list drawn, its
 * first record painted (the webview's `performance` marks), and its first contentful paint; NaN for one not reached.
 */
export function pageMoments(frame: Frame): Promise<Record<string, number>> {
  return frame.evaluate<Record<string, number>>(`(() => {
    const at = (n) => { const m = performance.getEntriesByName(n)[0]; return m ? performance.timeOrigin + m.startTime : NaN; };
    const nav = performance.getEntriesByType('navigation')[0];
    return {
      'page started': performance.timeOrigin,
      'page loaded': nav && nav.responseEnd > 0 ? performance.timeOrigin + nav.responseEnd : NaN,
      'script started': at('toolscope:webview-start'),
      'ready asked': at('toolscope:ready-asked'),
      'list drawn': at('toolscope:list-painted'),
      'record painted': at('toolscope:record-painted'),
      'first contentful paint': at('first-contentful-paint'),
    };
  })()`);
}

/**
 * The workbench's webview frame around the page (its index.html): created when the editor has resolved, it registers
 * the webview service worker before it writes the page into a frame of its own. Empty when it cannot be read.
 */
export async function webviewFrameMoments(frame: Frame): Promise<Record<string, number>> {
  const outer = frame.parentFrame();
  if (!outer) return {};
  return outer
    .evaluate<Record<string, number>>(
      `(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return {
      'webview frame started': performance.timeOrigin,
      'webview frame loaded': nav && nav.domContentLoadedEventEnd > 0 ? performance.timeOrigin + nav.domContentLoadedEventEnd : NaN,
    };
  })()`,
    )
    .catch(() => ({}));
}
