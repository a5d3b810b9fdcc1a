/**
 * The stepping toolbar over the timeline: token, marker, call and finding buttons, play / pause, and the cursor's
 * position. The buttons perform stepping actions; the stepper stays the truth for playing (it reports back through
 * setPlaying).
 */
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import { h } from './dom.ts';
import type { StepAction } from './stepping.ts';

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

export interface StepbarOptions {
  perform(action: StepAction): void;
  /** Plays or pauses; returns whether it now plays. */
  togglePlay(): boolean;
}

export class Stepbar {
  readonly el: HTMLElement;
  private readonly playButton: ToolbarButton;
  private readonly positionEl = h('span', { class: 'position', 'aria-label': 'Cursor position' });

  constructor(opts: StepbarOptions) {
    this.playButton = h(
      'vscode-toolbar-button',
      { toggleable: true, label: 'Play (Space)', title: 'Play / pause (Space)', class: 'play' },
      '▶ Play',
    ) as ToolbarButton;
    // The button toggles itself; the stepper is the truth.
    this.playButton.addEventListener('click', () => (this.playButton.checked = opts.togglePlay()));
    this.el = h(
      'div',
      { class: 'stepbar', role: 'toolbar', 'aria-label': 'Stepping' },
      STEP_BUTTONS.map((group) =>
        h(
          'span',
          { class: 'step-group' },
          group.map((b) => {
            const el = h('vscode-toolbar-button', { label: b.label, title: b.label, 'data-action': b.action }, b.text);
            el.addEventListener('click', () => opts.perform(b.action));
            return el;
          }),
        ),
      ),
      this.playButton,
      this.positionEl,
    );
  }

  setPlaying(playing: boolean): void {
    this.playButton.checked = playing;
    this.playButton.textContent = playing ? '❚❚ Pause' : '▶ Play';
    this.playButton.setAttribute('label', playing ? 'Pause (Space)' : `Play (Space)`);
  }

  /** The cursor as `token i / n`; empty when there are no tokens. */
  setPosition(text: string): void {
    this.positionEl.textContent = text;
  }
}
