/**
 * The four VS Code theme kinds for the VS Code-shaped test page: the body class VS Code sets, and the
 * `--vscode-*` colours taken from the report's own fallbacks in webview/shell.css (light/dark from
 * `light-dark(…)`, the high-contrast kinds from its `prefers-contrast: more` block), so both pages are checked
 * against the same values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.ts';

export type ThemeKind = 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';
export const THEME_KINDS: readonly ThemeKind[] = ['light', 'dark', 'high-contrast', 'high-contrast-light'];

const BODY_CLASS: Record<ThemeKind, string> = {
  light: 'vscode-light',
  dark: 'vscode-dark',
  'high-contrast': 'vscode-high-contrast',
  'high-contrast-light': 'vscode-high-contrast-light',
};

/** `--name: value;` declarations of the first rule block after `marker`. */
function declarations(css: string, marker: string): Map<string, string> {
  const at = css.indexOf(marker);
  if (at < 0) throw new Error(`shell.css: no ${marker}`);
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  const out = new Map<string, string>();
  for (const m of body.matchAll(/(--vscode-[\w-]+)\s*:\s*([^;]+);/g)) out.set(m[1] as string, (m[2] as string).trim());
  return out;
}

function side(value: string, dark: boolean): string {
  const m = /^light-dark\((.*)\)$/.exec(value);
  if (!m) return value;
  // Split at the top-level comma (colours like rgba(…) hold commas of their own).
  const inner = m[1] as string;
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '(') depth++;
    else if (inner[i] === ')') depth--;
    else if (inner[i] === ',' && depth === 0) return (dark ? inner.slice(i + 1) : inner.slice(0, i)).trim();
  }
  return value;
}

/** The theme's variables. */
export function themeVariables(kind: ThemeKind): Record<string, string> {
  const css = readFileSync(join(ROOT, 'webview', 'shell.css'), 'utf8');
  const vars = declarations(css, 'body.toolscope-report {');
  if (kind.startsWith('high-contrast')) for (const [k, v] of declarations(css, '@media (prefers-contrast: more)')) vars.set(k, v);
  const dark = kind === 'dark' || kind === 'high-contrast';
  return Object.fromEntries([...vars].map(([k, v]) => [k, side(v, dark)]));
}

/** An init script that themes the VS Code page the way VS Code does (class on <body>, variables on <html>). */
export function vscodeThemeScript(kind: ThemeKind): string {
  return `document.addEventListener('DOMContentLoaded', () => {
  document.body.classList.add(${JSON.stringify(BODY_CLASS[kind])});
  document.body.dataset.vscodeThemeKind = ${JSON.stringify(BODY_CLASS[kind])};
  for (const [k, v] of Object.entries(${JSON.stringify(themeVariables(kind))})) document.documentElement.style.setProperty(k, v);
});`;
}

/** The context options that show the report page in a theme kind (it follows the system's scheme and contrast). */
export function reportThemeOptions(kind: ThemeKind): { theme: 'light' | 'dark'; contrast: 'more' | 'no-preference' } {
  return {
    theme: kind === 'dark' || kind === 'high-contrast' ? 'dark' : 'light',
    contrast: kind.startsWith('high-contrast') ? 'more' : 'no-preference',
  };
}

/** The same as browser-context options. */
export function reportContextOptions(kind: ThemeKind): { colorScheme: 'light' | 'dark'; contrast: 'more' | 'no-preference' } {
  const { theme, contrast } = reportThemeOptions(kind);
  return { colorScheme: theme, contrast };
}
