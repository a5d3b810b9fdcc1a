/**
 * The Compare tab, offered for a replay record: the recording and its replays side by side, each run named by its
 * place, guided mode, endpoint, model and time, the runs shown picked by the user — finish reason, calls with their
 * arguments, findings — and a word diff of what the client got in two of them. The runs wrap, never overflow.
 * Everything from the trace goes in as text.
 */
import './compareTab.css';
import type { ComparisonColumn, ComparisonView } from '../../src/shared/protocol.ts';
import { clip, h, replace, type Child } from '../dom.ts';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import { jsonBlock } from '../widgets.ts';
import type { TabFactory } from './recordTab.ts';

type Part = 'finish' | 'calls' | 'findings';

function cell(c: ComparisonColumn, row: Part): HTMLElement {
  const body: Child[] = [];
  if (row === 'finish') {
    body.push(h('span', { class: 'code' }, c.finishReason ?? '—'));
    if (c.error) body.push(h('p', { class: 'error-banner' }, clip(c.error, 600)));
  } else if (row === 'calls') {
    if (!c.calls.length)
      body.push(h('p', { class: 'muted' }, c.content ? `no calls · content ${JSON.stringify(clip(c.content, 120))}` : 'no calls'));
    for (const call of c.calls)
      body.push(h('div', { class: 'cmp-call' }, h('div', { class: 'acc-name' }, clip(call.name, 200)), jsonBlock(call.arguments)));
  } else {
    if (!c.findings.length) body.push(h('span', { class: 'cmp-clean' }, '✓ no errors or warnings'));
    // One line per kind and severity, its messages on hover.
    const groups = new Map<string, { f: ComparisonColumn['findings'][number]; messages: string[] }>();
    for (const f of c.findings) {
      const key = `${f.severity} ${f.code}`;
      const g = groups.get(key) ?? { f, messages: [] };
      g.messages.push(f.message);
      groups.set(key, g);
    }
    for (const { f, messages } of groups.values()) {
      body.push(
        h(
          'div',
          { class: `cmp-finding sev-${f.severity}`, title: clip(messages.join('\n'), 2000) },
          h('span', { class: 'kind-badge' }, f.code),
          ` ${f.kind}${messages.length > 1 ? ` ×${messages.length}` : ''}`,
          h('span', { class: 'muted' }, ` (${f.severity})`),
        ),
      );
    }
  }
  return h('dd', { class: `cmp-${row}` }, body);
}

/** `2026-11-28 11:02:03 UTC` from an ISO time; the text as it is when it is not one. */
export function runTime(iso: string | null): string | null {
  if (iso === null) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return clip(iso, 60);
  return new Date(t)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/u, ' UTC');
}

/** A run's name: its place, what it is (recorded, guided off / on) and when it was made. */
function runName(c: ComparisonColumn, i: number): string {
  const when = runTime(c.created);
  return `#${i + 1} ${c.label}${when ? ` · ${when}` : ''}`;
}

/** Runs shown side by side by default: the recording and the newest three replays. */
const SHOWN_BY_DEFAULT = 4;

function defaultShown(cols: readonly ComparisonColumn[]): Set<string> {
  const recorded = cols.filter((c) => c.label === 'recorded');
  const replays = cols.filter((c) => c.label !== 'recorded');
  return new Set([...recorded, ...replays.slice(-(SHOWN_BY_DEFAULT - recorded.length))].map((c) => c.recordId));
}

