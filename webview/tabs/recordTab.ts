/**
 * What a tab of the record's centre is. The record controller (recordController.ts) builds the tab bar and one panel
 * per tab listed in tabs/registry.ts, asks each tab whether it is offered for what is on screen, and has it fill its
 * own panel when it is shown and what it reads has changed. A tab never touches the page's DOM outside its panel; its
 * look is its own stylesheet, imported by its module.
 */
import type { Diagnostic } from '../../src/shared/diagnostic.ts';
import type { RecordView, TraceInfo } from '../../src/shared/protocol.ts';
import type { HostConnection } from '../hostConnection.ts';
import type { Stepbar } from '../stepbar.ts';
import type { Timeline } from '../timeline.ts';

/** What a tab shows: the trace open and the record selected (null until one has been read). */
export interface TabInput {
  readonly info: TraceInfo | null;
  readonly view: RecordView | null;
}

/** What the record controller lends its tabs. */
export interface TabServices {
  /** The host, for a tab that asks it for more (the vLLM tab runs a profile again). */
  readonly connection: HostConnection;
  /** The token timeline and its stepping controls: the page's keys and the inspector drive them; the home tab holds them. */
  readonly timeline: Timeline;
  readonly stepbar: Stepbar;
  /** Shows a record of this trace (by id) on the timeline with the cursor on a token, the timeline focused. */
  goToToken(recordId: string, token: number): void;
}

export interface RecordTab {
  /** Names the tab in the DOM (`tab-<id>`, `panel-<id>`, `data-tab`) and in the saved UI state. */
  readonly id: string;
  readonly label: string;
  /** The panel itself is in the tab order (a document read with the scrolling keys); false when its content takes the focus. */
  readonly focusablePanel: boolean;
  /** Whether the tab is offered: one that is not is hidden from the tab bar, and asking for it shows the home tab. */
  shownWhen(input: TabInput): boolean;
  /** Fills the panel. Called when the tab is shown and its input changed since; the home tab with every record. */
  render(input: TabInput, panel: HTMLElement): void;
  /** Whether a change of the trace (not of the record) changes what the tab shows; without it, only records do. */
  traceChanged?(before: TraceInfo | null, after: TraceInfo): boolean;
  /** A trace opened with no record chosen yet starts on this tab when it is offered (a results file on its figures). */
  readonly opensFreshTrace?: boolean;
  /** The tab has just been shown (the timeline measures its width again). */
  shown?(): void;
  /** Puts the keyboard focus in the tab's content. */
  focus?(): void;
  /** The tab shows this finding (one not on the tokens): finding navigation switches to it. */
  showsFinding?(d: Diagnostic): boolean;
  /** Marks the finding (its index in the record's diagnostics) as the active one in the rendered panel and scrolls to it. */
  revealFinding?(panel: HTMLElement, index: number): void;
}

/** What a tab module exports: the record controller calls it once, with its services, and keeps the tab it returns. */
export type TabFactory = (services: TabServices) => RecordTab;
