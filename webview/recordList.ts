/**
 * The record list: filters, a virtualised listbox of records (10k+ rows stay cheap: only the rows in view
 * exist), and the lines that could not be read. Rows arrive in batches while the host analyses the file.
 */
import './recordList.css';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import type { Severity } from '../src/shared/diagnostic.ts';
import type { LineErrorView, RecordSummary } from '../src/shared/protocol.ts';
import { clip, h, replace } from './dom.ts';
import { LaterControls } from './laterControls.ts';
import { ListMotion } from './listMotion.ts';
import { RecordRow } from './recordRow.ts';
import { kindInfo, severityIcon } from './widgets.ts';
import type { Filters, SeverityFilter } from './state.ts';

/** Row height at the default 13px font; rows grow with VS Code's font size. */
const BASE_ROW_HEIGHT = 42;
const OVERSCAN = 8;
const MAX_LINE_ERRORS_SHOWN = 500;
/** How often the count is written while the host analyses, ms. */
const COUNT_INTERVAL = 250;

export type SelectHow = 'click' | 'keyboard' | 'enter' | 'restore';

export interface RecordListOptions {
  filters: Filters;
  scrollTop: number;
  onFiltersChange(filters: Filters): void;
  onSelect(key: string, how: SelectHow): void;
  onScroll(scrollTop: number): void;
  /** The keys of the rows in view changed (scrolled, filtered, more rows): their what-ifs should go first. */
  onRowsInView?(keys: string[]): void;
  /**
   * The list started moving (onRowsInView follows once it rests): the host holds its rows and findings meanwhile, as
   * each message costs the page's frames (and a browser workbench's, which relays it: ~3.6 ms a message in the e2e's
   * trace, 186 messages in a 300-frame fling).
   */
  onMoving?(): void;
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

/**
 * Rows drawn beyond each edge of the view after the list moved `jump` rows since the last frame: the overscan while
 * it moves less than that per frame (the rows about to scroll in are ready), none while it moves more (a fling: the
 * next frame shows rows the overscan never held).
 */
export function overscanFor(jump: number): number {
  return Math.abs(jump) > OVERSCAN ? 0 : OVERSCAN;
}

export class RecordList {
  readonly el: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly spacer: HTMLElement;
  /** The count's text, in a box of set size inside `.list-count` (recordList.css: a new count lays out that box alone). */
  private readonly countEl: HTMLElement;
  private readonly lineErrorsEl: HTMLElement & { open?: boolean; description?: string };
  private readonly lineErrorsBody: HTMLElement;
  private readonly kindSelect: Select;
  /** The filter controls, which come into the page once its first frame is painted (the shell attaches them then). */
  readonly laterFilters = new LaterControls();
  private summaries: RecordSummary[] = [];
  private readonly keyIndex = new Map<string, number>();
  private lineErrors: LineErrorView[] = [];
  private readonly lineErrorKeys = new Set<string>();
  private readonly kinds = new Set<string>();
  /** Indices into `summaries` that pass the filters, in order. */
  private filtered: number[] = [];
  private selectedKey: string | null = null;
  /** The rows in the page by position, and rows out of view kept to be filled again. */
  private readonly rendered = new Map<number, RecordRow>();
  private readonly spare: RecordRow[] = [];
  /** The scroller's height, from its ResizeObserver: read in a loop it would force a layout per frame. */
  private viewHeight = 0;
  /** Rows came from the host since the last frame: the spacer and the count are written in the next frame. */
  private grown = false;
  /** When the count was last written, and the timer that writes the last one (updateCount). */
  private countAt = -Infinity;
  private countTimer: ReturnType<typeof setTimeout> | undefined;
  private filters: Filters;
  private analysing = false;
  private frame = 0;
  private rowHeight = BASE_ROW_HEIGHT;
  /** What the host is told of the list's motion: that it moves, and the rows in view once it rests. */
  private readonly motion: ListMotion;
  /** The first row in view at the last render: how far the list jumped since (a fling draws no overscan). */
  private lastFirstInView = -1;
  /** The overscan of the last render, and whether the list is flung (recordList.css: its rows take no pointer). */
  private lastOverscan = OVERSCAN;
  private flung = false;