function runCard(c: ComparisonColumn, i: number): HTMLElement {
  const rows: Array<[Part, string]> = [
    ['finish', 'finish_reason'],
    ['calls', 'tool calls'],
    ['findings', 'findings'],
  ];
  return h(
    'section',
    { class: 'cmp-run', 'aria-label': runName(c, i), 'data-record': c.recordId },
    h(
      'header',
      { class: 'cmp-run-head' },
      h('h4', { class: 'cmp-run-name', title: c.recordId }, `#${i + 1} ${c.label}`),
      h(
        'dl',
        { class: 'kv cmp-run-meta' },
        h('dt', null, 'endpoint'),
        h('dd', { class: 'cmp-endpoint' }, c.endpoint ? clip(c.endpoint, 200) : h('span', { class: 'muted' }, 'not recorded')),
        h('dt', null, 'model'),
        h('dd', { class: 'cmp-model' }, c.model ? clip(c.model, 200) : h('span', { class: 'muted' }, 'not recorded')),
        h('dt', null, 'time'),
        h('dd', { class: 'cmp-time' }, runTime(c.created) ?? h('span', { class: 'muted' }, 'not recorded')),
      ),
    ),
    h(
      'dl',
      { class: 'cmp-run-body' },
      rows.map(([key, label]) => [h('dt', null, label), cell(c, key)]),
    ),
  );
}

/** The runs picked for each recording (by record id), kept while the editor is open. */
const picked = new Map<string, Set<string>>();

export function comparisonView(view: ComparisonView | null, rerender: () => void = () => undefined): HTMLElement {
  if (!view) return h('div', { class: 'doc-view compare-view' }, h('p', { class: 'muted' }, 'This record is not a replay.'));
  const cols = view.columns;
  let shown = picked.get(view.replayOf);
  if (!shown || !cols.some((c) => shown?.has(c.recordId))) shown = defaultShown(cols);
  picked.set(view.replayOf, shown);
  const chosen = shown;
  const picker = h(
    'fieldset',
    { class: 'cmp-picker' },
    h('legend', null, `Runs side by side (${cols.filter((c) => chosen.has(c.recordId)).length} of ${cols.length})`),
    cols.map((c, i) => {
      const box = h('vscode-checkbox', { label: runName(c, i), class: 'cmp-pick', 'data-record': c.recordId }) as HTMLElement & {
        checked: boolean;
      };
      box.checked = chosen.has(c.recordId);
      box.addEventListener('change', () => {
        if (box.checked) chosen.add(c.recordId);
        else chosen.delete(c.recordId);
        rerender();
      });
      return box;
    }),
  );
  const cards = cols.flatMap((c, i) => (chosen.has(c.recordId) ? [runCard(c, i)] : []));
  const parts: Child[] = [
    h('h3', null, `Replays of ${clip(view.replayOf, 200)}`),
    view.originalNote ? h('p', { class: 'muted' }, `The recording is not shown: ${clip(view.originalNote, 400)}.`) : null,
    picker,
    cards.length
      ? h('div', { class: 'cmp-grid', role: 'region', 'aria-label': 'Runs side by side' }, cards)
      : h('p', { class: 'muted' }, 'No run picked.'),
  ];
  if (view.diff) {
    const same = view.diff.parts.every((p) => p.op === 'same');
    parts.push(
      h('h3', null, `What the client got: ${view.diff.left} → ${view.diff.right}`),
      same
        ? h('p', { class: 'cmp-clean' }, 'Identical.')
        : h(
            'pre',
            { class: 'text-block cmp-diff', 'aria-label': `Word diff, removed in ${view.diff.left}, added in ${view.diff.right}` },
            view.diff.parts.map((p) => (p.op === 'same' ? p.text : h(p.op === 'added' ? 'ins' : 'del', { class: `diff-${p.op}` }, p.text))),
          ),
    );
  }
  return h('div', { class: 'doc-view compare-view' }, parts);
}

export const compareTab: TabFactory = () => ({
  id: 'compare',
  label: 'Compare',
  focusablePanel: true,
  shownWhen: ({ view }) => Boolean(view?.comparison),
  render: ({ view }, panel) => {
    const draw = () => {
      const scroll = panel.scrollTop;
      replace(panel, comparisonView(view?.comparison ?? null, draw));
      panel.scrollTop = scroll;
    };
    draw();
  },
});
