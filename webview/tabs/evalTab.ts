/**
 * The Eval tab, offered for a K2-Vendor-Verifier results file: K2VV's figures per run (guided off / on side by side
 * when `toolscope eval` wrote both) and a bar chart of the findings by kind, so what guided decoding removed is
 * visible at a glance; for a guided off / on pair, the two compared (deltas, and the samples that changed). Bars
 * are plain elements sized through the CSSOM (the CSP allows no inline styles).
 */
import './evalTab.css';
import { DIAGNOSTIC_KINDS } from '../diagnosticKinds.ts';
import type { EvalCompareView, EvalPanelView, EvalRunView } from '../../src/shared/protocol.ts';
import { h, replace } from '../dom.ts';
import type { TabFactory } from './recordTab.ts';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(2)} %`);

function figures(runs: readonly EvalRunView[]): HTMLElement {
  const cols: Array<[string, (r: EvalRunView) => string]> = [
    ['requests', (r) => String(r.summary.success_count + r.summary.failure_count)],
    ['failed', (r) => String(r.summary.failure_count)],
    ['stop', (r) => String(r.summary.finish_stop)],
    ['tool_calls', (r) => String(r.summary.finish_tool_calls)],
    [
      'others',
      (r) =>
        String(r.summary.finish_others) +
        (Object.keys(r.summary.finish_others_detail).length
          ? ` (${Object.entries(r.summary.finish_others_detail)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')})`
          : ''),
    ],
    ['tool calls ok', (r) => String(r.summary.successful_tool_call_count)],
    ['schema errors', (r) => String(r.summary.schema_validation_error_count)],
    ['schema accuracy', (r) => pct(r.summary.schema_accuracy)],
  ];
  const table = h(
    'table',
    { class: 'eval-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, 'run'),
        cols.map(([c]) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      null,
      runs.map((r) =>
        h(
          'tr',
          null,
          h(
            'th',
            { scope: 'row', title: r.fileName },
            r.label,
            r.simulated ? h('span', { class: 'eval-simulated' }, ' · simulated') : null,
          ),
          cols.map(([, f]) => h('td', null, f(r))),
        ),
      ),
    ),
  );
  return h('div', { class: 'eval-table-wrap', tabindex: 0, role: 'region', 'aria-label': 'K2-Vendor-Verifier figures' }, table);
}

function chart(runs: readonly EvalRunView[]): HTMLElement {
  const kinds = [...new Set(runs.flatMap((r) => Object.keys(r.findings)))];
  if (kinds.length === 0) return h('p', { class: 'muted' }, 'No errors or warnings in these runs.');
  const max = Math.max(...runs.flatMap((r) => kinds.map((k) => r.findings[k] ?? 0)), 1);
  kinds.sort(
    (a, b) => Math.max(...runs.map((r) => r.findings[b] ?? 0)) - Math.max(...runs.map((r) => r.findings[a] ?? 0)) || a.localeCompare(b),
  );
  return h(
    'div',
    { class: 'eval-chart', role: 'table', 'aria-label': 'Findings by kind and run' },
    kinds.map((k) => {
      const info = DIAGNOSTIC_KINDS[k];
      return h(
        'div',
        { class: 'eval-kind', role: 'row' },
        h('span', { class: 'eval-kind-name', role: 'rowheader', title: info?.title ?? k }, `${info?.code ?? '?'} ${k}`),
        h(
          'span',
          { class: 'eval-bars', role: 'cell' },
          runs.map((r, i) => {
            const n = r.findings[k] ?? 0;
            const bar = h('span', { class: `eval-bar run-${i}`, title: `${r.label}: ${n}` });
            bar.style.setProperty('--w', `${(n / max) * 100}%`);
            return h(
              'span',
              { class: 'eval-bar-row' },
              h('span', { class: 'eval-bar-label' }, r.label),
              h('span', { class: 'eval-bar-track' }, bar),
              h('span', { class: 'eval-bar-n' }, String(n)),
            );
          }),
        ),
      );
    }),
  );
}

// Shares, shown as percentages and their deltas in percentage points (as `eval compare` prints them).
const RATES = new Set(['success_rate', 'schema_accuracy', 'precision', 'recall', 'f1']);

