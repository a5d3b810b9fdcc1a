/**
 * The Compare tab, offered for a replay record: the recording and its replays (guided off / on) side by side — finish
 * reason, calls with their arguments, findings — and a word diff of what the client got in two of them.
 * Everything from the trace goes in as text.
 */
import './compareTab.css';
import type { ComparisonColumn, ComparisonView } from '../../src/shared/protocol.ts';
import { clip, h, replace, type Child } from '../dom.ts';
import { jsonBlock } from '../inspector.ts';
import type { TabFactory } from './recordTab.ts';

function cell(c: ComparisonColumn, row: 'finish' | 'calls' | 'findings'): HTMLElement {
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
  return h('td', null, body);
}

export function comparisonView(view: ComparisonView | null): HTMLElement {
  if (!view) return h('div', { class: 'doc-view compare-view' }, h('p', { class: 'muted' }, 'This record is not a replay.'));
  const cols = view.columns;
  const rows: Array<['finish' | 'calls' | 'findings', string]> = [
    ['finish', 'finish_reason'],
    ['calls', 'tool calls'],
    ['findings', 'findings'],
  ];
  const table = h(
    'table',
    { class: 'cmp-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, ''),
        cols.map((c) => h('th', { scope: 'col', title: c.recordId }, c.label)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map(([key, label]) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, label),
          cols.map((c) => cell(c, key)),
        ),
      ),
    ),
  );
  const parts: Child[] = [
    h('h3', null, `Replays of ${clip(view.replayOf, 200)}`),
    view.originalNote ? h('p', { class: 'muted' }, `The recording is not shown: ${clip(view.originalNote, 400)}.`) : null,
    h('div', { class: 'cmp-wrap', tabindex: 0, role: 'region', 'aria-label': 'Side by side' }, table),
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
  render: ({ view }, panel) => replace(panel, comparisonView(view?.comparison ?? null)),
});
