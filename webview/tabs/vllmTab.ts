/**
 * The vLLM tab, offered for a record with a raw Kimi K2 completion and a vLLM profile chosen (`toolscope.vllmProfile`),
 * the reference parse and what that vLLM generation would have sent, side by side — content and each call, with
 * the vllm-divergence findings that explain each difference next to it — then the non-streaming answer and every
 * delta with what vLLM returned for it. A control switches the delta grouping (1 token, N tokens, as recorded); the
 * host runs the profile again. Everything from the trace goes in as text.
 */
import './vllmTab.css';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { Diagnostic } from '../../src/shared/diagnostic.ts';
import type { VllmDeltaMessage } from '../../src/shared/vllmStream.ts';
import type { RecordView, VllmGroupingChoice, VllmRowView, VllmView } from '../../src/shared/protocol.ts';
import { clip, h, replace, type Child } from '../dom.ts';
import type { HostConnection } from '../hostConnection.ts';
import { diagnosticItem, visibleText } from '../widgets.ts';
import type { RecordTab, TabFactory, TabInput } from './recordTab.ts';

type Select = HTMLElement & { value: string };
type TextField = HTMLElement & { value: string };

export interface VllmTabOptions {
  /** The host can run the profile again (false in a standalone report). */
  canRerun: boolean;
  /** A grouping request is in flight, or failed: said next to the control. */
  status: string | null;
  onGrouping(grouping: VllmGroupingChoice): void;
}

const MAX_PER_DELTA = 4096;

type Side = VllmRowView['reference'];

/** A call as written: name, id, and the argument text with its whitespace visible (not pretty-printed). */
function callBlock(c: { id: string; name: string; arguments: string }): HTMLElement {
  return h(
    'div',
    { class: 'vllm-call' },
    h(
      'div',
      { class: 'acc-head' },
      h('span', { class: 'acc-name' }, clip(c.name || '(no name)', 200)),
      h('span', { class: 'acc-id muted' }, clip(c.id || '(no id)', 200)),
    ),
    c.arguments === ''
      ? h('span', { class: 'muted' }, 'no arguments')
      : h('div', { class: 'vllm-text vllm-args' }, visibleText(c.arguments, 4000)),
  );
}

function sideCell(side: Side, empty: string): HTMLElement {
  if (side === null) return h('td', { class: 'vllm-missing' }, h('span', { class: 'muted' }, empty));
  if ('content' in side)
    return h(
      'td',
      null,
      side.content === null
        ? h('span', { class: 'muted' }, 'no content')
        : h('div', { class: 'vllm-text' }, visibleText(side.content, 4000)),
    );
  return h('td', null, callBlock(side));
}

function findingsCell(row: VllmRowView, diagnostics: readonly Diagnostic[]): HTMLElement {
  if (!row.findings.length) return h('td', { class: 'vllm-findings' }, h('span', { class: 'cmp-clean' }, '✓ same'));
  return h(
    'td',
    { class: 'vllm-findings' },
    h(
      'ul',
      { class: 'diag-list' },
      row.findings.map((i) => {
        const d = diagnostics[i];
        if (!d) return null;
        const item = diagnosticItem(d, null);
        item.classList.add('vllm-finding');
        if (d.detail) item.setAttribute('data-detail', d.detail);
        // The detail names the difference: first, before the message.
        item.querySelector('.diag-kind')?.replaceChildren(document.createTextNode(d.detail ?? d.kind));
        return item;
      }),
    ),
  );
}

function rowLabel(row: VllmRowView, callNumber: number): string {
  return row.kind === 'content' ? 'content' : `call ${callNumber}`;
}

function messageText(m: VllmDeltaMessage | null | undefined): string {
  return m === null || m === undefined ? 'null' : JSON.stringify(m);
}

function sameGrouping(a: VllmGroupingChoice, view: VllmView): boolean {
  return a.kind === 'recorded'
    ? view.grouping.kind === 'recorded'
    : view.grouping.kind === 'tokens' && view.grouping.perDelta === a.perDelta;
}

