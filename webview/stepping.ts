/**
 * The cursor over a record's tokens and the keys that move it: token, marker, tool call, diagnostic, ends,
 * and auto-play. The webview owns these keys while it has focus, except where a control needs them.
 */
import type { RecordView } from '../src/shared/protocol.ts';
import {
  anchoredDiagnostics,
  indicesWhere,
  isMarker,
  nextAfter,
  prevBefore,
  stepDiagnostic,
  type AnchoredDiagnostic,
} from './navigation.ts';

export type StepAction =
  'prev' | 'next' | 'prevMarker' | 'nextMarker' | 'prevCall' | 'nextCall' | 'prevDiag' | 'nextDiag' | 'first' | 'last' | 'play' | 'help';

/** Tokens per second while playing. */
export const PLAY_RATE = 20;
/** With `prefers-reduced-motion: reduce`: a calm pace a reader can follow, not a stream of changes. */
export const REDUCED_PLAY_RATE = 2;

function playRate(): number {
  // globalThis: this module is also loaded by the DOM-free unit tests.
  const media = (globalThis as { matchMedia?: (q: string) => { matches: boolean } }).matchMedia;
  return media?.('(prefers-reduced-motion: reduce)').matches ? REDUCED_PLAY_RATE : PLAY_RATE;
}

export const KEY_HELP: ReadonlyArray<{ keys: string[]; action: string }> = [
  { keys: ['←', '→'], action: 'Previous / next token' },
  { keys: ['↑', '↓', '[', ']'], action: 'Previous / next marker (special token)' },
  { keys: ['p', 'n'], action: 'Previous / next tool call' },
  { keys: ['E', 'e'], action: 'Previous / next diagnostic (Shift+E goes back)' },
  { keys: ['Home', 'End'], action: 'First / last token' },
  { keys: ['Space'], action: `Play / pause (${PLAY_RATE} tokens per second; ${REDUCED_PLAY_RATE} with reduced motion)` },
  { keys: ['↑', '↓', 'Enter'], action: 'In the record list: move, open and go to the timeline' },
  { keys: ['Ctrl+C'], action: 'Copy the selection (real whitespace) or the token at the cursor' },
  { keys: ['?'], action: 'This help' },
  { keys: ['Esc'], action: 'Close help, the raw record, or the record list / inspector shown over a narrow editor' },
];

export function actionForKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): StepAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'ArrowLeft':
      return 'prev';
    case 'ArrowRight':
      return 'next';
    case 'ArrowUp':
    case '[':
      return 'prevMarker';
    case 'ArrowDown':
    case ']':
      return 'nextMarker';
    case 'n':
      return 'nextCall';
    case 'p':
      return 'prevCall';
    case 'e':
      return 'nextDiag';
    case 'E':
      return 'prevDiag';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case ' ':
      return 'play';
    case '?':
      return 'help';
    default:
      return null;
  }
}

export interface StepperOptions {
  onChange(cursor: number, activeDiag: AnchoredDiagnostic | null): void;
  onPlayChange(playing: boolean): void;
  /** Nothing to go to in that direction. */
  onBoundary(action: StepAction): void;
}

export class Stepper {
  private view: RecordView | null = null;
  private markers: number[] = [];
  private callStarts: number[] = [];
  private diags: AnchoredDiagnostic[] = [];
  private active: number | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  cursor = 0;

  constructor(private readonly opts: StepperOptions) {}

  get tokenCount(): number {
    return this.view?.tokens.length ?? 0;
  }

  get playing(): boolean {
    return this.timer !== undefined;
  }

  get activeDiagnostic(): AnchoredDiagnostic | null {
    return this.active === null ? null : (this.diags[this.active] ?? null);
  }

  setRecord(view: RecordView | null, cursor: number): void {
    this.stop();
    this.view = view;
    const tokens = view?.tokens ?? [];
    this.markers = indicesWhere(tokens, isMarker);
    this.callStarts = [...new Set((view?.calls ?? []).filter((c) => c.tokenEnd > c.tokenStart).map((c) => c.tokenStart))].sort(
      (a, b) => a - b,
    );
    this.diags = view ? anchoredDiagnostics(view) : [];
    this.active = null;
    this.cursor = Math.max(0, Math.min(cursor, tokens.length - 1));
  }

  /** Moves to a token (a click, a link in the inspector). */
  moveTo(token: number, diagnosticIndex: number | null = null): void {
    const n = this.tokenCount;
    if (n === 0) return;
    this.cursor = Math.max(0, Math.min(token, n - 1));
    this.active = diagnosticIndex === null ? null : this.diags.findIndex((d) => d.index === diagnosticIndex);
    if (this.active === -1) this.active = null;
    this.opts.onChange(this.cursor, this.activeDiagnostic);
  }

  /** Performs a stepping action; false when there was nothing to do. */
  perform(action: StepAction): boolean {
    const n = this.tokenCount;
    if (n === 0 || action === 'help') return false;
    if (action === 'play') {
      this.togglePlay();
      return true;
    }
    const c = this.cursor;
    let target: number | null = null;
    switch (action) {
      case 'prev':
        target = c > 0 ? c - 1 : null;
        break;
      case 'next':
        target = c < n - 1 ? c + 1 : null;
        break;
      case 'prevMarker':
        target = prevBefore(this.markers, c);
        break;
      case 'nextMarker':
        target = nextAfter(this.markers, c);
        break;
      case 'prevCall':
        target = prevBefore(this.callStarts, c);
        break;
      case 'nextCall':
        target = nextAfter(this.callStarts, c);
        break;
      case 'first':
        target = 0;
        break;
      case 'last':
        target = n - 1;
        break;
      case 'prevDiag':
      case 'nextDiag': {
        const i = stepDiagnostic(this.diags, c, this.active, action === 'nextDiag' ? 1 : -1);
        if (i === null) {
          this.opts.onBoundary(action);
          return false;
        }
        this.active = i;
        this.cursor = (this.diags[i] as AnchoredDiagnostic).start;
        this.opts.onChange(this.cursor, this.activeDiagnostic);
        return true;
      }
    }
    if (target === null) {
      this.opts.onBoundary(action);
      return false;
    }
    this.cursor = target;
    this.active = null;
    this.opts.onChange(this.cursor, null);
    return true;
  }

  togglePlay(): void {
    if (this.playing) {
      this.stop();
      return;
    }
    const n = this.tokenCount;
    if (n === 0) return;
    // Playing from the end starts over.
    if (this.cursor >= n - 1) this.moveTo(0);
    this.timer = setInterval(() => {
      if (this.cursor >= this.tokenCount - 1) {
        this.stop();
        return;
      }
      this.cursor++;
      this.active = null;
      this.opts.onChange(this.cursor, null);
      if (this.cursor >= this.tokenCount - 1) this.stop();
    }, 1000 / playRate());
    this.opts.onPlayChange(true);
  }

  stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.opts.onPlayChange(false);
  }
}
