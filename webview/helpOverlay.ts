/**
 * Modal overlays: the key help (`?`) and, in a standalone report, the record's raw JSON. Focus moves into the
 * dialog, stays there, and returns where it was on Esc or Close.
 */
import './helpOverlay.css';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { h, type Child } from './dom.ts';
import { KEY_HELP } from './stepping.ts';

let openCount = 0;

/** True while a dialog is open: the page's own keys pause. */
export function overlayOpen(): boolean {
  return openCount > 0;
}

export function showDialog(opts: { title: string; className: string; body: Child; onClose?: () => void }): () => void {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const titleId = `dlg-title-${Math.random().toString(36).slice(2)}`;
  const close = h('vscode-button', { class: 'dialog-close', secondary: true }, 'Close');
  const dialog = h(
    'div',
    { class: `dialog ${opts.className}`, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId, tabindex: -1 },
    h('div', { class: 'dialog-head' }, h('h2', { id: titleId }, opts.title), close),
    h('div', { class: 'dialog-body' }, opts.body),
  );
  const backdrop = h('div', { class: 'backdrop' }, dialog);
  let closed = false;
  const done = () => {
    if (closed) return;
    closed = true;
    openCount--;
    backdrop.remove();
    document.removeEventListener('keydown', onKey, true);
    opts.onClose?.();
    previous?.focus({ preventScroll: true });
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      done();
      return;
    }
    if (e.key === 'Tab') {
      // Keep focus inside the dialog.
      const focusables = [dialog, close, ...dialog.querySelectorAll<HTMLElement>('[tabindex="0"], button')];
      const first = focusables[0] as HTMLElement;
      const last = focusables[focusables.length - 1] as HTMLElement;
      const active = document.activeElement;
      if (!dialog.contains(active)) {
        e.preventDefault();
        close.focus();
      } else if (e.shiftKey && active === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    }
    // Other keys go to the dialog (scrolling, copying, its buttons); the page's stepping keys check overlayOpen().
  };
  close.addEventListener('click', done);
  backdrop.addEventListener('mousedown', (e) => {
    if (e.target === backdrop) done();
  });
  document.addEventListener('keydown', onKey, true);
  openCount++;
  document.body.appendChild(backdrop);
  dialog.focus();
  return done;
}

/** What the chips' looks mean: [chip classes, sample text, meaning]. */
const LEGEND: Array<[string, string, string]> = [
  ['role-marker special', '<|tool_call_begin|>', 'a marker: one special token'],
  ['role-call-id', 'functions.search:0', 'a call id'],
  ['role-arguments', '{"q":', 'arguments'],
  ['role-reasoning', 'thinking', 'reasoning (inside <think>)'],
  ['role-content approx', 'Hello', 'dashed: a token boundary Toolscope inferred (no recorded tokens)'],
  ['role-content lp3', 'maybe', 'a bar at the foot: an unlikely token (the thicker, the lower its logprob)'],
  ['role-content diag diag-error', 'bad', 'wavy underline: a finding (red error, yellow warning, blue info)'],
  ['role-content guided-block', 'oops', 'a bar on the left: where guided decoding would have stepped in'],
];

export function showHelp(): () => void {
  return showDialog({
    title: 'Keyboard',
    className: 'help',
    body: [
      h(
        'table',
        { class: 'keys' },
        h(
          'tbody',
          null,
          KEY_HELP.map((k) =>
            h(
              'tr',
              null,
              h(
                'td',
                { class: 'key-cell' },
                k.keys.map((key) => h('kbd', null, key)),
              ),
              h('td', null, k.action),
            ),
          ),
        ),
      ),
      h(
        'p',
        { class: 'muted' },
        'Keys act on the timeline wherever the focus is, except in the filter fields; the record list keeps ↑ ↓ Home End Enter for itself.',
      ),
      h('h3', null, 'In the timeline'),
      h(
        'table',
        { class: 'legend' },
        h(
          'tbody',
          null,
          LEGEND.map(([cls, text, meaning]) =>
            h('tr', null, h('td', { class: 'key-cell' }, h('span', { class: `chip ${cls}` }, text)), h('td', null, meaning)),
          ),
        ),
      ),
    ],
  });
}

export function showRaw(title: string, json: string): () => void {
  const pre = h('pre', { class: 'raw-json', tabindex: 0 }, json);
  return showDialog({ title: `Raw record: ${title.length > 120 ? title.slice(0, 119) + '…' : title}`, className: 'raw', body: pre });
}