/** The grouping the control shows: per-token, N per delta, or recorded. */
function groupingControl(view: VllmView, opts: VllmTabOptions): HTMLElement {
  const current = view.grouping;
  const mode = current.kind === 'recorded' ? 'recorded' : current.perDelta === 1 ? 'one' : 'n';
  const select = h(
    'vscode-single-select',
    { 'aria-label': 'Delta grouping', label: 'Delta grouping', class: 'vllm-grouping-kind', disabled: !opts.canRerun },
    h('vscode-option', { value: 'one' }, '1 token per delta'),
    h('vscode-option', { value: 'n' }, 'N tokens per delta'),
    h(
      'vscode-option',
      { value: 'recorded', disabled: view.recordedSource === null },
      view.recordedSource === null ? 'As recorded (this record has no grouping)' : 'As recorded',
    ),
  ) as Select;
  select.value = mode;
  const perDelta = h('vscode-textfield', {
    type: 'number',
    min: 1,
    max: MAX_PER_DELTA,
    'aria-label': 'Tokens per delta',
    class: 'vllm-per-delta',
    disabled: !opts.canRerun,
    hidden: mode !== 'n',
  }) as TextField;
  perDelta.value = String(current.kind === 'tokens' && current.perDelta > 1 ? current.perDelta : 4);
  const ask = (choice: VllmGroupingChoice) => {
    if (!sameGrouping(choice, view)) opts.onGrouping(choice);
  };
  const fromField = (): VllmGroupingChoice | null => {
    const n = Math.floor(Number(perDelta.value));
    return Number.isFinite(n) && n >= 1 ? { kind: 'tokens', perDelta: Math.min(n, MAX_PER_DELTA) } : null;
  };
  select.addEventListener('change', () => {
    perDelta.hidden = select.value !== 'n';
    if (select.value === 'one') ask({ kind: 'tokens', perDelta: 1 });
    else if (select.value === 'recorded') ask({ kind: 'recorded' });
    else {
      const choice = fromField();
      if (choice) ask(choice);
    }
  });
  perDelta.addEventListener('change', () => {
    const choice = fromField();
    if (choice) ask(choice);
  });
  const shown = `${view.groupingLabel} · ${view.deltasTotal} delta${view.deltasTotal === 1 ? '' : 's'}${view.reasoningTokens ? ` · ${view.reasoningTokens} think tokens went to the reasoning parser first` : ''}`;
  return h(
    'div',
    { class: 'vllm-grouping', role: 'group', 'aria-label': 'Delta grouping' },
    h('span', { class: 'label' }, 'Delta grouping'),
    select,
    perDelta,
    h('span', { class: 'vllm-grouping-now', 'aria-live': 'polite' }, opts.status ?? `Shown: ${shown}`),
  );
}

function deltasTable(view: VllmView): HTMLElement {
  // Deltas whose tokens a finding points at are marked.
  const marked = (start: number, end: number) =>
    view.diagnostics.some((d) => d.tokenStart !== null && d.tokenEnd !== null && d.tokenStart < end && start < d.tokenEnd);
  const rows: Child[] = view.deltas.map((d, i) =>
    h(
      'tr',
      { class: `${d.message === null ? 'vllm-null' : ''}${marked(d.tokenStart, d.tokenEnd) ? ' has-finding' : ''}`.trim() || null },
      h('td', { class: 'num' }, String(i + 1)),
      h('td', { class: 'num muted' }, d.tokenEnd - d.tokenStart > 1 ? `${d.tokenStart + 1}–${d.tokenEnd}` : String(d.tokenStart + 1)),
      h('td', null, visibleText(d.text, 400)),
      h('td', null, h('code', { class: 'vllm-message' }, clip(messageText(d.message), 600))),
    ),
  );
  if (view.finish !== undefined) {
    rows.push(
      h(
        'tr',
        { class: `vllm-finish${view.finish === null ? ' vllm-null' : ''}` },
        h('td', { class: 'num' }, '—'),
        h('td', { class: 'muted' }, 'end'),
        h('td', { class: 'muted' }, 'finish_streaming()'),
        h('td', null, h('code', { class: 'vllm-message' }, clip(messageText(view.finish), 600))),
      ),
    );
  }
  return h(
    'details',
    { class: 'vllm-deltas' },
    h('summary', null, `The ${view.deltasTotal} deltas fed to the parser and what vLLM returned for each`),
    view.deltas.length < view.deltasTotal ? h('p', { class: 'muted' }, `The first ${view.deltas.length} are listed.`) : null,
    h(
      'div',
      { class: 'cmp-wrap' },
      h(
        'table',
        { class: 'vllm-delta-table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, '#'),
            h('th', { scope: 'col' }, 'tokens'),
            h('th', { scope: 'col' }, 'delta text'),
            h('th', { scope: 'col' }, 'DeltaMessage (null: nothing sent)'),
          ),
        ),
        h('tbody', null, rows),
      ),
    ),
  );
}

function nonstream(view: VllmView): HTMLElement {
  const m = view.nonstream;
  return h(
    'details',
    { class: 'vllm-nonstream' },
    h('summary', null, `Non-streaming (extract_tool_calls): ${m.calls.length} call${m.calls.length === 1 ? '' : 's'}`),
    h(
      'div',
      { class: 'section-body' },
      h('p', null, 'content: ', m.content === null ? h('span', { class: 'muted' }, 'null') : visibleText(m.content, 4000)),
      m.calls.map(callBlock),
    ),
  );
}

/**
 * The tab's controller: keeps the user's grouping across records (a record opened later is run again with it),
 * asks the host for a new run when the grouping changes, and renders.
 */
