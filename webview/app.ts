/**
 * The trace editor: record list (left), the selected record's timeline, response and request (centre), the
 * inspector (right). It talks to its host only through the connection, and keeps its UI state in the store.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import type { GuidedFindings, HostEvent, RecordView, TraceInfo } from '../src/shared/protocol.ts';
import { withGuidedFindings } from '../src/shared/guidedFindings.ts';
import { clip, h, isButtonLike, isFormControl, replace, type Child } from './dom.ts';
import { overlayOpen, showHelp } from './helpOverlay.ts';
import type { HostConnection } from './hostConnection.ts';
import { Inspector } from './inspector.ts';
import { unglyph } from './layout.ts';
import type { AnchoredDiagnostic } from './navigation.ts';
import { splitter } from './panels.ts';
import { CursorAnnouncer, cursorSentence } from './cursorAnnouncer.ts';
import { PanelModes, type SidePanel } from './panelModes.ts';
import { RecordList, type SelectHow } from './recordList.ts';
import { evalView } from './evalView.ts';
import { comparisonView } from './comparisonView.ts';
import { VllmTab } from './vllmView.ts';
import { rawButton, requestView, responseView } from './requestView.ts';
import type { CentreTab } from './state.ts';
import { StateStore } from './stateStore.ts';
import { actionForKey, Stepper, type StepAction } from './stepping.ts';
import { Timeline } from './timeline.ts';

const VIEW_CACHE = 6;
const KEYBOARD_OPEN_DELAY = 120;

type ToolbarButton = HTMLElement & { checked: boolean };

interface StepButton {
  action: StepAction;
  text: string;
  label: string;
}

const STEP_BUTTONS: StepButton[][] = [
  [
    { action: 'first', text: '⇤', label: 'First token (Home)' },
    { action: 'prev', text: '‹', label: 'Previous token (←)' },
    { action: 'next', text: '›', label: 'Next token (→)' },
    { action: 'last', text: '⇥', label: 'Last token (End)' },
  ],
  [
    { action: 'prevMarker', text: '‹ marker', label: 'Previous marker (↑ or [)' },
    { action: 'nextMarker', text: 'marker ›', label: 'Next marker (↓ or ])' },
  ],
  [
    { action: 'prevCall', text: '‹ call', label: 'Previous tool call (p)' },
    { action: 'nextCall', text: 'call ›', label: 'Next tool call (n)' },
  ],
  [
    { action: 'prevDiag', text: '‹ finding', label: 'Previous finding (Shift+E)' },
    { action: 'nextDiag', text: 'finding ›', label: 'Next finding (e)' },
  ],
];

export class App {
  private readonly store: StateStore;
  private readonly list: RecordList;
  private readonly timeline: Timeline;
  private readonly inspector: Inspector;
  private readonly announcer = new CursorAnnouncer();
  private readonly panelModes: PanelModes;
  private readonly toggles: Record<SidePanel, ToolbarButton>;
  private readonly stepper: Stepper;
  private readonly statusEl = h('span', { class: 'status', 'aria-live': 'polite' });
  private readonly titleEl = h('span', { class: 'file-name' });
  private readonly messageEl = h('span', { class: 'message', role: 'status' });
  private readonly mainEl: HTMLElement;
  private readonly recordHead = h('div', { class: 'record-head' });
  private readonly banners = h('div', { class: 'banners' });
  private readonly stepbar: HTMLElement;
  private readonly positionEl = h('span', { class: 'position', 'aria-label': 'Cursor position' });
  private readonly playButton: ToolbarButton;
  private readonly timelineHost = h('div', { class: 'timeline-host' });
  private readonly noCompletion = h('div', { class: 'no-completion doc-view', tabindex: 0, hidden: true });
  private readonly tabs = new Map<CentreTab, { tab: HTMLElement; panel: HTMLElement; dirty: boolean }>();
  private readonly vllmTab: VllmTab;
  private info: TraceInfo | null = null;
  private view: RecordView | null = null;
  private readonly cache = new Map<string, RecordView>();
  private pendingKey: string | null = null;
  private fetchSeq = 0;
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private initialised = false;
  private readonly queued: HostEvent[] = [];
  private firstPaint = false;
  private pendingReveal: { recordId: string; tab: CentreTab } | null = null;
  private revealTab: CentreTab | null = null;
  private messageTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly connection: HostConnection,
  ) {
    this.store = new StateStore(connection);
    this.vllmTab = new VllmTab(connection);
    const st = this.store.state;

    this.list = new RecordList({
      filters: st.filters,
      scrollTop: st.listScrollTop,
      onFiltersChange: (filters) => this.store.update((s) => (s.filters = filters)),
      onSelect: (key, how) => this.select(key, how),
      onScroll: (top) => this.store.update((s) => (s.listScrollTop = top)),
    });
    this.timeline = new Timeline({ onChipClick: (token) => this.stepper.moveTo(token) });
    this.inspector = new Inspector({
      sections: st.sections,
      onSectionToggle: (name, open) => this.store.update((s) => (s.sections[name] = open)),
      onJump: (token, diag) => {
        this.showTab('timeline');
        this.stepper.moveTo(token, diag);
        this.timeline.focus();
      },
    });
    this.stepper = new Stepper({
      onChange: (cursor, active) => this.onCursor(cursor, active),
      onPlayChange: (playing) => {
        this.playButton.checked = playing;
        this.playButton.textContent = playing ? '❚❚ Pause' : '▶ Play';
        this.playButton.setAttribute('label', playing ? 'Pause (Space)' : `Play (Space)`);
      },
      onBoundary: (action) => this.flash(boundaryMessage(action)),
    });

    this.playButton = h(
      'vscode-toolbar-button',
      { toggleable: true, label: 'Play (Space)', title: 'Play / pause (Space)', class: 'play' },
      '▶ Play',
    ) as ToolbarButton;
    this.playButton.addEventListener('click', () => {
      this.stepper.togglePlay();
      // The button toggles itself; the stepper is the truth.
      this.playButton.checked = this.stepper.playing;
    });
    this.stepbar = h(
      'div',
      { class: 'stepbar', role: 'toolbar', 'aria-label': 'Stepping' },
      STEP_BUTTONS.map((group) =>
        h(
          'span',
          { class: 'step-group' },
          group.map((b) => {
            const el = h('vscode-toolbar-button', { label: b.label, title: b.label, 'data-action': b.action }, b.text);
            el.addEventListener('click', () => this.stepper.perform(b.action));
            return el;
          }),
        ),
      ),
      this.playButton,
      this.positionEl,
    );

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

    const centre = h(
      'main',
      { class: 'centre', 'aria-label': 'Record' },
      this.recordHead,
      this.tabBar(),
      this.tabPanel('timeline', h('div', { class: 'timeline-panel' }, this.banners, this.stepbar, this.timelineHost, this.noCompletion)),
      this.tabPanel('response', null),
      this.tabPanel('request', null),
      this.tabPanel('vllm', null),
      this.tabPanel('compare', null),
      this.tabPanel('eval', null),
    );
    this.timelineHost.appendChild(this.timeline.el);

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
      centre,
      splitter({
        label: 'Resize the inspector',
        side: 'right',
        min: 220,
        max: 1000,
        get: () => this.store.state.inspectorWidth,
        set: (w) => this.mainEl?.style.setProperty('--insp-w', `${w}px`),
        commit: (w) => this.store.update((s) => (s.inspectorWidth = w)),
      }),
      this.inspector.el,
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
      this.announcer.el,
    );
    this.showTab(st.centreTab);
    this.showRecordHead(null, 'Loading the trace…');
    document.addEventListener('keydown', (e) => this.onKey(e));
    // After the timeline's own handler: text copied from the inspector gets its real whitespace back.
    document.addEventListener('copy', (e) => copyRealWhitespace(e));
  }

  private helpButton(): HTMLElement {
    const b = h('vscode-toolbar-button', { label: 'Keyboard help (?)', title: 'Keyboard help (?)', class: 'help-button' }, '?');
    b.addEventListener('click', () => showHelp());
    return b;
  }

  private tabBar(): HTMLElement {
    const bar = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Record views' });
    const names: Array<[CentreTab, string]> = [
      ['timeline', 'Timeline'],
      ['response', 'Response'],
      ['request', 'Request'],
      ['vllm', 'vLLM'],
      ['compare', 'Compare'],
      ['eval', 'Eval'],
    ];
    // Arrow keys move between the tabs that are shown (Eval only for K2-Vendor-Verifier results).
    const shown = () => names.filter(([n]) => !this.tabs.get(n)?.tab.hidden);
    for (const [name, label] of names) {
      const tab = h(
        'button',
        { type: 'button', class: 'tab', role: 'tab', id: `tab-${name}`, 'aria-controls': `panel-${name}`, 'data-tab': name },
        label,
      );
      tab.addEventListener('click', () => this.showTab(name));
      tab.addEventListener('keydown', (e) => {
        const visible = shown();
        const i = visible.findIndex(([n]) => n === name);
        let j: number | null = null;
        if (e.key === 'ArrowRight') j = (i + 1) % visible.length;
        else if (e.key === 'ArrowLeft') j = (i + visible.length - 1) % visible.length;
        else if (e.key === 'Home') j = 0;
        else if (e.key === 'End') j = visible.length - 1;
        if (j === null) return;
        e.preventDefault();
        e.stopPropagation();
        const next = (visible[j] as [CentreTab, string])[0];
        this.showTab(next);
        this.tabs.get(next)?.tab.focus();
      });
      bar.appendChild(tab);
      this.tabs.set(name, { tab, panel: h('div'), dirty: true });
    }
    // Compare only for replay records, Eval only for K2-Vendor-Verifier results, vLLM only with a profile chosen.
    for (const n of ['compare', 'eval', 'vllm'] as const) {
      const t = this.tabs.get(n);
      if (t) t.tab.hidden = true;
    }
    return bar;
  }

  private tabPanel(name: CentreTab, content: HTMLElement | null): HTMLElement {
    const panel = h(
      'div',
      {
        class: `tabpanel tabpanel-${name}`,
        role: 'tabpanel',
        id: `panel-${name}`,
        'aria-labelledby': `tab-${name}`,
        tabindex: name === 'timeline' ? -1 : 0,
      },
      content,
    );
    const t = this.tabs.get(name);
    if (t) t.panel = panel;
    return panel;
  }

  private showTab(wanted: CentreTab): void {
    // The Eval tab exists only for K2-Vendor-Verifier results; a saved choice of it falls back to the timeline.
    const name: CentreTab =
      (wanted === 'eval' && !this.info?.eval) || (wanted === 'compare' && !this.view?.comparison) || (wanted === 'vllm' && !this.view?.vllm)
        ? 'timeline'
        : wanted;
    for (const [n, t] of this.tabs) {
      const on = n === name;
      t.tab.setAttribute('aria-selected', on ? 'true' : 'false');
      t.tab.tabIndex = on ? 0 : -1;
      t.panel.hidden = !on;
      if (on && t.dirty && n !== 'timeline') {
        if (n === 'eval') replace(t.panel, evalView(this.info?.eval));
        else if (n === 'compare') replace(t.panel, comparisonView(this.view?.comparison ?? null));
        else if (n === 'vllm') this.vllmTab.render(t.panel, this.view);
        else
          replace(
            t.panel,
            this.view
              ? n === 'request'
                ? requestView(this.view)
                : responseView(this.view)
              : h('p', { class: 'muted' }, 'No record open.'),
          );
        t.dirty = false;
      }
    }
    if (this.store.state.centreTab !== name) this.store.update((s) => (s.centreTab = name));
    if (name === 'timeline') this.timeline.relayout();
  }

  /** Shows or hides a side panel: collapses it when wide, opens it over the centre when narrow (panelModes.ts). */
  private showPanel(panel: SidePanel, shown: boolean): void {
    this.panelModes.show(panel, shown);
    if (shown && this.panelModes.overlay(panel)) {
      const target =
        panel === 'list'
          ? this.list.el.querySelector<HTMLElement>('[tabindex="0"], input')
          : this.inspector.el.querySelector<HTMLElement>('summary, button');
      target?.focus();
    }
    if (panel === 'inspector') this.timeline.relayout();
  }

  private syncToggles(): void {
    for (const p of ['list', 'inspector'] as const) {
      const t = this.toggles[p];
      t.checked = this.panelModes.shown(p);
      t.setAttribute('aria-expanded', String(t.checked));
    }
    this.timeline.relayout();
  }

  private setCollapsed(panel: 'list' | 'inspector', collapsed: boolean): void {
    this.mainEl.classList.toggle(`${panel}-collapsed`, collapsed);
    this.store.update((s) => {
      if (panel === 'list') s.listCollapsed = collapsed;
      else s.inspectorCollapsed = collapsed;
    });
  }

  // ---- host ----------------------------------------------------------------------------------------------

  async start(): Promise<void> {
    this.connection.onEvent = (e) => (this.initialised ? this.onEvent(e) : this.queued.push(e));
    const reply = await this.connection.request({ type: 'ready' });
    if (reply.type === 'error') {
      this.showRecordHead(null, `The trace could not be opened: ${reply.message}`);
      return;
    }
    this.setInfo(reply.info);
    this.list.setData(reply.summaries, reply.lineErrors);
    performance.mark('toolscope:list-painted');
    this.initialised = true;
    for (const e of this.queued.splice(0)) this.onEvent(e);
    this.restoreSelection();
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
      this.showRecordHead(null, 'Waiting for the record to be analysed…');
      return;
    }
    const first = this.list.firstVisibleKey();
    if (first !== null) this.select(first, 'restore');
    else
      this.showRecordHead(
        null,
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
      if (!this.view || this.view.tokens.length === 0 || overlayOpen()) return;
      if (this.store.state.centreTab !== 'timeline') this.showTab('timeline');
      this.stepper.perform(e.action);
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
      this.setView(null);
      this.showRecordHead(
        null,
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
    const shown = this.view?.key;
    if (shown !== undefined && e.summaries.some((s) => s.key === shown)) void this.open(shown, 'click');
    this.list.append(e.summaries, e.lineErrors);
    if (this.applyReveal()) {
      // A revealed record wins over a restored selection.
    } else if (this.pendingKey !== null && this.list.has(this.pendingKey)) {
      const key = this.pendingKey;
      this.pendingKey = null;
      this.select(key, 'restore');
    } else if (this.pendingKey !== null && !e.info.analysing) {
      this.pendingKey = null;
      this.restoreSelectionFallback();
    } else if (!this.view && this.pendingKey === null && this.store.state.selectedKey === null) {
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
      const shown = this.view;
      if (shown?.key !== f.key || !shown.guidedPending) continue;
      // The same record with more findings: the cursor stays (setView reads it from the store), playing goes on.
      const playing = this.stepper.playing;
      this.setView(withGuidedFindings(shown, f));
      if (playing) this.stepper.togglePlay();
    }
  }

  private restoreSelectionFallback(): void {
    const first = this.list.firstVisibleKey();
    if (first !== null) this.select(first, 'restore');
  }

  private setInfo(info: TraceInfo): void {
    const evalChanged = JSON.stringify(info.eval ?? null) !== JSON.stringify(this.info?.eval ?? null);
    this.info = info;
    const evalTab = this.tabs.get('eval');
    if (evalTab && evalChanged) {
      evalTab.tab.hidden = !info.eval;
      evalTab.dirty = true;
      // A results file opened fresh (nothing selected yet) starts on its figures.
      const fresh = info.eval && !this.initialised && this.store.state.selectedKey === null;
      if (fresh) this.showTab('eval');
      else if (this.store.state.centreTab === 'eval') this.showTab('eval');
    }
    replace(this.titleEl, clip(info.fileName, 200));
    this.titleEl.title = info.fileName.length > 200 ? clip(info.fileName, 2000) : info.fileName;
    document.title = `Toolscope — ${clip(info.fileName, 200)}`;
    this.list.setAnalysing(info.analysing);
    this.updateStatus();
  }

  private updateStatus(): void {
    const info = this.info;
    if (!info) return;
    const host = info.host === 'vscode' ? '' : info.host === 'report' ? ' · report' : ' · harness';
    const format = info.format ? ` · format: ${clip(info.format, 40)}` : '';
    // Lines, not records: a line may be unreadable, and an SSE dump groups many lines into one record.
    this.statusEl.textContent = `${info.entries} line${info.entries === 1 ? '' : 's'}${info.analysing ? ' · analysing…' : ''}${format}${host}`;
  }

  // ---- records -------------------------------------------------------------------------------------------

  /** Selects the record a `reveal` asked for once it is listed; true when it did. */
  private applyReveal(): boolean {
    const r = this.pendingReveal;
    if (!r) return false;
    const key = this.list.keyOfId(r.recordId);
    if (key === null) return false;
    this.pendingReveal = null;
    this.revealTab = r.tab;
    this.store.update((s) => (s.centreTab = r.tab));
    this.select(key, 'restore');
    return true;
  }

  private select(key: string, how: SelectHow): void {
    const same = this.store.state.selectedKey === key && this.view?.key === key;
    this.pendingKey = null;
    this.store.update((s) => (s.selectedKey = key));
    this.list.setSelected(key, how !== 'click');
    clearTimeout(this.openTimer);
    if (same) {
      if (how === 'enter') this.focusRecord();
      return;
    }
    if (how === 'keyboard') this.openTimer = setTimeout(() => void this.open(key, how), KEYBOARD_OPEN_DELAY);
    else void this.open(key, how);
  }

  private async open(key: string, how: SelectHow): Promise<void> {
    const seq = ++this.fetchSeq;
    let view = this.cache.get(key) ?? null;
    if (!view) {
      const s = this.list.summary(key);
      this.showRecordHead(null, `Loading ${s ? clip(s.id, 80) : 'the record'}…`);
      const reply = await this.connection.request({ type: 'getRecord', key });
      if (seq !== this.fetchSeq) return;
      if (reply.type === 'error') {
        this.setView(null);
        this.showRecordHead(null, `The record could not be read: ${reply.message}`);
        return;
      }
      view = reply.view;
      this.cache.set(key, view);
      if (this.cache.size > VIEW_CACHE) this.cache.delete(this.cache.keys().next().value as string);
    }
    this.setView(view);
    // Narrow: the list floats over the record; picking one (click or Enter) shows it.
    if ((how === 'click' || how === 'enter') && this.mainEl.classList.contains('list-open')) this.panelModes.closeOverlay();
    if (how === 'enter') this.focusRecord();
    else if (how === 'restore' && (document.activeElement === document.body || document.activeElement === null)) this.focusRecord();
    if (!this.firstPaint) {
      this.firstPaint = true;
      requestAnimationFrame(() => performance.mark('toolscope:record-painted'));
    }
  }

  private focusRecord(): void {
    if (this.view && this.view.tokens.length) {
      this.showTab('timeline');
      this.timeline.focus();
    } else this.noCompletion.focus();
  }

  private setView(view: RecordView | null): void {
    this.view = view;
    for (const [name, t] of this.tabs) if (name !== 'timeline') t.dirty = true;
    const compare = this.tabs.get('compare');
    if (compare) compare.tab.hidden = !view?.comparison;
    const vllm = this.tabs.get('vllm');
    if (vllm) vllm.tab.hidden = !view?.vllm;
    if (view && this.revealTab) {
      const tab = this.revealTab;
      this.revealTab = null;
      this.store.update((s) => (s.centreTab = tab));
    }
    this.showRecordHead(view, null);
    this.renderBanners(view);
    const hasTokens = Boolean(view && view.tokens.length);
    const cursor = view ? Math.min(this.store.state.cursors[view.key] ?? 0, Math.max(0, view.tokens.length - 1)) : 0;
    this.stepper.setRecord(view, cursor);
    this.stepbar.hidden = !hasTokens;
    this.timelineHost.hidden = !hasTokens;
    this.noCompletion.hidden = hasTokens || !view;
    if (view && !hasTokens) {
      replace(
        this.noCompletion,
        h(
          'p',
          { class: 'banner info' },
          view.tokenOrigin === 'none'
            ? 'This record holds no raw completion (no model output with its special tokens), so there are no tokens to step through. What the client received and the request follow.'
            : 'The completion is empty.',
        ),
        h('h2', null, 'Response'),
        responseView(view),
        h('h2', null, 'Request'),
        requestView(view),
      );
    } else replace(this.noCompletion);
    this.timeline.setRecord(hasTokens ? view : null, cursor);
    this.inspector.setRecord(view);
    if (hasTokens) this.onCursor(cursor, null, false);
    else this.positionEl.textContent = '';
    // Re-render an open tab (leaving a replay on its Compare tab falls back to the timeline).
    const current = this.store.state.centreTab;
    if (current !== 'timeline') this.showTab(current);
  }

  private showRecordHead(view: RecordView | null, message: string | null): void {
    if (!view) {
      replace(this.recordHead, h('h2', { class: 'record-title muted' }, message ?? 'No record open.'));
      return;
    }
    const s = this.list.summary(view.key);
    const where = [view.source, view.lastLine > view.line ? `lines ${view.line}–${view.lastLine}` : `line ${view.line}`];
    if (s?.file) where.push(s.file);
    const counts = { error: 0, warning: 0, info: 0 };
    for (const d of view.diagnostics) counts[d.severity]++;
    replace(
      this.recordHead,
      h(
        'div',
        { class: 'record-title-row' },
        h('h2', { class: 'record-title', title: clip(view.id, 2000) }, clip(view.id, 200)),
        view.failed ? h('span', { class: 'rec-failed', title: clip(view.failed, 2000) }, 'failed') : null,
        h('span', { class: 'spacer' }),
        rawButton(() => void this.openRaw(view.key)),
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
    );
  }

  private renderBanners(view: RecordView | null): void {
    if (!view) {
      replace(this.banners);
      return;
    }
    replace(
      this.banners,
      view.failed ? h('div', { class: 'banner error' }, 'The request failed: ', clip(view.failed, 1000)) : null,
      view.tokenLabel && view.tokens.length ? h('div', { class: 'token-source muted' }, clip(view.tokenLabel, 1000)) : null,
      view.tokens.length && view.approximate
        ? h(
            'div',
            { class: 'banner warn approximate-banner' },
            view.tokenOrigin === 'splitter'
              ? 'token boundaries are approximate: no recorded tokens (split by Toolscope; dashed chips)'
              : 'token boundaries are approximate where chips are dashed: some recorded tokens could not be placed exactly',
          )
        : null,
      view.rebuilt
        ? h(
            'div',
            { class: 'banner info' },
            'The engine skipped special tokens when decoding: the text was rebuilt from the recorded token ids.',
          )
        : null,
      view.tokenWarning ? h('div', { class: 'banner warn' }, clip(view.tokenWarning, 1000)) : null,
    );
  }

  private async openRaw(key: string): Promise<void> {
    const reply = await this.connection.request({ type: 'openRaw', key });
    if (reply.type === 'error') this.flash(`Could not open the raw record: ${reply.message}`);
  }

  // ---- cursor --------------------------------------------------------------------------------------------

  private onCursor(cursor: number, active: AnchoredDiagnostic | null, save = true): void {
    const view = this.view;
    if (!view) return;
    this.timeline.setCursor(cursor, active);
    this.inspector.setCursor(cursor, active, this.timeline.diagnostics);
    this.positionEl.textContent = `token ${cursor + 1} / ${view.tokens.length}`;
    const token = view.tokens[cursor];
    if (token) this.announcer.say(cursorSentence(cursor, view.tokens.length, token, active, this.timeline.diagnostics));
    if (save) this.store.setCursor(view.key, cursor);
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
    if (!this.view || this.view.tokens.length === 0) return;
    e.preventDefault();
    e.stopPropagation();
    if (this.store.state.centreTab !== 'timeline' && action !== 'play') this.showTab('timeline');
    this.stepper.perform(action);
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

function boundaryMessage(action: StepAction): string {
  switch (action) {
    case 'prevMarker':
    case 'nextMarker':
      return `No ${action === 'nextMarker' ? 'later' : 'earlier'} marker.`;
    case 'prevCall':
    case 'nextCall':
      return `No ${action === 'nextCall' ? 'later' : 'earlier'} tool call.`;
    case 'prevDiag':
    case 'nextDiag':
      return `No ${action === 'nextDiag' ? 'later' : 'earlier'} diagnostic on the tokens.`;
    case 'prev':
    case 'first':
      return 'At the first token.';
    default:
      return 'At the last token.';
  }
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
