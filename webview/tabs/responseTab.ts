/**
 * The Response tab: what the client received (finish reason, delivery, content, reasoning, tool calls), with the
 * findings anchored in the content or the reasoning marked where they are.
 */
import './responseTab.css';
import type { RecordView } from '../../src/shared/protocol.ts';
import { clip, h, replace, type Child } from '../dom.ts';
import { diagnosticItem, FIRST_CHARS, jsonBlock, longText } from '../widgets.ts';
import type { TabFactory } from './recordTab.ts';

type Diagnostic = RecordView['diagnostics'][number];
type DiagnosticWhere = Diagnostic['where'];

/**
 * Response text with the findings anchored in it (`where` naming that text) marked, and the findings listed under
 * it: the reader sees leaked markup or calls left in the reasoning where they are. Overlapping spans keep the first.
 */
function findingsText(text: string, diagnostics: readonly Diagnostic[], where: DiagnosticWhere, cls: string): Child[] {
  const anchored = diagnostics
    // vllm-divergence says `response` about a profile's answer, its positions in the completion: not this text.
    .filter(
      (d) => d.where === where && d.kind !== 'vllm-divergence' && d.charStart !== null && d.charEnd !== null && d.charStart <= text.length,
    )
    .sort((a, b) => (a.charStart as number) - (b.charStart as number));
  if (!anchored.length || text.length > FIRST_CHARS * 5) return [longText(text, cls)];
  const pieces: Child[] = [];
  let at = 0;
  const indexOf = (d: Diagnostic) => diagnostics.indexOf(d);
  for (const d of anchored) {
    const start = d.charStart as number;
    const end = Math.min(text.length, Math.max(start, d.charEnd as number));
    if (start < at) continue;
    pieces.push(
      text.slice(at, start),
      h('mark', { class: `finding sev-${d.severity}`, title: `${d.code} ${d.message}`, 'data-diag': indexOf(d) }, text.slice(start, end)),
    );
    at = end;
  }
  pieces.push(text.slice(at));
  return [
    h('pre', { class: cls }, pieces),
    h(
      'ul',
      { class: 'diag-list response-findings' },
      anchored.map((d) => {
        const item = diagnosticItem(d, null);
        item.dataset.diag = String(indexOf(d));
        return item;
      }),
    ),
  ];
}

export function responseView(view: RecordView): HTMLElement {
  const r = view.response;
  const parts: Child[] = [];
  if (view.failed) parts.push(h('p', { class: 'error-banner' }, 'The request failed: ', clip(view.failed, 2000)));
  if (!r) {
    parts.push(h('p', { class: 'muted' }, 'No response was recorded for this record.'));
    return h('div', { class: 'doc-view response-view' }, parts);
  }
  parts.push(
    h(
      'dl',
      { class: 'kv summary' },
      h('dt', null, 'finish_reason'),
      h('dd', null, r.finishReason ?? '—'),
      h('dt', null, 'delivery'),
      h('dd', null, r.streamed ? `streamed in ${r.chunks} chunk${r.chunks === 1 ? '' : 's'}` : 'one chat.completion'),
    ),
    h('h3', null, 'Content'),
    ...(r.content === null ? [h('p', { class: 'muted' }, 'null')] : findingsText(r.content, view.diagnostics, 'response', 'text-block')),
  );
  if (r.reasoning !== null)
    parts.push(h('h3', null, 'Reasoning'), ...findingsText(r.reasoning, view.diagnostics, 'reasoning', 'text-block reasoning'));
  parts.push(h('h3', null, `Tool calls (${r.calls.length})`));
  if (!r.calls.length) parts.push(h('p', { class: 'muted' }, 'None.'));
  r.calls.forEach((c, i) =>
    parts.push(
      h(
        'div',
        { class: 'msg-call' },
        h(
          'div',
          { class: 'acc-head' },
          h('span', { class: 'acc-index' }, `#${i}`),
          h('span', { class: 'acc-name' }, clip(c.name, 200)),
          h('span', { class: 'acc-id muted' }, clip(c.id, 200)),
        ),
        jsonBlock(c.arguments),
      ),
    ),
  );
  return h('div', { class: 'doc-view response-view' }, parts);
}

export const responseTab: TabFactory = () => ({
  id: 'response',
  label: 'Response',
  focusablePanel: true,
  shownWhen: () => true,
  render: ({ view }, panel) => replace(panel, view ? responseView(view) : h('p', { class: 'muted' }, 'No record open.')),
  // vllm-divergence says `response` about a profile's answer: the vLLM tab shows those.
  showsFinding: (d) => (d.where === 'response' || d.where === 'reasoning') && d.kind !== 'vllm-divergence',
  revealFinding: (panel, index) => {
    for (const el of panel.querySelectorAll('.active-finding')) el.classList.remove('active-finding');
    const marked = panel.querySelectorAll<HTMLElement>(`[data-diag="${index}"]`);
    for (const el of marked) el.classList.add('active-finding');
    marked[0]?.scrollIntoView({ block: 'nearest' });
  },
});
