/**
 * Saves the UI state through the host connection (VS Code's setState, or sessionStorage in a report), a moment
 * after the last change and when the page goes away.
 */
import type { HostConnection } from './hostConnection.ts';
import { MAX_CURSORS, restoreState, type UiState } from './state.ts';

/** Holds the state and saves it a moment after the last change (and when the page goes away). */
export class StateStore {
  readonly state: UiState;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly connection: HostConnection) {
    this.state = restoreState(connection.loadState());
    window.addEventListener('pagehide', () => this.flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.flush();
    });
  }

  update(change: (s: UiState) => void): void {
    change(this.state);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), 150);
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
