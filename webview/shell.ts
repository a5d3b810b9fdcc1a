/**
 * The trace editor's shell: record list (left), the selected record's head and tabs (centre; each tab a module in
 * tabs/, listed in tabs/registry.ts), the inspector (right), and the stepping and its keys. It talks to its host
 * only through the connection, and keeps its UI state in the store.
 */
// The shell's stylesheet first: each module's own comes after it in dist/webview.css.
import './shell.css';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import type { GuidedFindings, HostEvent, RecordView, ReplyFor, TraceInfo } from '../src/shared/protocol.ts';
import { withGuidedFindings } from '../src/shared/guidedFindings.ts';
import { tokenSpanText } from '../src/shared/tokenNumbers.ts';
import { clip, h, isButtonLike, isFormControl, replace } from './dom.ts';
import { adoptDiagnosticKinds } from './diagnosticKinds.ts';
import { overlayOpen, showHelp } from './helpOverlay.ts';
import { recordHead } from './recordHead.ts';
import type { HostConnection } from './hostConnection.ts';
import { Inspector } from './inspector.ts';
import { diagnosticItem } from './widgets.ts';
import { unglyph } from './layout.ts';
import { offTokenDiagnostics, stepDiagnostic, type AnchoredDiagnostic } from './navigation.ts';
import { splitter } from './panels.ts';
import { CursorAnnouncer, cursorSentence } from './cursorAnnouncer.ts';
import { PanelModes, type SidePanel } from './panelModes.ts';
import { RecordList, type SelectHow } from './recordList.ts';
import { StateStore } from './stateStore.ts';
import { Stepbar } from './stepbar.ts';
import { actionForKey, Stepper, type StepAction } from './stepping.ts';
import type { RecordTab, TabInput } from './tabs/recordTab.ts';
import { TABS } from './tabs/registry.ts';
import { Timeline } from './timeline.ts';

const VIEW_CACHE = 6;
const KEYBOARD_OPEN_DELAY = 120;

type ToolbarButton = HTMLElement & { checked: boolean };

/** A registered tab with its place in the page: its button in the tab bar, its panel, and whether it is stale. */
interface PlacedTab {
  readonly tab: RecordTab;
  readonly button: HTMLElement;
  readonly panel: HTMLElement;
  /** Its input changed since it last rendered. */
  dirty: boolean;
}

/** The `ready` request on its way, and the host events that came before the shell took them. */
export interface HostAsked {
  reply: Promise<ReplyFor<{ type: 'ready' }>>;
  events: HostEvent[];
}

