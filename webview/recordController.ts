/**
 * The open record: its head, its tabs (each a module in tabs/, listed in tabs/registry.ts) and their bar, the
 * timeline and its stepping, the inspector (right) following the cursor, and finding navigation over all of the
 * record's findings. The shell (shell.ts) gives it the records it reads from the host and the trace's info, and sends
 * it the stepping keys; it asks the shell back only through `RecordControllerHost`.
 */
import './recordController.css';
import type { GuidedFindings, RecordSummary, RecordView, TraceInfo } from '../src/shared/protocol.ts';
import { withGuidedFindings } from '../src/shared/guidedFindings.ts';
import { tokenSpanText } from '../src/shared/tokenNumbers.ts';
import { h, replace } from './dom.ts';
import type { HostConnection } from './hostConnection.ts';
import { recordHead } from './recordHead.ts';
import { Inspector } from './inspector.ts';
import { diagnosticItem } from './widgets.ts';
import { offTokenDiagnostics, stepDiagnostic, type AnchoredDiagnostic } from './navigation.ts';
import { CursorAnnouncer, cursorSentence } from './cursorAnnouncer.ts';
import type { StateStore } from './stateStore.ts';
import { Stepbar } from './stepbar.ts';
import { Stepper, type StepAction } from './stepping.ts';
import type { RecordTab, TabInput } from './tabs/recordTab.ts';
import { TABS } from './tabs/registry.ts';
import { Timeline } from './timeline.ts';

/** What the record controller asks of the shell around it. */
export interface RecordControllerHost {
  /** A short message in the top bar (a stepping boundary, a failed request). */
  flash(message: string): void;
  /** The listed record of this id, or null when it is not in the list (yet). */
  keyOfId(recordId: string): string | null;
  /** A listed record's summary (the record head names its file when the trace joins several). */
  summary(key: string): RecordSummary | null;
  /** Selects a record in the list and opens it with the focus on it, as Enter in the list does. */
  enterRecord(key: string): void;
}

/** A registered tab with its place in the page: its button in the tab bar, its panel, and whether it is stale. */
interface PlacedTab {
  readonly tab: RecordTab;
  readonly button: HTMLElement;
  readonly panel: HTMLElement;
  /** Its input changed since it last rendered. */
  dirty: boolean;
}

export class RecordController {
  /** The centre of the page (head, finding strip, tab bar and panels), the inspector, and the cursor's live region. */
  readonly centreEl: HTMLElement;
  readonly inspectorEl: HTMLElement;
  readonly announcerEl: HTMLElement;
  private readonly timeline: Timeline;
  private readonly inspector: Inspector;
  private readonly announcer = new CursorAnnouncer();
  private readonly stepper: Stepper;
  private readonly stepbar: Stepbar;
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
  private revealTab: string | null = null;

  constructor(
    private readonly store: StateStore,
    private readonly connection: HostConnection,
    private readonly host: RecordControllerHost,
  ) {
    this.timeline = new Timeline({ onChipClick: (token) => this.stepper.moveTo(token) });
    this.inspector = new Inspector({
      sections: store.state.sections,
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
      onBoundary: (action) => this.host.flash(boundaryMessage(action)),
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

    this.centreEl = h(
      'main',
      { class: 'centre', 'aria-label': 'Record' },
      this.recordHead,
      this.findingStrip,
      this.tabBar(),
      this.tabs.map((t) => t.panel),
    );
    this.inspectorEl = this.inspector.el;
    this.announcerEl = this.announcer.el;
    this.syncTabBar();
  }

  /** The key of the record on screen, or null. */
  get key(): string | null {
    return this.view?.key ?? null;
  }

  /** The page is in the document: the saved tab is shown (the timeline measures itself). */
  showSavedTab(): void {
    this.showTab(this.store.state.centreTab);
  }

  /** The trace's info, new or again (every batch of rows brings it); `freshTrace`: opened with nothing selected yet. */
  setInfo(info: TraceInfo, freshTrace: boolean): void {
    const before = this.info;
    this.info = info;
    this.syncTabBar();
    for (const t of this.tabs) {
      if (!t.tab.traceChanged?.(before, info)) continue;
      t.dirty = true;
      // A results file opened fresh (nothing selected yet) starts on its figures.
      const fresh = t.tab.opensFreshTrace && !t.button.hidden && freshTrace;
      if (fresh || this.store.state.centreTab === t.tab.id) this.showTab(t.tab.id);
    }
  }

  /** The next record shown opens on this tab (a `reveal` from the host: a Problems entry, a replay's Compare). */
  revealOnNextRecord(tab: string): void {
    this.revealTab = tab;
    this.store.update((s) => (s.centreTab = tab));
  }

  /** The what-if answered for the record on screen: the same record with more findings (the cursor stays, playing goes on). */
  addGuidedFindings(f: GuidedFindings): void {
    const shown = this.view;
    if (shown?.key !== f.key || !shown.guidedPending) return;
    const playing = this.stepper.playing;
    this.show(withGuidedFindings(shown, f));
    if (playing) this.stepper.togglePlay();
  }

  /** The record head says this instead of a record (loading, an error, an empty list). */
  showMessage(message: string): void {
    this.showRecordHead(null, message);
  }

  /** Puts the focus in the record: the timeline when it has tokens, else the home tab's document. */
  focus(): void {
    if (this.view && this.view.tokens.length) this.showTab(this.home.tab.id);
    this.home.tab.focus?.();
  }

  /** The side panels changed width: the timeline lays out again. */
  relayout(): void {
    this.timeline.relayout();
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

  /** A record of this trace on the timeline, the cursor on `token` (a parting point's "Step there"). */
  private goToToken(recordId: string, token: number): void {
    const key = this.host.keyOfId(recordId);
    if (key === null) return;
    this.store.update((s) => {
      s.cursors[key] = token;
      s.centreTab = this.home.tab.id;
    });
    if (this.view?.key === key) {
      this.showTab(this.home.tab.id);
      this.stepper.moveTo(token);
      this.focus();
    } else this.host.enterRecord(key);
  }

  /** Shows a record (null: none) with the cursor where it was left, on the tab open (or the one a `reveal` asked for). */
  show(view: RecordView | null): void {
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
    const file = view ? this.host.summary(view.key)?.file : undefined;
    replace(this.recordHead, ...recordHead(view, message, file, () => view && void this.openRaw(view.key)));
  }

  private async openRaw(key: string): Promise<void> {
    const reply = await this.connection.request({ type: 'openRaw', key });
    if (reply.type === 'error') this.host.flash(`Could not open the raw record: ${reply.message}`);
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

  /** A stepping action from a key, the toolbar or the workbench: findings go everywhere, the rest on the timeline. */
  perform(action: StepAction): void {
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
    const boundary = () => this.host.flash(`No ${dir === 1 ? 'later' : 'earlier'} finding in this record.`);
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
