/**
 * Saves the UI state through the host connection (VS Code's setState, or sessionStorage in a report), a moment
 * after the last change and when the page goes away.
 */
import type { HostConnection } from './hostConnection.ts';
import { MAX_CURSORS, restoreState, type UiState } from './state.ts';

/** How long the state stays unchanged before it is saved, ms. */
const SAVE_AFTER_MS = 150;

/** Holds the state and saves it a moment after the last change (and when the page goes away). */
export class StateStore {
  readonly state: UiState;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the state last changed: the timer, when it fires early, waits for the rest of SAVE_AFTER_MS. */
  private changedAt = 0;

  constructor(private readonly connection: HostConnection) {
    this.state = restoreState(connection.loadState());
    window.addEventListener('pagehide', () => this.flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.flush();
    });
  }

  update(change: (s: UiState) => void): void {
    change(this.state);
    // One timer for a run of changes (a scrolled list changes the state every frame; a timer cleared and set again
    // each time cost the frame more than the change).
    this.changedAt = performance.now();
    this.timer ??= setTimeout(() => this.saveWhenQuiet(), SAVE_AFTER_MS);
  }

  private saveWhenQuiet(): void {
    const wait = this.changedAt + SAVE_AFTER_MS - performance.now();
    if (wait > 1) this.timer = setTimeout(() => this.saveWhenQuiet(), wait);
    else this.flush();
  }

  setCursor(key: string, cursor: number): void {
    this.update((s) => {
      delete s.cursors[key];
      s.cursors[key] = cursor;
      const keys = Object.keys(s.cursors);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_CURSORS))) delete s.cursors[k];
    });
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.connection.saveState(this.state);
  }
}