export class App {
  private readonly store: StateStore;
  private readonly list: RecordList;
  private readonly timeline: Timeline;
  private readonly inspector: Inspector;
  private readonly announcer = new CursorAnnouncer();
  private readonly panelModes: PanelModes;
  private readonly toggles: Record<SidePanel, ToolbarButton>;
  private readonly stepper: Stepper;
  private readonly stepbar: Stepbar;
  private readonly statusEl = h('span', { class: 'status', 'aria-live': 'polite' });
  private readonly titleEl = h('span', { class: 'file-name' });
  private readonly messageEl = h('span', { class: 'message', role: 'status' });
  private readonly mainEl: HTMLElement;
  private readonly recordHead = h('div', { class: 'record-head' });
  /** The finding navigation last reached, in words: visible whatever the width (the inspector may be hidden). */
  private readonly findingStrip = h('div', { class: 'finding-strip', role: 'status', 'aria-live': 'polite', hidden: true });
  /** Indices of the record's findings not on its tokens, and the one finding navigation is on (a position in that list). */
  private offTokens: number[] = [];
  private offActive: number | null = null;
  private readonly tabs: PlacedTab[];
  /** The first registered tab: always offered, the fallback, and where stepping happens. */
  private readonly home: PlacedTab;
  private info: TraceInfo | null = null;
  private view: RecordView | null = null;
  private readonly cache = new Map<string, RecordView>();
  private pendingKey: string | null = null;
  private fetchSeq = 0;
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private initialised = false;
  /** Host events that came before the first reply was applied. */
  private queued: HostEvent[] = [];
  private firstPaint = false;
  private pendingReveal: { recordId: string; tab: string } | null = null;
  private revealTab: string | null = null;
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
    });
    this.timeline = new Timeline({ onChipClick: (token) => this.stepper.moveTo(token) });
    this.inspector = new Inspector({
      sections: st.sections,
      onSectionToggle: (name, open) => this.store.update((s) => (s.sections[name] = open)),
      onJump: (token, diag) => {
        this.showTab(this.home.tab.id);
        this.stepper.moveTo(token, diag);
        this.timeline.focus();
      },
    });
    this.stepper = new Stepper({
      onChange: (cursor, active) => this.onCursor(cursor, active),
      onPlayChange: (playing) => this.stepbar.setPlaying(playing),
      onBoundary: (action) => this.flash(boundaryMessage(action)),
    });

    this.stepbar = new Stepbar({
      perform: (action) => this.perform(action),
      togglePlay: () => {
        this.stepper.togglePlay();
        return this.stepper.playing;
      },
    });
    this.tabs = TABS.map((make) =>
      this.placeTab(
        make({
          connection,
          timeline: this.timeline,
          stepbar: this.stepbar,
          goToToken: (recordId, token) => this.goToToken(recordId, token),
        }),
      ),
    );
    this.home = this.tabs[0] as PlacedTab;

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
      this.findingStrip,
      this.tabBar(),
      this.tabs.map((t) => t.panel),
    );

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
    this.syncTabBar();

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

  private placeTab(tab: RecordTab): PlacedTab {
    const { id } = tab;
    const button = h(
      'button',
      { type: 'button', class: 'tab', role: 'tab', id: `tab-${id}`, 'aria-controls': `panel-${id}`, 'data-tab': id },
      tab.label,
    );
    const panel = h('div', {
      class: `tabpanel tabpanel-${id}`,
      role: 'tabpanel',
      id: `panel-${id}`,
      'aria-labelledby': `tab-${id}`,
      tabindex: tab.focusablePanel ? 0 : -1,
    });
    return { tab, button, panel, dirty: true };
  }

  private tabBar(): HTMLElement {
    const bar = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Record views' });
    // Arrow keys move between the tabs that are offered (Eval only for K2-Vendor-Verifier results, …).
    const offered = () => this.tabs.filter((t) => !t.button.hidden);
    for (const placed of this.tabs) {
      const { button } = placed;
      button.addEventListener('click', () => this.showTab(placed.tab.id));
      button.addEventListener('keydown', (e) => {
        const visible = offered();
        const i = visible.indexOf(placed);
        let j: number | null = null;
        if (e.key === 'ArrowRight') j = (i + 1) % visible.length;
        else if (e.key === 'ArrowLeft') j = (i + visible.length - 1) % visible.length;
        else if (e.key === 'Home') j = 0;
        else if (e.key === 'End') j = visible.length - 1;
        if (j === null) return;
        e.preventDefault();
        e.stopPropagation();
        const next = visible[j] as PlacedTab;
        this.showTab(next.tab.id);
        next.button.focus();
      });
      bar.appendChild(button);
    }
    return bar;
  }

  private get tabInput(): TabInput {
    return { info: this.info, view: this.view };
  }

  /** Hides the tabs not offered for what is on screen. */
  private syncTabBar(): void {
    const input = this.tabInput;
    for (const t of this.tabs) {
      const hidden = !t.tab.shownWhen(input);
      if (t.button.hidden !== hidden) t.button.hidden = hidden;
    }
  }

  private draw(t: PlacedTab): void {
    if (!t.dirty) return;
    t.tab.render(this.tabInput, t.panel);
    t.dirty = false;
  }

  private showTab(wanted: string): void {
    // A tab not offered (a saved choice of Eval for a plain trace) falls back to the home tab.
    const input = this.tabInput;
    const shown = this.tabs.find((t) => t.tab.id === wanted && t.tab.shownWhen(input)) ?? this.home;
    for (const t of this.tabs) {
      const on = t === shown;
      t.button.setAttribute('aria-selected', on ? 'true' : 'false');
      t.button.tabIndex = on ? 0 : -1;
      t.panel.hidden = !on;
      if (on) this.draw(t);
    }
    if (this.store.state.centreTab !== shown.tab.id) this.store.update((s) => (s.centreTab = shown.tab.id));
    shown.tab.shown?.();
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

  async start(asked: HostAsked = App.askHost(this.connection)): Promise<void> {
    this.queued = asked.events;
    this.connection.onEvent = (e) => (this.initialised ? this.onEvent(e) : this.queued.push(e));
    const reply = await asked.reply;
    performance.mark('toolscope:init-received');
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
      if (!this.view || overlayOpen()) return;
      this.perform(e.action);
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
    const before = this.info;
    adoptDiagnosticKinds(info.diagnosticKinds);
    this.info = info;
    this.syncTabBar();
    for (const t of this.tabs) {
      if (!t.tab.traceChanged?.(before, info)) continue;
      t.dirty = true;
      // A results file opened fresh (nothing selected yet) starts on its figures.
      const fresh = t.tab.opensFreshTrace && !t.button.hidden && !this.initialised && this.store.state.selectedKey === null;
      if (fresh || this.store.state.centreTab === t.tab.id) this.showTab(t.tab.id);
    }
    // Written when it changed: every batch of rows brings the trace's info again, and a text written lays out the page.
    if (before?.fileName !== info.fileName) {
      replace(this.titleEl, clip(info.fileName, 200));
      this.titleEl.title = info.fileName.length > 200 ? clip(info.fileName, 2000) : info.fileName;
      document.title = `Toolscope — ${clip(info.fileName, 200)}`;
    }
    this.list.setAnalysing(info.analysing);
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
    this.revealTab = r.tab;
    this.store.update((s) => (s.centreTab = r.tab));
    this.select(key, 'restore');
    return true;
  }

  /** A record of this trace on the timeline, the cursor on `token` (a parting point's "Step there"). */
  private goToToken(recordId: string, token: number): void {
    const key = this.list.keyOfId(recordId);
    if (key === null) return;
    this.store.update((s) => {
      s.cursors[key] = token;
      s.centreTab = this.home.tab.id;
    });
    if (this.view?.key === key) {
      this.showTab(this.home.tab.id);
      this.stepper.moveTo(token);
      this.focusRecord();
    } else this.select(key, 'enter');
  }

  private select(key: string, how: SelectHow): void {
    const same = this.store.state.selectedKey === key && this.view?.key === key;
    this.pendingKey = null;
    this.store.update((s) => (s.selectedKey = key));
    clearTimeout(this.openTimer);
    // The record is asked for first: the host reads it while the list draws its selection.
    if (!same) {
      if (how === 'keyboard') this.openTimer = setTimeout(() => void this.open(key, how), KEYBOARD_OPEN_DELAY);
      else void this.open(key, how);
    }
    this.list.setSelected(key, how !== 'click');
    if (same && how === 'enter') this.focusRecord();
  }

  private async open(key: string, how: SelectHow): Promise<void> {
    const seq = ++this.fetchSeq;
    let view = this.cache.get(key) ?? null;
    if (!view) {
      const s = this.list.summary(key);
      this.showRecordHead(null, `Loading ${s ? clip(s.id, 80) : 'the record'}…`);
      if (!this.firstPaint) performance.mark('toolscope:record-asked');
      const reply = await this.connection.request({ type: 'getRecord', key });
      if (!this.firstPaint) performance.mark('toolscope:record-received');
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
    if (this.view && this.view.tokens.length) this.showTab(this.home.tab.id);
    this.home.tab.focus?.();
  }

  private setView(view: RecordView | null): void {
    this.view = view;
    for (const t of this.tabs) t.dirty = true;
    this.syncTabBar();
    if (view && this.revealTab) {
      const tab = this.revealTab;
      this.revealTab = null;
      this.store.update((s) => (s.centreTab = tab));
    }
    this.showRecordHead(view, null);
    // The home tab follows every record (it holds the timeline the stepping drives), before the timeline lays out.
    this.draw(this.home);
    const hasTokens = Boolean(view && view.tokens.length);
    const cursor = view ? Math.min(this.store.state.cursors[view.key] ?? 0, Math.max(0, view.tokens.length - 1)) : 0;
    this.stepper.setRecord(view, cursor);
    this.timeline.setRecord(hasTokens ? view : null, cursor);
    this.offTokens = view ? offTokenDiagnostics(view, this.timeline.diagnostics) : [];
    this.offActive = null;
    this.showFinding(null);
    this.inspector.setRecord(view);
    if (hasTokens) this.onCursor(cursor, null, false);
    else this.stepbar.setPosition('');
    // Re-render an open tab (leaving a replay on its Compare tab falls back to the home tab).
    const current = this.store.state.centreTab;
    if (current !== this.home.tab.id) this.showTab(current);
  }

  private showRecordHead(view: RecordView | null, message: string | null): void {
    const file = view ? this.list.summary(view.key)?.file : undefined;
    replace(this.recordHead, ...recordHead(view, message, file, () => view && void this.openRaw(view.key)));
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
    this.offActive = null;
    this.showFinding(active?.index ?? null);
    this.stepbar.setPosition(`token ${cursor + 1} / ${view.tokens.length}`);
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
    if (!this.view) return;
    e.preventDefault();
    e.stopPropagation();
    this.perform(action);
  }

  /** A stepping action from a key, the toolbar or the workbench: findings go everywhere, the rest on the timeline. */
  private perform(action: StepAction): void {
    if (!this.view) return;
    if (action === 'nextDiag' || action === 'prevDiag') {
      this.stepFinding(action === 'nextDiag' ? 1 : -1);
      return;
    }
    if (this.view.tokens.length === 0) return;
    if (this.store.state.centreTab !== this.home.tab.id && action !== 'play') this.showTab(this.home.tab.id);
    this.stepper.perform(action);
  }

  /**
   * Finding navigation over every finding of the record: those on the tokens in token order (on the timeline), then
   * those anchored elsewhere (response, reasoning, request) in the record's order, each on the tab that shows it.
   */
  private stepFinding(dir: 1 | -1): void {
    const view = this.view;
    if (!view) return;
    const onTokens = this.timeline.diagnostics;
    const off = this.offTokens;
    const boundary = () => this.flash(`No ${dir === 1 ? 'later' : 'earlier'} finding in this record.`);
    if (this.offActive !== null) {
      const next = this.offActive + dir;
      if (next >= 0 && next < off.length) this.showOffToken(next);
      else if (dir === -1 && onTokens.length) {
        const last = onTokens[onTokens.length - 1] as AnchoredDiagnostic;
        this.showTab(this.home.tab.id);
        this.stepper.moveTo(last.start, last.index);
      } else boundary();
      return;
    }
    if (view.tokens.length && stepDiagnostic(onTokens, this.stepper.cursor, this.stepperActive(), dir) !== null) {
      this.showTab(this.home.tab.id);
      this.stepper.perform(dir === 1 ? 'nextDiag' : 'prevDiag');
      return;
    }
    if (off.length && (dir === 1 || view.tokens.length === 0)) this.showOffToken(dir === 1 ? 0 : off.length - 1);
    else boundary();
  }

  /** The stepper's active finding as a position in the timeline's list (what stepDiagnostic takes). */
  private stepperActive(): number | null {
    const active = this.stepper.activeDiagnostic;
    if (!active) return null;
    const i = this.timeline.diagnostics.findIndex((d) => d.index === active.index);
    return i < 0 ? null : i;
  }

  private showOffToken(position: number): void {
    const view = this.view;
    const index = this.offTokens[position];
    if (!view || index === undefined) return;
    const d = view.diagnostics[index];
    if (!d) return;
    this.offActive = position;
    const placed = this.tabs.find((t) => !t.button.hidden && t.tab.showsFinding?.(d));
    if (placed) {
      this.showTab(placed.tab.id);
      placed.tab.revealFinding?.(placed.panel, index);
    }
    this.showFinding(index);
  }

  /** The strip under the record head: the finding navigation is on, with its place among all of the record's. */
  private showFinding(index: number | null): void {
    const view = this.view;
    const d = index === null ? undefined : view?.diagnostics[index];
    if (!view || !d || index === null) {
      this.findingStrip.hidden = true;
      replace(this.findingStrip);
      return;
    }
    const onTokens = this.timeline.diagnostics;
    const total = onTokens.length + this.offTokens.length;
    const onPos = onTokens.findIndex((a) => a.index === index);
    const pos = onPos >= 0 ? onPos + 1 : onTokens.length + this.offTokens.indexOf(index) + 1;
    const at = onTokens[onPos];
    const where = at ? tokenSpanText(at.start, at.end) : `in the ${d.where}`;
    replace(
      this.findingStrip,
      h('div', { class: 'finding-pos muted small' }, `finding ${pos} of ${total} · ${where}`),
      h('ul', { class: 'diag-list' }, diagnosticItem(d, null)),
    );
    this.findingStrip.hidden = false;
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