  constructor(private readonly opts: RecordListOptions) {
    this.filters = { ...opts.filters };
    this.motion = new ListMotion({
      onMoving: opts.onMoving,
      onRest: (from, to) => this.rowsInView(from, to),
      framePending: () => this.frame !== 0,
    });
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

    this.countEl = h('span', { class: 'list-count-text' });
    this.spacer = h('div', { class: 'list-spacer' });
    this.scroller = h('div', { class: 'list-scroller', role: 'listbox', tabindex: 0, 'aria-label': 'Records' }, this.spacer);
    this.scroller.addEventListener('scroll', () => this.scheduleRender());
    this.scroller.addEventListener('keydown', (e) => this.onKey(e));
    // A row's tooltip is written when the pointer comes to it (RecordRow.showTitle), and again after the row it rests
    // on was refilled (the list scrolled under it).
    const showTitle = (e: Event) => {
      const row = (e.target as Element).closest<HTMLElement>('.rec-row');
      if (row) this.rendered.get(Number(row.dataset.pos))?.showTitle();
    };
    this.scroller.addEventListener('pointerover', showTitle);
    this.scroller.addEventListener('pointermove', showTitle);
    this.scroller.addEventListener('click', (e) => {
      const row = (e.target as Element).closest<HTMLElement>('.rec-row');
      if (!row) return;
      const key = this.keyOfRow(row);
      if (key !== null) {
        this.scroller.focus({ preventScroll: true });
        this.opts.onSelect(key, 'click');
      }
    });
    new ResizeObserver((entries) => {
      for (const e of entries) this.viewHeight = e.contentRect.height;
      this.scheduleRender();
    }).observe(this.scroller);

    this.lineErrorsBody = h('ul', { class: 'line-errors-list' });
    this.lineErrorsEl = h('vscode-collapsible', { heading: 'Unreadable lines', class: 'line-errors', hidden: true }, this.lineErrorsBody);

    const later = this.laterFilters;
    this.el = h(
      'section',
      { class: 'list-panel', 'aria-label': 'Records' },
      h(
        'div',
        { class: 'list-filters' },
        later.place(text, 'later-text'),
        h('div', { class: 'filter-row' }, later.place(this.kindSelect, 'later-select'), later.place(severity, 'later-select')),
        h(
          'div',
          { class: 'filter-row' },
          later.place(errorsOnly, 'later-checkbox'),
          h('div', { class: 'list-count', 'aria-live': 'polite' }, this.countEl),
        ),
      ),
      // The scroller is placed in a box of its own, out of the panel's flex layout: a flex item cannot be a layout
      // boundary, an absolutely placed contained box can, so rows and the spacer's growth lay out nothing outside it.
      h('div', { class: 'list-viewport' }, this.scroller),
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
    if (analysing === this.analysing) return;
    this.analysing = analysing;
    this.grown = true;
    this.scheduleRender();
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
   * milliseconds must not rebuild a 50k-row list while the user scrolls it. The data is current at once (the shell
   * asks for keys right after); the page follows in the next animation frame, once for all the messages of a frame.
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
      // Rows on screen whose summary changed are refilled by the frame's render (a row compares its summary); rows
      // changed off screen (most what-ifs answer for rows not in view) need no DOM work at all.
      if (added.length) {
        this.grown = true;
        this.scheduleRender();
      } else if (changed.length && this.drawsAny(changed)) this.scheduleRender();
    }
    if (lineErrors.length) this.renderLineErrors();
  }

  /** Whether a row on the page shows one of these records (indices into `summaries`). */
  private drawsAny(indices: number[]): boolean {
    const of = new Set(indices);
    for (const pos of this.rendered.keys()) if (of.has(this.filtered[pos] as number)) return true;
    return false;
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
    this.render();
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
    this.afterFilter();
  }

  private measureRows(): void {
    const size = parseFloat(getComputedStyle(this.scroller).fontSize);
    if (Number.isFinite(size) && size > 0) this.rowHeight = Math.max(BASE_ROW_HEIGHT, Math.round(size * 2.6 + 8));
  }

  /** The filtered rows changed (filters, a new data set): the rows are measured and drawn now. */
  private afterFilter(): void {
    // Measured when the rows are drawn anew, not per batch of rows added: reading the computed style forces a style
    // pass, one per host message while the user scrolls.
    this.measureRows();
    this.grown = true;
    // The user changed what is shown: the count follows at once.
    this.countAt = -Infinity;
    this.render();
  }

  /**
   * The spacer's height and the count, after rows came or went; the saved scroll position once there is room for
   * it (`top`: where the list is scrolled now). Returns where the list is scrolled after.
   */
  private resize(top: number): number {
    this.grown = false;
    const height = `${this.filtered.length * this.rowHeight}px`;
    if (this.spacer.style.height !== height) this.spacer.style.height = height;
    this.updateCount();
    const saved = this.opts.scrollTop;
    if (saved && this.filtered.length * this.rowHeight > saved) {
      this.opts.scrollTop = 0;
      if (top === 0) {
        this.scroller.scrollTop = saved;
        return this.scroller.scrollTop;
      }
    }
    return top;
  }

