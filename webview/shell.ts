/**
 * The trace editor's shell: the top bar, the layout (record list left, the open record in the centre, the inspector
 * right, splitters, side panels that float when narrow), the host connection (the trace, its rows, its events), the
 * records read from the host, and the page's keys. The open record, its tabs, stepping and inspector are the record
 * controller's (recordController.ts): the shell hands it records and stepping actions, and names none of its parts.
 * It talks to its host only through the connection, and keeps its UI state in the store.
 */
// The stylesheets join dist/webview.css in the order their modules are first imported: the page's own, then the
// shared widgets', then each panel's (test/architecture/webviewStylesheets.test.ts keeps that order).
import './shell.css';
import './widgets.ts';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import type { GuidedFindings, HostEvent, RecordView, ReplyFor, TraceInfo } from '../src/shared/protocol.ts';
import { withGuidedFindings } from '../src/shared/guidedFindings.ts';
import { clip, h, isButtonLike, isFormControl, replace } from './dom.ts';
import { adoptDiagnosticKinds } from './diagnosticKinds.ts';
import type { HostConnection } from './hostConnection.ts';
import { unglyph } from './layout.ts';
import { splitter } from './panels.ts';
import { PanelModes, type SidePanel } from './panelModes.ts';
import { RecordList, type SelectHow } from './recordList.ts';
import { RecordController } from './recordController.ts';
import { overlayOpen, showHelp } from './helpOverlay.ts';
import { StateStore } from './stateStore.ts';
import { actionForKey } from './stepping.ts';

const VIEW_CACHE = 6;
const KEYBOARD_OPEN_DELAY = 120;

type ToolbarButton = HTMLElement & { checked: boolean };

/** The `ready` request on its way, and the host events that came before the shell took them. */
export interface HostAsked {
  reply: Promise<ReplyFor<{ type: 'ready' }>>;
  events: HostEvent[];
}

