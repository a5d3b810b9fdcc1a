/**
 * The record list: filters, a virtualised listbox of records (10k+ rows stay cheap: only the rows in view
 * exist), and the lines that could not be read. Rows arrive in batches while the host analyses the file.
 */
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import type { Severity } from '../src/shared/diagnostic.ts';
import type { LineErrorView, RecordSummary } from '../src/shared/protocol.ts';
import { DIAGNOSTIC_KINDS } from './diagnosticKinds.ts';
import { clip, h, replace } from './dom.ts';
import type { Filters, SeverityFilter } from './state.ts';

/** Row height at the default 13px font; rows grow with VS Code's font size. */
const BASE_ROW_HEIGHT = 42;
const OVERSCAN = 8;
const MAX_LINE_ERRORS_SHOWN = 500;

export type SelectHow = 'click' | 'keyboard' | 'enter' | 'restore';

export interface RecordListOptions {
  filters: Filters;
  scrollTop: number;
  onFiltersChange(filters: Filters): void;
  onSelect(key: string, how: SelectHow): void;
  onScroll(scrollTop: number): void;
  /** The keys of the rows in view changed (scrolled, filtered, more rows): their what-ifs should go first. */
  onRowsInView?(keys: string[]): void;
}

interface TextField extends HTMLElement {
  value: string;
}
interface Checkbox extends HTMLElement {
  checked: boolean;
}
interface Select extends HTMLElement {
  value: string;
}

export function severityIcon(severity: Severity | null, extra = ''): HTMLElement {
  const s = severity ?? 'none';
  const label = severity ? severity : 'no findings';
  return h('span', { class: `sev sev-${s} ${extra}`.trim(), role: 'img', 'aria-label': label, title: label });
}

function kindInfo(kind: string): { code: string; severity: Severity; title: string } | null {
  return Object.hasOwn(DIAGNOSTIC_KINDS, kind) ? (DIAGNOSTIC_KINDS[kind] ?? null) : null;
}

export function matchesFilters(s: RecordSummary, f: Filters, needle: string): boolean {
  if (f.errorsOnly && s.worst !== 'error' && !s.failed) return false;
  if (f.kind && !s.kinds[f.kind]) return false;
  switch (f.severity as SeverityFilter) {
    case 'error':
    case 'warning':
    case 'info':
      if (!s.counts[f.severity as Severity]) return false;
      break;
    case 'none':
      if (s.worst !== null || s.failed) return false;
      break;
    default:
      break;
  }
  if (needle) {
    const hay = [s.id, s.model ?? '', s.preview, s.file ?? '', s.failed ?? '', s.format, s.source, `line ${s.line}`]
      .join('\n')
      .toLowerCase();
    if (!hay.includes(needle)) return false;
  }
  return true;
}