function value(name: string, v: number | null): string {
  if (v === null) return '—';
  if (RATES.has(name)) return pct(v);
  if (name.endsWith('_ms')) return `${v.toFixed(1)} ms`;
  if (name === 'output_tokens_per_s') return `${v.toFixed(1)}/s`;
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

function delta(name: string, d: number | null): string {
  if (d === null) return '—';
  if (d === 0) return '0';
  const sign = d > 0 ? '+' : '−';
  return RATES.has(name) ? `${sign}${(Math.abs(d) * 100).toFixed(2)} pp` : `${sign}${value(name, Math.abs(d))}`;
}

function sideText(s: EvalCompareView['samples'][number]['baseline']): string {
  if (!s) return 'absent';
  if (s.status !== 'success') return 'failed';
  return s.trigger ? (s.schemaValid ? 'call ok' : 'call rejected') : 'no call';
}

function findingsText(s: EvalCompareView['samples'][number]['baseline']): string {
  const entries = Object.entries(s?.findings ?? {}) as Array<[string, number]>;
  return entries.length ? entries.map(([k, n]) => `${DIAGNOSTIC_KINDS[k]?.code ?? '?'} ${k}${n > 1 ? ` ×${n}` : ''}`).join(', ') : '—';
}

/** The pair compared: figures with deltas, then the samples that changed (what `eval compare` prints). */
function comparison(c: EvalCompareView): HTMLElement[] {
  const figures = h(
    'table',
    { class: 'eval-cmp eval-compare' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, 'figure'),
        h('th', { scope: 'col' }, c.baseline.label),
        h('th', { scope: 'col' }, c.candidate.label),
        h('th', { scope: 'col' }, 'delta'),
      ),
    ),
    h(
      'tbody',
      null,
      c.figures.map((f) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, f.figure),
          h('td', null, value(f.figure, f.baseline)),
          h('td', null, value(f.figure, f.candidate)),
          h('td', { class: f.delta ? 'eval-delta changed' : 'eval-delta' }, delta(f.figure, f.delta)),
        ),
      ),
    ),
  );
  const samples = c.samples.length
    ? h(
        'table',
        { class: 'eval-cmp eval-samples' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            [
              'sample',
              'changed',
              c.baseline.label,
              c.candidate.label,
              `findings (${c.baseline.label})`,
              `findings (${c.candidate.label})`,
            ].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          null,
          c.samples.map((s) =>
            h(
              'tr',
              null,
              h('th', { scope: 'row' }, String(s.dataIndex)),
              h('td', null, s.changed.join(', ')),
              h('td', null, sideText(s.baseline)),
              h('td', null, sideText(s.candidate)),
              h('td', null, findingsText(s.baseline)),
              h('td', null, findingsText(s.candidate)),
            ),
          ),
        ),
      )
    : h('p', { class: 'muted' }, 'No sample changed.');
  return [
    h('h3', null, `${c.baseline.label} → ${c.candidate.label}`),
    h('div', { class: 'eval-table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Figures compared' }, figures),
    h('h3', null, `Samples that changed (${c.samples.length} of ${c.joined})`),
    h('div', { class: 'eval-table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Samples that changed' }, samples),
  ];
}

export function evalView(panel: EvalPanelView | null | undefined): HTMLElement {
  if (!panel || panel.runs.length === 0)
    return h('div', { class: 'doc-view eval-view' }, h('p', { class: 'muted' }, 'This file holds no K2-Vendor-Verifier result lines.'));
  const model = panel.runs.find((r) => r.summary.model)?.summary.model;
  const simulated = panel.runs.filter((r) => r.simulated).length;
  // A simulator's answers are not a model's: the header never names a model for them.
  const who =
    simulated === panel.runs.length
      ? h(
          'span',
          { class: 'eval-simulated' },
          ' · simulated answers (Toolscope’s embedded endpoint, some deliberately broken), not a model',
        )
      : simulated
        ? h('span', { class: 'eval-simulated' }, ` · ${simulated} of ${panel.runs.length} runs simulated`)
        : model
          ? h('span', { class: 'muted' }, ` · model ${model}`)
          : null;
  return h(
    'div',
    { class: 'doc-view eval-view' },
    h('h3', null, 'K2-Vendor-Verifier figures', who),
    figures(panel.runs),
    h('h3', null, 'Findings by kind (errors and warnings)'),
    chart(panel.runs),
    panel.compare ? comparison(panel.compare) : null,
  );
}

/** The trace's figures, not the record's: a results file opened with nothing selected starts here. */
export const evalTab: TabFactory = () => ({
  id: 'eval',
  label: 'Eval',
  focusablePanel: true,
  shownWhen: ({ info }) => Boolean(info?.eval),
  render: ({ info }, panel) => replace(panel, evalView(info?.eval)),
  traceChanged: (before, after) => JSON.stringify(after.eval ?? null) !== JSON.stringify(before?.eval ?? null),
  opensFreshTrace: true,
});