class VllmTab implements RecordTab {
  readonly id = 'vllm';
  readonly label = 'vLLM';
  readonly focusablePanel = true;
  private choice: VllmGroupingChoice | null = null;
  private status: string | null = null;
  private seq = 0;
  /** The record the panel shows. */
  private shownKey: string | null = null;

  constructor(private readonly connection: HostConnection) {}

  private get canRerun(): boolean {
    return this.connection.host === 'vscode';
  }

  shownWhen({ view }: TabInput): boolean {
    return Boolean(view?.vllm);
  }

  render({ view }: TabInput, panel: HTMLElement): void {
    this.draw(panel, view);
  }

  private draw(panel: HTMLElement, record: RecordView | null): void {
    const view = record?.vllm ?? null;
    this.shownKey = record?.key ?? null;
    if (record && view && this.choice && this.canRerun && !sameGrouping(this.choice, view)) void this.rerun(panel, record, this.choice);
    replace(panel, vllmView(view, { canRerun: this.canRerun, status: this.status, onGrouping: (g) => this.pick(panel, record, g) }));
  }

  private pick(panel: HTMLElement, record: RecordView | null, grouping: VllmGroupingChoice): void {
    this.choice = grouping;
    this.draw(panel, record);
  }

  private async rerun(panel: HTMLElement, record: RecordView, grouping: VllmGroupingChoice): Promise<void> {
    const seq = ++this.seq;
    this.status = `Running vLLM ${record.vllm?.profile ?? ''} with ${grouping.kind === 'recorded' ? 'the recorded grouping' : `${grouping.perDelta} token${grouping.perDelta === 1 ? '' : 's'} per delta`}…`;
    const reply = await this.connection.request({ type: 'vllmRun', key: record.key, grouping });
    if (seq !== this.seq) return;
    if (reply.type === 'error') {
      this.status = `Could not run the profile: ${clip(reply.message, 300)}`;
      this.choice = null;
    } else {
      this.status = null;
      // The record view keeps the new run: coming back to the tab shows it.
      record.vllm = reply.view;
    }
    if (this.shownKey === record.key) this.draw(panel, record);
  }
}

export const vllmTab: TabFactory = ({ connection }) => new VllmTab(connection);

export function vllmView(view: VllmView | null | undefined, opts: VllmTabOptions): HTMLElement {
  if (!view) {
    return h(
      'div',
      { class: 'doc-view vllm-view' },
      h(
        'p',
        { class: 'muted' },
        'Choose a vLLM profile (the toolscope.vllmProfile setting) to see what vLLM would have sent for a raw Kimi K2 completion.',
      ),
    );
  }
  let callNumber = 0;
  const table = h(
    'table',
    { class: 'cmp-table vllm-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, ''),
        h('th', { scope: 'col' }, 'Reference parse (Toolscope)'),
        h('th', { scope: 'col' }, `vLLM ${view.profile}, streamed`),
        h('th', { scope: 'col' }, 'Findings'),
      ),
    ),
    h(
      'tbody',
      null,
      view.rows.map((row) => {
        if (row.kind === 'call') callNumber++;
        return h(
          'tr',
          { class: `vllm-row${row.findings.length ? ' differs' : ''}`, 'data-row': row.kind },
          h('th', { scope: 'row' }, rowLabel(row, callNumber)),
          sideCell(row.reference, 'not in the reference parse'),
          sideCell(row.vllm, 'not sent'),
          findingsCell(row, view.diagnostics),
        );
      }),
    ),
  );
  const errors = view.diagnostics.filter((d) => d.severity === 'error').length;
  return h(
    'div',
    { class: 'doc-view vllm-view' },
    h('h3', null, `What vLLM generation ${view.profile} would have sent`),
    h('p', { class: 'muted vllm-about' }, `${view.description} · vLLM ${view.commit}`),
    groupingControl(view, opts),
    view.groupingNote ? h('p', { class: 'banner warn' }, clip(view.groupingNote, 400)) : null,
    opts.canRerun
      ? null
      : h(
          'p',
          { class: 'muted' },
          'This report shows the grouping it was written with (toolscope report --vllm-profile … --delta-tokens N|recorded); open the trace in VS Code to switch.',
        ),
    view.diagnostics.length
      ? h(
          'p',
          { class: 'vllm-summary' },
          `${view.diagnostics.length} difference${view.diagnostics.length === 1 ? '' : 's'} from the reference parse${errors ? ` (${errors} error${errors === 1 ? '' : 's'})` : ''}.`,
        )
      : h('p', { class: 'cmp-clean vllm-summary' }, '✓ The client would have received what the reference parse says.'),
    h('div', { class: 'cmp-wrap', tabindex: 0, role: 'region', 'aria-label': 'Reference parse and vLLM side by side' }, table),
    nonstream(view),
    deltasTable(view),
  );
}