export class RecordList {
  readonly el: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly countEl: HTMLElement;
  private readonly lineErrorsEl: HTMLElement & { open?: boolean; description?: string };
  private readonly lineErrorsBody: HTMLElement;
  private readonly kindSelect: Select;
  private summaries: RecordSummary[] = [];
  private readonly keyIndex = new Map<string, number>();
  private lineErrors: LineErrorView[] = [];
  private readonly lineErrorKeys = new Set<string>();
  private readonly kinds = new Set<string>();
  /** Indices into `summaries` that pass the filters, in order. */
  private filtered: number[] = [];
  private selectedKey: string | null = null;
  private readonly rendered = new Map<number, HTMLElement>();
  private filters: Filters;
  private analysing = false;
  private frame = 0;
  private rowHeight = BASE_ROW_HEIGHT;
  /** The first and last position in view when last told (`onRowsInView`), and the timer that tells. */
  private toldInView = '';
  private inViewTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: RecordListOptions) {
    this.filters = { ...opts.filters };
    const text = h('vscode-textfield', {
      placeholder: 'Filter: id, model, text',
      'aria-label': 'Filter records by text',
      class: 'filter-text',
    }) as TextField;
    text.value = this.filters.text;
    text.addEventListener('input', () => this.setFilters({ ...this.filters, text: text.value }));

    this.kindSelect = h('vscode-single-select', {
      'aria-label': 'Filter by diagnostic kind',
      label: 'Filter by diagnostic kind',
      class: 'filter-kind',
    }) as Select;
    this.kindSelect.addEventListener('change', () => this.setFilters({ ...this.filters, kind: this.kindSelect.value }));
    this.rebuildKindOptions();

    const severity = h(
      'vscode-single-select',
      { 'aria-label': 'Filter by severity', label: 'Filter by severity', class: 'filter-severity' },
      h('vscode-option', { value: '' }, 'Any severity'),
      h('vscode-option', { value: 'error' }, 'Has errors'),
      h('vscode-option', { value: 'warning' }, 'Has warnings'),
      h('vscode-option', { value: 'info' }, 'Has info'),
      h('vscode-option', { value: 'none' }, 'No findings'),
    ) as Select;
    severity.value = this.filters.severity;
    severity.addEventListener('change', () => this.setFilters({ ...this.filters, severity: severity.value as SeverityFilter }));

    const errorsOnly = h('vscode-checkbox', { label: 'Errors only', class: 'filter-errors' }) as Checkbox;
    errorsOnly.checked = this.filters.errorsOnly;
    errorsOnly.addEventListener('change', () => this.setFilters({ ...this.filters, errorsOnly: errorsOnly.checked }));

    this.countEl = h('div', { class: 'list-count', 'aria-live': 'polite' });
    this.spacer = h('div', { class: 'list-spacer' });
    this.scroller = h('div', { class: 'list-scroller', role: 'listbox', tabindex: 0, 'aria-label': 'Records' }, this.spacer);
    this.scroller.addEventListener('scroll', () => this.scheduleRender());
    this.scroller.addEventListener('keydown', (e) => this.onKey(e));
    this.scroller.addEventListener('click', (e) => {
      const row = (e.target as Element).closest<HTMLElement>('.rec-row');
      if (!row) return;
      const key = this.keyOfRow(row);
      if (key !== null) {
        this.scroller.focus({ preventScroll: true });
        this.opts.onSelect(key, 'click');
      }
    });
    new ResizeObserver(() => this.scheduleRender()).observe(this.scroller);

    this.lineErrorsBody = h('ul', { class: 'line-errors-list' });
    this.lineErrorsEl = h('vscode-collapsible', { heading: 'Unreadable lines', class: 'line-errors', hidden: true }, this.lineErrorsBody);

    this.el = h(
      'section',
      { class: 'list-panel', 'aria-label': 'Records' },
      h(
        'div',
        { class: 'list-filters' },
        text,
        h('div', { class: 'filter-row' }, this.kindSelect, severity),
        h('div', { class: 'filter-row' }, errorsOnly, this.countEl),
      ),
      this.scroller,
      this.lineErrorsEl,
    );
  }

  private keyOfRow(row: HTMLElement): string | null {
    const pos = Number(row.dataset.pos);
    const idx = this.filtered[pos];
    return idx === undefined ? null : ((this.summaries[idx] as RecordSummary).key ?? null);
  }

  setFilters(f: Filters): void {
    this.filters = f;
    this.refilter();
    this.opts.onFiltersChange(f);
  }

  setAnalysing(analysing: boolean): void {
    this.analysing = analysing;
    this.updateCount();
  }

  /** Replaces everything (init, reset). */
  setData(summaries: RecordSummary[], lineErrors: LineErrorView[]): void {
    this.summaries = [];
    this.filtered = [];
    this.keyIndex.clear();
    this.lineErrors = [];
    this.lineErrorKeys.clear();
    this.kinds.clear();
    this.append(summaries, lineErrors);
    this.refilter();
  }

  /**
   * More rows: appended, or replacing rows with the same key (the host re-analysed a growing entry, a what-if
   * answered). A replaced row is filtered again alone and redrawn only when on screen: a findings message per few
   * milliseconds must not rebuild a 50k-row list while the user scrolls it.
   */
  append(summaries: RecordSummary[], lineErrors: LineErrorView[]): void {
    let refilter = false;
    let newKinds = false;
    const added: number[] = [];
    const changed: number[] = [];
    const needle = this.filters.text.trim().toLowerCase();
    for (const s of summaries) {
      for (const k of Object.keys(s.kinds)) {
        if (!this.kinds.has(k)) {
          this.kinds.add(k);
          newKinds = true;
        }
      }
      const at = this.keyIndex.get(s.key);
      if (at !== undefined) {
        const before = matchesFilters(this.summaries[at] as RecordSummary, this.filters, needle);
        this.summaries[at] = s;
        // Still in (or still out of) the filtered rows: its place is the same; else the positions shift.
        if (before !== matchesFilters(s, this.filters, needle)) refilter = true;
        else if (before) changed.push(at);
      } else {
        this.keyIndex.set(s.key, this.summaries.length);
        added.push(this.summaries.length);
        this.summaries.push(s);
      }
    }
    for (const e of lineErrors) {
      const k = `${e.file ?? ''}\n${e.line}`;
      if (this.lineErrorKeys.has(k)) continue;
      this.lineErrorKeys.add(k);
      this.lineErrors.push(e);
    }
    if (newKinds) this.rebuildKindOptions();
    if (refilter) this.refilter();
    else {
      for (const i of added) if (matchesFilters(this.summaries[i] as RecordSummary, this.filters, needle)) this.filtered.push(i);
      if (added.length) this.afterFilter(false);
      if (changed.length) this.redrawRows(changed);
    }
    if (lineErrors.length) this.renderLineErrors();
  }

  get size(): number {
    return this.summaries.length;
  }

  has(key: string): boolean {
    return this.keyIndex.has(key);
  }

  summary(key: string): RecordSummary | null {
    const i = this.keyIndex.get(key);
    return i === undefined ? null : (this.summaries[i] ?? null);
  }

  /** The key of the last record with this id (replays are appended: the newest wins). */
  keyOfId(id: string): string | null {
    for (let i = this.summaries.length - 1; i >= 0; i--)
      if ((this.summaries[i] as RecordSummary).id === id) return (this.summaries[i] as RecordSummary).key;
    return null;
  }

  firstVisibleKey(): string | null {
    const i = this.filtered[0];
    return i === undefined ? null : (this.summaries[i] as RecordSummary).key;
  }

  setSelected(key: string | null, reveal: boolean): void {
    this.selectedKey = key;
    if (reveal && key !== null) this.reveal(key);
    this.render(true);
  }

  focus(): void {
    this.scroller.focus({ preventScroll: true });
  }

  private rebuildKindOptions(): void {
    const current = this.filters.kind;
    const kinds = [...this.kinds];
    if (current && !kinds.includes(current)) kinds.push(current);
    kinds.sort((a, b) => (kindInfo(a)?.code ?? a).localeCompare(kindInfo(b)?.code ?? b));
    replace(
      this.kindSelect,
      h('vscode-option', { value: '' }, 'Any diagnostic'),
      kinds.map((k) => h('vscode-option', { value: k }, `${kindInfo(k)?.code ?? '?'} ${k}`)),
    );
    this.kindSelect.value = current;
  }

  private refilter(): void {
    const needle = this.filters.text.trim().toLowerCase();
    this.filtered = [];
    this.summaries.forEach((s, i) => {
      if (matchesFilters(s, this.filters, needle)) this.filtered.push(i);
    });
    this.rendered.forEach((row) => row.remove());
    this.rendered.clear();
    this.afterFilter();
  }

  private measureRows(): void {
    const size = parseFloat(getComputedStyle(this.scroller).fontSize);
    if (Number.isFinite(size) && size > 0) this.rowHeight = Math.max(BASE_ROW_HEIGHT, Math.round(size * 2.6 + 8));
  }

  /** The rows of these summaries drawn again where they are on screen (their content changed, not their place). */
  private redrawRows(indices: number[]): void {
    const wanted = new Set(indices);
    for (const [pos, row] of this.rendered) {
      const idx = this.filtered[pos];
      if (idx === undefined || !wanted.has(idx)) continue;
      const fresh = this.row(this.summaries[idx] as RecordSummary, pos);
      row.replaceWith(fresh);
      this.rendered.set(pos, fresh);
    }
  }

  /** `redraw`: every row on screen is drawn again (filters, selection); rows only added keep the ones drawn. */
  private afterFilter(redraw = true): void {
    // Measured when the rows are drawn anew, not per batch of rows added: reading the computed style forces a style
    // pass, one per host message while the user scrolls.
    if (redraw) this.measureRows();
    this.spacer.style.height = `${this.filtered.length * this.rowHeight}px`;
    this.updateCount();
    if (!redraw) for (const row of this.rendered.values()) row.setAttribute('aria-setsize', String(this.filtered.length));
    this.render(redraw);
    if (this.opts.scrollTop && this.scroller.scrollTop === 0 && this.filtered.length * this.rowHeight > this.opts.scrollTop) {
      this.scroller.scrollTop = this.opts.scrollTop;
      this.opts.scrollTop = 0;
    }
  }

  private updateCount(): void {
    const total = this.summaries.length;
    const shown = this.filtered.length;
    let text = shown === total ? `${total} record${total === 1 ? '' : 's'}` : `${shown} of ${total} records`;
    if (this.analysing) text += ' · analysing…';
    this.countEl.textContent = text;
    this.spacer.dataset.empty =
      total === 0 ? (this.analysing ? 'Analysing…' : 'No records in this trace') : shown === 0 ? 'No records match the filters' : '';
  }

  private renderLineErrors(): void {
    const n = this.lineErrors.length;
    this.lineErrorsEl.hidden = n === 0;
    this.lineErrorsEl.setAttribute('description', `${n}`);
    const shown = this.lineErrors.slice(0, MAX_LINE_ERRORS_SHOWN);
    replace(
      this.lineErrorsBody,
      shown.map((e) =>
        h(
          'li',
          { class: 'line-error', title: clip(e.message, 2000) },
          severityIcon('error'),
          h('span', { class: 'line-error-where' }, e.file ? `${clip(e.file, 80)}:${e.line}` : `line ${e.line}`),
          h('span', { class: 'line-error-message' }, clip(e.message.replace(/^line \d+:\s*/, ''), 300)),
        ),
      ),
      n > shown.length ? h('li', { class: 'line-error more' }, `… and ${n - shown.length} more`) : null,
    );
    if (n > 0 && !this.lineErrorsEl.hasAttribute('data-touched')) {
      this.lineErrorsEl.setAttribute('data-touched', '');
      this.lineErrorsEl.open = n <= 20;
    }
  }

  private scheduleRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(false);
      this.opts.onScroll(this.scroller.scrollTop);
    });
  }

  private reveal(key: string): void {
    const idx = this.keyIndex.get(key);
    if (idx === undefined) return;
    const pos = this.filtered.indexOf(idx);
    if (pos === -1) return;
    const top = pos * this.rowHeight;
    const view = this.scroller.clientHeight || this.rowHeight * 10;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + this.rowHeight > this.scroller.scrollTop + view) this.scroller.scrollTop = top + this.rowHeight - view;
  }

  private render(force: boolean): void {
    const view = this.scroller.clientHeight || this.rowHeight * 20;
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / this.rowHeight) - OVERSCAN);
    const last = Math.min(this.filtered.length - 1, Math.ceil((this.scroller.scrollTop + view) / this.rowHeight) + OVERSCAN);
    for (const [pos, row] of this.rendered) {
      if (pos < first || pos > last || force) {
        row.remove();
        this.rendered.delete(pos);
      }
    }
    for (let pos = first; pos <= last; pos++) {
      if (this.rendered.has(pos)) continue;
      const s = this.summaries[this.filtered[pos] as number] as RecordSummary;
      const row = this.row(s, pos);
      this.rendered.set(pos, row);
      this.spacer.appendChild(row);
    }
    const selectedPos = this.selectedPos();
    if (selectedPos !== -1 && this.rendered.has(selectedPos)) this.scroller.setAttribute('aria-activedescendant', `rec-opt-${selectedPos}`);
    else this.scroller.removeAttribute('aria-activedescendant');
    this.tellInView(Math.floor(this.scroller.scrollTop / this.rowHeight), Math.ceil((this.scroller.scrollTop + view) / this.rowHeight));
  }

  /** Tells which rows are in view once scrolling pauses (a message per frame would queue behind the host's work). */
  private tellInView(first: number, last: number): void {
    if (!this.opts.onRowsInView) return;
    const from = Math.max(0, first);
    const to = Math.min(this.filtered.length - 1, last);
    const span = `${from}:${to}:${this.filtered.length > to ? this.filtered[to] : -1}`;
    if (span === this.toldInView) return;
    this.toldInView = span;
    clearTimeout(this.inViewTimer);
    this.inViewTimer = setTimeout(() => {
      const keys: string[] = [];
      for (let pos = from; pos <= to; pos++) {
        const s = this.summaries[this.filtered[pos] as number];
        if (s?.guidedPending) keys.push(s.key);
      }
      this.opts.onRowsInView?.(keys);
    }, 60);
  }

  private selectedPos(): number {
    if (this.selectedKey === null) return -1;
    const idx = this.keyIndex.get(this.selectedKey);
    return idx === undefined ? -1 : this.filtered.indexOf(idx);
  }

  private row(s: RecordSummary, pos: number): HTMLElement {
    const selected = s.key === this.selectedKey;
    const badges = Object.entries(s.kinds)
      .map(([kind, count]) => ({ kind, count: count ?? 0, info: kindInfo(kind) }))
      .sort((a, b) => (a.info?.code ?? '').localeCompare(b.info?.code ?? ''));
    const row = h(
      'div',
      {
        class: `rec-row${selected ? ' selected' : ''}${s.failed ? ' failed' : ''}`,
        role: 'option',
        id: `rec-opt-${pos}`,
        'aria-selected': selected ? 'true' : 'false',
        'aria-posinset': pos + 1,
        'aria-setsize': this.filtered.length,
        'data-pos': pos,
        title: clip(
          `${s.id}${s.model ? ` · ${s.model}` : ''} · line ${s.line}${s.file ? ` · ${s.file}` : ''}${s.failed ? `\nfailed: ${s.failed}` : ''}${s.preview ? `\n${s.preview}` : ''}`,
          600,
        ),
      },
      h(
        'div',
        { class: 'rec-line1' },
        severityIcon(s.worst),
        h('span', { class: 'rec-id' }, clip(s.id, 160)),
        s.failed ? h('span', { class: 'rec-failed', title: clip(s.failed, 400) }, 'failed') : null,
        h(
          'span',
          { class: 'rec-calls', title: `${s.calls} tool call${s.calls === 1 ? '' : 's'}` },
          `${s.calls} call${s.calls === 1 ? '' : 's'}`,
        ),
      ),
      h(
        'div',
        { class: 'rec-line2' },
        h('span', { class: 'rec-model' }, clip(s.model ?? s.source, 60)),
        h('span', { class: 'rec-file' }, s.file ? `${clip(s.file, 60)}:${s.line}` : `line ${s.line}`),
        h(
          'span',
          { class: 'rec-badges' },
          s.guidedPending
            ? h('span', { class: 'guided-pending muted', title: 'guided-decoding checks still running: more findings may come' }, '…')
            : null,
          badges.map((b) =>
            h(
              'span',
              { class: `kind-badge sev-${b.info?.severity ?? 'info'}`, title: `${b.info?.title ?? b.kind} (${b.kind}) × ${b.count}` },
              `${b.info?.code ?? b.kind}${b.count > 1 ? `×${b.count}` : ''}`,
            ),
          ),
        ),
      ),
    );
    row.style.transform = `translateY(${pos * this.rowHeight}px)`;
    row.style.height = `${this.rowHeight}px`;
    return row;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const n = this.filtered.length;
    if (n === 0) return;
    const cur = this.selectedPos();
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / this.rowHeight) - 1);
    let next: number;
    switch (e.key) {
      case 'ArrowDown':
        next = cur === -1 ? 0 : Math.min(n - 1, cur + 1);
        break;
      case 'ArrowUp':
        next = cur === -1 ? 0 : Math.max(0, cur - 1);
        break;
      case 'PageDown':
        next = cur === -1 ? 0 : Math.min(n - 1, cur + page);
        break;
      case 'PageUp':
        next = cur === -1 ? 0 : Math.max(0, cur - page);
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = n - 1;
        break;
      case 'Enter':
      case ' ': {
        e.preventDefault();
        e.stopPropagation();
        const key = this.selectedKey ?? this.firstVisibleKey();
        if (key !== null) this.opts.onSelect(key, 'enter');
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
    const s = this.summaries[this.filtered[next] as number] as RecordSummary;
    this.setSelected(s.key, true);
    this.opts.onSelect(s.key, 'keyboard');
  }
}
