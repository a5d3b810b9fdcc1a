/**
 * The head of the open record, above its tabs: its id, whether it failed, the Raw JSON button, and one line of what it
 * is (model, format and how it was chosen, where it was read, calls and findings counted).
 */
import './recordHead.css';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { RecordView } from '../src/shared/protocol.ts';
import { clip, h, type Child } from './dom.ts';

/** The head's content: the record's, or a message when none is open (`file`: the record's file when the trace joins several). */
export function recordHead(view: RecordView | null, message: string | null, file: string | undefined, onRaw: () => void): Child[] {
  if (!view) return [h('h2', { class: 'record-title muted' }, message ?? 'No record open.')];
  const where = [view.source, view.lastLine > view.line ? `lines ${view.line}–${view.lastLine}` : `line ${view.line}`];
  if (file) where.push(file);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of view.diagnostics) counts[d.severity]++;
  return [
    h(
      'div',
      { class: 'record-title-row' },
      h('h2', { class: 'record-title', title: clip(view.id, 2000) }, clip(view.id, 200)),
      view.failed ? h('span', { class: 'rec-failed', title: clip(view.failed, 2000) }, 'failed') : null,
      h('span', { class: 'spacer' }),
      rawButton(onRaw),
    ),
    h(
      'div',
      { class: 'record-meta' },
      clip(view.model ?? 'model unknown', 200),
      ' · ',
      formatLabel(view),
      ' · ',
      clip(where.join(' · '), 400),
      ` · ${view.calls.length} call${view.calls.length === 1 ? '' : 's'} · `,
      h('span', { class: 'count-error' }, `${counts.error} error${counts.error === 1 ? '' : 's'}`),
      ', ',
      h('span', { class: 'count-warning' }, `${counts.warning} warning${counts.warning === 1 ? '' : 's'}`),
      ', ',
      h('span', { class: 'count-info' }, `${counts.info} info`),
      view.guidedPending
        ? h(
            'span',
            {
              class: 'guided-pending muted',
              title: 'The guided-decoding what-if is still running: its findings are added when it answers.',
            },
            ' · guided checks pending…',
          )
        : null,
      ...ignoredNote(view),
    ),
  ];
}

function rawButton(onRaw: () => void): HTMLElement {
  const b = h(
    'vscode-button',
    { secondary: true, class: 'raw-button', title: 'Show the record as JSON (credentials redacted)' },
    'Raw JSON',
  );
  b.addEventListener('click', onRaw);
  return b;
}

/** The record's tool-call format in its header, saying how it was chosen (hover for the evidence). */
function formatLabel(view: RecordView): HTMLElement {
  const format = clip(view.format, 40);
  const evidence = clip(view.formatEvidence, 300);
  const how: Record<RecordView['formatBasis'], string> = {
    forced: 'chosen by you (the toolscope.format setting, or --format)',
    named: 'named by the record (meta.format)',
    markup: `detected from ${evidence}`,
    parser: `detected from ${evidence}`,
    model: `detected from the ${evidence}`,
    history: `detected from the ${evidence}`,
    default: `${evidence}; choose one with the toolscope.format setting (or --format)`,
  };
  const suffix = view.formatBasis === 'default' ? ' (assumed)' : view.formatBasis === 'forced' ? ' (chosen)' : '';
  return h(
    'span',
    { class: `rec-format basis-${view.formatBasis}`, title: `Tool-call format ${format}: ${how[view.formatBasis] ?? evidence}` },
    `format ${format}${suffix}`,
  );
}

/** The findings the user's ignore list silenced, counted in the record header (never dropped without a trace). */
function ignoredNote(view: RecordView): Child[] {
  const entries = Object.entries(view.ignored ?? {}).filter(([, n]) => (n ?? 0) > 0);
  if (!entries.length) return [];
  const total = entries.reduce((sum, [, n]) => sum + (n ?? 0), 0);
  return [
    ', ',
    h(
      'span',
      { class: 'count-ignored', title: `Ignored by toolscope.ignoreFindings: ${entries.map(([k, n]) => `${n} ${k}`).join(', ')}` },
      `${total} ignored`,
    ),
  ];
}
