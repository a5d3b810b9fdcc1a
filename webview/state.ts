/**
 * The UI state that survives hiding the view and reloading it: which record, where the cursor was, panel
 * sizes, filters. Checked field by field when restored (an older build may have saved something else).
 * DOM-free; stateStore.ts saves it.
 */

export type SeverityFilter = '' | 'error' | 'warning' | 'info' | 'none';

export interface Filters {
  text: string;
  /** A diagnostic kind, or '' for any. */
  kind: string;
  severity: SeverityFilter;
  errorsOnly: boolean;
}

export interface UiState {
  v: 1;
  selectedKey: string | null;
  /** Cursor per record key, most recent last. */
  cursors: Record<string, number>;
  filters: Filters;
  listWidth: number;
  inspectorWidth: number;
  listCollapsed: boolean;
  inspectorCollapsed: boolean;
  /** The id of the tab shown in the centre (tabs/registry.ts); one no longer registered shows the home tab. */
  centreTab: string;
  /** Open/closed inspector sections by name. */
  sections: Record<string, boolean>;
  listScrollTop: number;
}

export const MAX_CURSORS = 100;

/** What a tab id looks like: the record controller falls back to the home tab for one that is not registered. */
const TAB_ID = /^[a-z][a-z0-9-]{0,39}$/;

export function defaultState(): UiState {
  return {
    v: 1,
    selectedKey: null,
    cursors: {},
    filters: { text: '', kind: '', severity: '', errorsOnly: false },
    listWidth: 300,
    inspectorWidth: 380,
    listCollapsed: false,
    inspectorCollapsed: false,
    // The home tab.
    centreTab: 'timeline',
    sections: {},
    listScrollTop: 0,
  };
}

const num = (v: unknown, min: number, max: number, d: number) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : d;
const bool = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);
const str = (v: unknown, d: string, max = 1000) => (typeof v === 'string' ? v.slice(0, max) : d);

export function restoreState(saved: unknown): UiState {
  const s = defaultState();
  if (typeof saved !== 'object' || saved === null) return s;
  const o = saved as Record<string, unknown>;
  if (o.v !== 1) return s;
  s.selectedKey = typeof o.selectedKey === 'string' ? o.selectedKey : null;
  if (typeof o.cursors === 'object' && o.cursors !== null) {
    for (const [k, v] of Object.entries(o.cursors as Record<string, unknown>).slice(-MAX_CURSORS)) {
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0) s.cursors[k] = v;
    }
  }
  const f = (typeof o.filters === 'object' && o.filters !== null ? o.filters : {}) as Record<string, unknown>;
  const severity = str(f.severity, '');
  s.filters = {
    text: str(f.text, ''),
    kind: str(f.kind, '', 100),
    severity: (['', 'error', 'warning', 'info', 'none'] as const).find((x) => x === severity) ?? '',
    errorsOnly: bool(f.errorsOnly, false),
  };
  s.listWidth = num(o.listWidth, 160, 1200, s.listWidth);
  s.inspectorWidth = num(o.inspectorWidth, 200, 1400, s.inspectorWidth);
  s.listCollapsed = bool(o.listCollapsed, false);
  s.inspectorCollapsed = bool(o.inspectorCollapsed, false);
  s.centreTab = typeof o.centreTab === 'string' && TAB_ID.test(o.centreTab) ? o.centreTab : s.centreTab;
  if (typeof o.sections === 'object' && o.sections !== null) {
    for (const [k, v] of Object.entries(o.sections as Record<string, unknown>)) if (typeof v === 'boolean') s.sections[k] = v;
  }
  s.listScrollTop = num(o.listScrollTop, 0, 1e9, 0);
  return s;
}