  /**
   * The count under the filters. While the host analyses, a few times a second: each change of its text lays out
   * the whole page, and rows come with most frames.
   */
  private updateCount(): void {
    if (this.analysing) {
      const now = performance.now();
      if (now - this.countAt < COUNT_INTERVAL) {
        this.countTimer ??= setTimeout(() => {
          this.countTimer = undefined;
          this.updateCount();
        }, COUNT_INTERVAL);
        return;
      }
      this.countAt = now;
    }
    const total = this.summaries.length;
    const shown = this.filtered.length;
    let text = shown === total ? `${total} record${total === 1 ? '' : 's'}` : `${shown} of ${total} records`;
    if (this.analysing) text += ' · analysing…';
    if (this.countEl.textContent !== text) this.countEl.textContent = text;
    const empty =
      total === 0 ? (this.analysing ? 'Analysing…' : 'No records in this trace') : shown === 0 ? 'No records match the filters' : '';
    if (this.spacer.dataset.empty !== empty) this.spacer.dataset.empty = empty;
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

  /** One render per animation frame, whatever asked for it (scrolling, host messages, a resize). */
  private scheduleRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      // Where render read it: read again after the rows were written, it would force a layout.
      this.opts.onScroll(this.render());
    });
  }

  private reveal(key: string): void {
    const idx = this.keyIndex.get(key);
    if (idx === undefined) return;
    const pos = this.filtered.indexOf(idx);
    if (pos === -1) return;
    const top = pos * this.rowHeight;
    const view = this.viewHeight || this.scroller.clientHeight || this.rowHeight * 10;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + this.rowHeight > this.scroller.scrollTop + view) this.scroller.scrollTop = top + this.rowHeight - view;
  }

  /**
   * The rows in view (and a few around), each filled where it stands: rows that left the view take the records
   * coming into it. The layout is read once, first (scrollTop; the height comes from the ResizeObserver), and only
   * written after, so a frame costs one layout however many rows change.
   */
  private render(): number {
    let top = this.scroller.scrollTop;
    const view = this.viewHeight || this.scroller.clientHeight || this.rowHeight * 20;
    if (this.grown) top = this.resize(top);
    // As many rows in every frame (not one more or less as the rows cross the edges): a row that joins or leaves
    // the page relays out the whole page, a row refilled in place only itself. But a fling that moves the list
    // further than the overscan per frame would lay out and paint the overscan rows (40 % of the rows) for nothing,
    // gone before they could show: only the rows in view are drawn until it slows down (overscanFor).
    const firstInView = Math.floor(top / this.rowHeight);
    const overscan = overscanFor(firstInView - this.lastFirstInView);
    // Flung (two frames in a row further than the overscan): rows take no pointer (else each frame brought one under a
    // resting pointer: hit test, pointer events, hover style, tooltip) and are drawn light (RecordRow) until it slows;
    // the fling's last frame asks for one more, not flung, that draws them in full. A single jump keeps them whole.
    const flung = overscan === 0 && this.lastOverscan === 0;
    if (flung !== this.flung) {
      this.flung = flung;
      this.scroller.classList.toggle('flung', flung);
    }
    this.lastOverscan = overscan;
    if (firstInView !== this.lastFirstInView && this.lastFirstInView !== -1) this.motion.moved();
    this.lastFirstInView = firstInView;
    const rows = Math.ceil(view / this.rowHeight) + 1 + 2 * overscan;
    const first = Math.max(0, Math.min(firstInView - overscan, this.filtered.length - rows));
    const last = Math.min(this.filtered.length - 1, first + rows - 1);
    for (const [pos, row] of this.rendered) {
      if (pos >= first && pos <= last) continue;
      this.rendered.delete(pos);
      this.spare.push(row);
    }
    const selectedPos = this.selectedPos();
    const place = { pos: 0, setSize: this.filtered.length, selected: false, height: this.rowHeight, light: flung };
    for (let pos = first; pos <= last; pos++) {
      let row = this.rendered.get(pos);
      if (!row) {
        row = this.spare.pop() ?? new RecordRow();
        this.rendered.set(pos, row);
        if (!row.el.isConnected) this.spacer.appendChild(row.el);
      }
      place.pos = pos;
      place.selected = pos === selectedPos;
      row.fill(this.summaries[this.filtered[pos] as number] as RecordSummary, place);
    }
    // Rows not needed this frame leave the page (kept for the next ones: a fling needs the same number again).
    for (const row of this.spare) if (row.el.isConnected) row.el.remove();
    if (selectedPos !== -1 && this.rendered.has(selectedPos)) this.scroller.setAttribute('aria-activedescendant', `rec-opt-${selectedPos}`);
    else this.scroller.removeAttribute('aria-activedescendant');
    this.tellInView(Math.floor(top / this.rowHeight), Math.ceil((top + view) / this.rowHeight));
    // Drawn without its overscan (a fling): once more in the next frame, which has it back if the list came to rest.
    if (overscan === 0) this.scheduleRender();
    return top;
  }

  /** Tells the host which rows are in view once the list rests (ListMotion). */
  private tellInView(first: number, last: number): void {
    if (!this.opts.onRowsInView) return;
    const from = Math.max(0, first);
    const to = Math.min(this.filtered.length - 1, last);
    this.motion.inView(from, to, `${from}:${to}:${this.filtered.length > to ? this.filtered[to] : -1}`);
  }

  /** The list rests with these positions in view: the host is told those whose what-if is still to come. */
  private rowsInView(from: number, to: number): void {
    const keys: string[] = [];
    for (let pos = from; pos <= to; pos++) {
      const s = this.summaries[this.filtered[pos] as number];
      if (s?.guidedPending) keys.push(s.key);
    }
    this.opts.onRowsInView?.(keys);
  }

  private selectedPos(): number {
    if (this.selectedKey === null) return -1;
    const idx = this.keyIndex.get(this.selectedKey);
    return idx === undefined ? -1 : this.filtered.indexOf(idx);
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