export class Shell {
  private readonly store: StateStore;
  private readonly list: RecordList;
  private readonly panelModes: PanelModes;
  private readonly toggles: Record<SidePanel, ToolbarButton>;
  private readonly record: RecordController;
  private readonly statusEl = h('span', { class: 'status', 'aria-live': 'polite' });
  private readonly titleEl = h('span', { class: 'file-name' });
  private readonly messageEl = h('span', { class: 'message', role: 'status' });
  private readonly mainEl: HTMLElement;
  private info: TraceInfo | null = null;
  private readonly cache = new Map<string, RecordView>();
  private pendingKey: string | null = null;
  private fetchSeq = 0;
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private initialised = false;
  /** Host events that came before the first reply was applied. */
  private queued: HostEvent[] = [];
  private firstPaint = false;
  private pendingReveal: { recordId: string; tab: string } | null = null;
  private messageTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly connection: HostConnection,
  ) {
    this.store = new StateStore(connection);
    const st = this.store.state;

    this.list = new RecordList({
      filters: st.filters,
      scrollTop: st.listScrollTop,
      onFiltersChange: (filters) => this.store.update((s) => (s.filters = filters)),
      onSelect: (key, how) => this.select(key, how),
      onScroll: (top) => this.store.update((s) => (s.listScrollTop = top)),
      onRowsInView: (keys) => void this.connection.request({ type: 'inView', keys }),
      onMoving: () => void this.connection.request({ type: 'listMoving' }),
    });
    // After the first frame (its record, when the page brought one, painted in it): laterControls.ts says why they wait.
    requestAnimationFrame(() => setTimeout(() => this.list.laterFilters.attach(), 0));
    this.record = new RecordController(this.store, connection, {
      flash: (message) => this.flash(message),
      keyOfId: (recordId) => this.list.keyOfId(recordId),
      summary: (key) => this.list.summary(key),
      enterRecord: (key) => this.select(key, 'enter'),
    });

    const toggleList = h(
      'vscode-toolbar-button',
      { toggleable: true, label: 'Show the record list', title: 'Record list', class: 'toggle-list' },
      '☰ Records',
    ) as ToolbarButton;
    toggleList.addEventListener('change', () => this.showPanel('list', toggleList.checked));
    const toggleInspector = h(
      'vscode-toolbar-button',
      { toggleable: true, label: 'Show the inspector', title: 'Inspector', class: 'toggle-inspector' },
      'Inspector ☰',
    ) as ToolbarButton;
    toggleInspector.addEventListener('change', () => this.showPanel('inspector', toggleInspector.checked));
    this.toggles = { list: toggleList, inspector: toggleInspector };

    this.mainEl = h(
      'div',
      { class: 'layout' },
      this.list.el,
      splitter({
        label: 'Resize the record list',
        side: 'left',
        min: 160,
        max: 900,
        get: () => this.store.state.listWidth,
        set: (w) => this.mainEl?.style.setProperty('--list-w', `${w}px`),
        commit: (w) => this.store.update((s) => (s.listWidth = w)),
      }),
      this.record.centreEl,
      splitter({
        label: 'Resize the inspector',
        side: 'right',
        min: 220,
        max: 1000,
        get: () => this.store.state.inspectorWidth,
        set: (w) => this.mainEl?.style.setProperty('--insp-w', `${w}px`),
        commit: (w) => this.store.update((s) => (s.inspectorWidth = w)),
      }),
      this.record.inspectorEl,
    );
    this.mainEl.style.setProperty('--list-w', `${st.listWidth}px`);
    this.mainEl.style.setProperty('--insp-w', `${st.inspectorWidth}px`);
    this.mainEl.classList.toggle('list-collapsed', st.listCollapsed);
    this.mainEl.classList.toggle('inspector-collapsed', st.inspectorCollapsed);
    this.panelModes = new PanelModes(this.mainEl, {
      collapsed: (p) => (p === 'list' ? this.store.state.listCollapsed : this.store.state.inspectorCollapsed),
      setCollapsed: (p, c) => this.setCollapsed(p, c),
      onChange: () => this.syncToggles(),
    });
    this.syncToggles();

    replace(
      root,
      h(
        'header',
        { class: 'topbar' },
        toggleList,
        h('span', { class: 'brand' }, 'Toolscope'),
        this.titleEl,
        this.statusEl,
        this.messageEl,
        h('span', { class: 'spacer' }),
        toggleInspector,
        this.helpButton(),
      ),
      this.mainEl,
      this.record.announcerEl,
    );
    this.record.showSavedTab();
    this.record.showMessage('Loading the trace…');
    document.addEventListener('keydown', (e) => this.onKey(e));
    // After the timeline's own handler: text copied from the inspector gets its real whitespace back.
    document.addEventListener('copy', (e) => copyRealWhitespace(e));
  }

  private helpButton(): HTMLElement {
    const b = h('vscode-toolbar-button', { label: 'Keyboard help (?)', title: 'Keyboard help (?)', class: 'help-button' }, '?');
    b.addEventListener('click', () => showHelp());
    return b;
  }

  /** Shows or hides a side panel: collapses it when wide, opens it over the centre when narrow (panelModes.ts). */
  private showPanel(panel: SidePanel, shown: boolean): void {
    this.panelModes.show(panel, shown);
    if (shown && this.panelModes.overlay(panel)) {
      const target =
        panel === 'list'
          ? this.list.el.querySelector<HTMLElement>('[tabindex="0"], input')
          : this.record.inspectorEl.querySelector<HTMLElement>('summary, button');
      target?.focus();
    }
    if (panel === 'inspector') this.record.relayout();
  }

  private syncToggles(): void {
    for (const p of ['list', 'inspector'] as const) {
      const t = this.toggles[p];
      t.checked = this.panelModes.shown(p);
      t.setAttribute('aria-expanded', String(t.checked));
    }
    this.record.relayout();
  }

  private setCollapsed(panel: 'list' | 'inspector', collapsed: boolean): void {
    this.mainEl.classList.toggle(`${panel}-collapsed`, collapsed);
    this.store.update((s) => {
      if (panel === 'list') s.listCollapsed = collapsed;
      else s.inspectorCollapsed = collapsed;
    });
  }

  // ---- host ----------------------------------------------------------------------------------------------

  /**
   * Asks the host for the trace, keeping the events that come before the shell takes them. Called before the shell
   * is built (main.ts): the host reads the trace while the page builds its DOM.
   */
  static askHost(connection: HostConnection): HostAsked {
    const events: HostEvent[] = [];
    connection.onEvent = (e) => events.push(e);
    performance.mark('toolscope:ready-asked');
    return { reply: connection.request({ type: 'ready' }), events };
  }

  async start(asked: HostAsked = Shell.askHost(this.connection)): Promise<void> {
    this.queued = asked.events;
    this.connection.onEvent = (e) => (this.initialised ? this.onEvent(e) : this.queued.push(e));
    // The first rows and record came with the page: drawn now, before the host answers.
    const initial = this.connection.initial;
    if (initial) {
      if (initial.record) this.cache.set(initial.record.key, initial.record);
      if (initial.reveal) this.pendingReveal = { ...initial.reveal };
      this.init(initial.init);
    }
    const reply = await asked.reply;
    performance.mark('toolscope:init-received');
    if (reply.type === 'error') {
      if (initial) this.flash(`The trace could not be read again: ${reply.message}`);
      else this.record.showMessage(`The trace could not be opened: ${reply.message}`);
      return;
    }
    if (!initial) {
      this.init(reply);
      return;
    }
    // The list as it is now: the rows since the page was written, and newer versions of the rows it had.
    this.setInfo(reply.info);
    this.list.append(reply.summaries, reply.lineErrors);
    this.applyPending();
  }

  /** The list's first state: drawn, the events that came before it applied, the selection restored. */
  private init(reply: ReplyFor<{ type: 'ready' }> & { type: 'init' }): void {
    this.setInfo(reply.info);
    this.list.setData(reply.summaries, reply.lineErrors);
    performance.mark('toolscope:list-painted');
    this.initialised = true;
    for (const e of this.queued.splice(0)) this.onEvent(e);
    // A record the host asked to reveal wins over the saved selection (its row may come later: applyPending).
    if (!this.applyReveal()) this.restoreSelection();
  }

  private restoreSelection(): void {
    const saved = this.store.state.selectedKey;
    if (saved !== null && this.list.has(saved)) {
      this.select(saved, 'restore');
      return;
    }
    if (saved !== null && this.info?.analysing) {
      // It may still come.
      this.pendingKey = saved;
      this.record.showMessage('Waiting for the record to be analysed…');
      return;
    }
    const first = this.list.firstVisibleKey();
    if (first !== null) this.select(first, 'restore');
    else
      this.record.showMessage(
        this.list.size ? 'No record matches the filters.' : this.info?.analysing ? 'Analysing the trace…' : 'This trace has no records.',
      );
  }

  private onEvent(e: HostEvent): void {
    if (e.type === 'reveal') {
      this.pendingReveal = { recordId: e.recordId, tab: e.tab };
      this.applyReveal();
      return;
    }
    if (e.type === 'step') {
      if (this.record.key === null || overlayOpen()) return;
      this.record.perform(e.action);
      return;
    }
    if (e.type === 'guidedFindings') {
      this.applyGuidedFindings(e.findings);
      return;
    }
    if (e.type === 'reset') {
      this.setInfo(e.info);
      this.list.setData([], []);
      this.cache.clear();
      this.pendingKey = this.store.state.selectedKey;
      this.record.show(null);
      this.record.showMessage(
        e.reason === 'format'
          ? 'The format changed: analysing again…'
          : e.reason === 'vllmProfile'
            ? 'The vLLM profile changed: analysing again…'
            : e.reason === 'tokenizer'
              ? 'The tokenizer setting changed: analysing again…'
              : 'The file changed: reading it again…',
      );
      return;
    }
    this.setInfo(e.info);
    // Views of re-analysed records are stale; the one on screen (a stream still being written) is read again.
    for (const s of e.summaries) this.cache.delete(s.key);
    const shown = this.record.key;
    if (shown !== null && e.summaries.some((s) => s.key === shown)) void this.open(shown, 'click');
    this.list.append(e.summaries, e.lineErrors);
    if (e.findings?.length) this.applyGuidedFindings(e.findings);
    this.applyPending();
  }

  /** Rows came: a reveal, or a selection waiting for its record, is applied once the record is listed. */
  private applyPending(): void {
    if (this.applyReveal()) {
      // A revealed record wins over a restored selection.
    } else if (this.pendingKey !== null && this.list.has(this.pendingKey)) {
      const key = this.pendingKey;
      this.pendingKey = null;
      this.select(key, 'restore');
    } else if (this.pendingKey !== null && !this.info?.analysing) {
      this.pendingKey = null;
      this.restoreSelectionFallback();
    } else if (this.record.key === null && this.pendingKey === null && this.store.state.selectedKey === null) {
      this.restoreSelectionFallback();
    }
    this.updateStatus();
  }

  /** The what-if answered for records sent without its findings: their rows, kept views and the one shown. */
  private applyGuidedFindings(findings: GuidedFindings[]): void {
    const rows = findings.filter((f) => this.list.has(f.key)).map((f) => f.summary);
    if (rows.length) this.list.append(rows, []);
    for (const f of findings) {
      const kept = this.cache.get(f.key);
      if (kept?.guidedPending) this.cache.set(f.key, withGuidedFindings(kept, f));
      this.record.addGuidedFindings(f);
    }
  }

  private restoreSelectionFallback(): void {
    const first = this.list.firstVisibleKey();
    if (first !== null) this.select(first, 'restore');
  }

  private setInfo(info: TraceInfo): void {
    const before = this.info;
    adoptDiagnosticKinds(info.diagnosticKinds);
    this.info = info;
    this.record.setInfo(info, !this.initialised && this.store.state.selectedKey === null);
    // Written when it changed: every batch of rows brings the trace's info again, and a text written lays out the page.
    if (before?.fileName !== info.fileName) {
      replace(this.titleEl, clip(info.fileName, 200));
      this.titleEl.title = info.fileName.length > 200 ? clip(info.fileName, 2000) : info.fileName;
      document.title = `Toolscope — ${clip(info.fileName, 200)}`;
    }
    this.list.setAnalysing(info.analysing);
    // The moment the page has every row and every what-if's findings (the workbench e2e reads it: polled for, the
    // test's own steps meanwhile would count).
    if (before?.analysing && !info.analysing && performance.getEntriesByName('toolscope:analysed').length === 0)
      performance.mark('toolscope:analysed');
    this.updateStatus();
  }

  private updateStatus(): void {
    const info = this.info;
    if (!info) return;
    const host = info.host === 'vscode' ? '' : info.host === 'report' ? ' · report' : ' · harness';
    const format = info.format ? ` · format: ${clip(info.format, 40)}` : '';
    // Lines, not records: a line may be unreadable, and an SSE dump groups many lines into one record.
    const text = `${info.entries} line${info.entries === 1 ? '' : 's'}${info.analysing ? ' · analysing…' : ''}${format}${host}`;
    if (this.statusEl.textContent !== text) this.statusEl.textContent = text;
  }

  // ---- records -------------------------------------------------------------------------------------------

  /** Selects the record a `reveal` asked for once it is listed; true when it did. */
  private applyReveal(): boolean {
    const r = this.pendingReveal;
    if (!r) return false;
    const key = this.list.keyOfId(r.recordId);
    if (key === null) return false;
    this.pendingReveal = null;
    this.record.revealOnNextRecord(r.tab);
    this.select(key, 'restore');
    return true;
  }

  private select(key: string, how: SelectHow): void {
    const same = this.store.state.selectedKey === key && this.record.key === key;
    this.pendingKey = null;
    this.store.update((s) => (s.selectedKey = key));
    clearTimeout(this.openTimer);
    // The record is asked for first: the host reads it while the list draws its selection.
    if (!same) {
      if (how === 'keyboard') this.openTimer = setTimeout(() => void this.open(key, how), KEYBOARD_OPEN_DELAY);
      else void this.open(key, how);
    }
    this.list.setSelected(key, how !== 'click');
    if (same && how === 'enter') this.record.focus();
  }

  private async open(key: string, how: SelectHow): Promise<void> {
    const seq = ++this.fetchSeq;
    let view = this.cache.get(key) ?? null;
    if (!view) {
      const s = this.list.summary(key);
      this.record.showMessage(`Loading ${s ? clip(s.id, 80) : 'the record'}…`);
      if (!this.firstPaint) performance.mark('toolscope:record-asked');
      const reply = await this.connection.request({ type: 'getRecord', key });
      if (!this.firstPaint) performance.mark('toolscope:record-received');
      if (seq !== this.fetchSeq) return;
      if (reply.type === 'error') {
        this.record.show(null);
        this.record.showMessage(`The record could not be read: ${reply.message}`);
        return;
      }
      view = reply.view;
      this.cache.set(key, view);
      if (this.cache.size > VIEW_CACHE) this.cache.delete(this.cache.keys().next().value as string);
    }
    this.record.show(view);
    // Narrow: the list floats over the record; picking one (click or Enter) shows it.
    if ((how === 'click' || how === 'enter') && this.mainEl.classList.contains('list-open')) this.panelModes.closeOverlay();
    if (how === 'enter') this.record.focus();
    else if (how === 'restore' && (document.activeElement === document.body || document.activeElement === null)) this.record.focus();
    if (!this.firstPaint) {
      this.firstPaint = true;
      requestAnimationFrame(() => {
        performance.mark('toolscope:record-painted');
        // The host held work back for this paint (its grammar engines): it may start now.
        void this.connection.request({ type: 'painted' });
      });
    }
  }

  private flash(message: string): void {
    replace(this.messageEl, message);
    clearTimeout(this.messageTimer);
    this.messageTimer = setTimeout(() => (this.messageEl.textContent = ''), 2500);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape' && !e.defaultPrevented && !overlayOpen()) {
      const closed = this.panelModes.closeOverlay();
      if (closed) {
        e.preventDefault();
        this.toggles[closed].focus();
        return;
      }
    }
    if (e.defaultPrevented || overlayOpen() || isFormControl(e.target)) return;
    const action = actionForKey(e);
    if (!action) return;
    if (action === 'help') {
      e.preventDefault();
      e.stopPropagation();
      showHelp();
      return;
    }
    if ((e.key === ' ' || e.key === 'Enter') && isButtonLike(e.target)) return;
    // Scrollable documents (request, response) keep their scrolling keys.
    if (e.target instanceof Element && e.target.closest('.doc-view') && /^(Arrow|Home|End| )/.test(e.key === ' ' ? ' ' : e.key)) return;
    if (this.record.key === null) return;
    e.preventDefault();
    e.stopPropagation();
    this.record.perform(action);
  }
}

function copyRealWhitespace(e: ClipboardEvent): void {
  const sel = document.getSelection();
  if (e.defaultPrevented || !e.clipboardData || !sel || sel.isCollapsed || sel.rangeCount === 0) return;
  const fragment = sel.getRangeAt(0).cloneContents();
  const glyphs = fragment.querySelectorAll('.ws');
  if (glyphs.length === 0) return;
  for (const g of glyphs) g.textContent = unglyph(g.textContent ?? '');
  e.clipboardData.setData('text/plain', fragment.textContent ?? '');
  e.preventDefault();
}
