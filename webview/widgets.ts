/**
 * Render helpers shared by the list, the inspector, the record controller and the tabs: a severity icon, a finding's
 * kind, a finding, visible whitespace, a JSON block, a long text. Each builds DOM through `h` (dom.ts) and knows nothing
 * of the panel it lands in; their rules, and those of the pieces several panels build alike, are in widgets.css.
 * A panel imports its helpers from here, never from another panel (test/architecture/webviewModules.test.ts).
 */
import './widgets.css';
import type { Diagnostic, Severity } from '../src/shared/diagnostic.ts';
import { DIAGNOSTIC_KINDS } from './diagnosticKinds.ts';
import { clip, formatBytes, h, prettyJson, replace } from './dom.ts';
import { displayRuns } from './layout.ts';

/** The characters a text shows before it is cut. */
export const MAX_SHOWN = 4000;

/** What the host says of a finding kind (its code, severity and title), or null for a kind it did not list. */
export function kindInfo(kind: string): { code: string; severity: Severity; title: string } | null {
  return Object.hasOwn(DIAGNOSTIC_KINDS, kind) ? (DIAGNOSTIC_KINDS[kind] ?? null) : null;
}

export function severityIcon(severity: Severity | null, extra = ''): HTMLElement {
  const s = severity ?? 'none';
  const label = severity ? severity : 'no findings';
  return h('span', { class: `sev sev-${s} ${extra}`.trim(), role: 'img', 'aria-label': label, title: label });
}

/** Text with whitespace made visible, cut past `max` characters. */
export function visibleText(s: string, max = MAX_SHOWN, cls = 'vis'): HTMLElement {
  const shown = s.length > max ? s.slice(0, max) : s;
  const el = h('span', { class: `code ${cls}` });
  for (const run of displayRuns(shown)) el.appendChild(run.ws ? h('span', { class: 'ws' }, run.text) : document.createTextNode(run.text));
  if (s.length > max) el.appendChild(h('span', { class: 'more' }, ` … ${s.length - max} more characters`));
  return el;
}

/** A JSON text pretty-printed when it parses, else as it is (a partial argument string). */
export function jsonBlock(text: string, max = 20000): HTMLElement {
  const pretty = prettyJson(text);
  const shown = pretty ?? text;
  return h(
    'pre',
    // Focusable: it scrolls when long, and a scrolling region must be reachable by keyboard.
    { class: `json${pretty === null ? ' raw' : ''}`, tabindex: 0 },
    shown.length > max ? shown.slice(0, max) + `\n… ${shown.length - max} more characters` : shown,
  );
}

/** One finding; with `index` (its place in the record's diagnostics), a button moves the cursor to it. */
export function diagnosticItem(d: Diagnostic, index: number | null): HTMLElement {
  const title = DIAGNOSTIC_KINDS[d.kind]?.title ?? d.kind;
  return h(
    'li',
    { class: `diag-item sev-${d.severity}` },
    h(
      'div',
      { class: 'diag-head' },
      severityIcon(d.severity),
      h('span', { class: 'diag-code' }, d.code),
      h('span', { class: 'diag-kind' }, title),
      d.path ? h('span', { class: 'diag-path' }, clip(d.path, 120)) : null,
      index !== null && d.tokenStart !== null && d.where === 'completion'
        ? h(
            'button',
            { type: 'button', class: 'link', 'data-token': d.tokenStart, 'data-diag': index, title: 'Move the cursor to these tokens' },
            `token ${d.tokenStart + 1}`,
          )
        : d.where !== 'completion'
          ? h('span', { class: 'diag-where' }, `in the ${d.where}`)
          : null,
    ),
    h('div', { class: 'diag-message' }, clip(d.message, 2000)),
    d.hint ? h('div', { class: 'diag-hint' }, h('span', { class: 'label' }, 'Hint: '), clip(d.hint, 2000)) : null,
  );
}

/** Characters of a long text shown before its "Show all" button. */
export const FIRST_CHARS = 20000;

/** Long text from a trace (a message, a prompt, a response): its start, with a button for the rest. */
export function longText(text: string, cls = 'text-block'): HTMLElement {
  const pre = h('pre', { class: cls }, text.length > FIRST_CHARS ? text.slice(0, FIRST_CHARS) : text);
  if (text.length <= FIRST_CHARS) return pre;
  const more = h('button', { type: 'button', class: 'link show-all' }, `Show all ${formatBytes(text.length)}`);
  more.addEventListener('click', () => {
    replace(pre, text);
    more.remove();
  });
  return h('div', { class: 'long-text' }, pre, more);
}
