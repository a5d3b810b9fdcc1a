/**
 * Side panels at every width. Wide, the record list and the inspector sit beside the centre and the top-bar
 * toggles collapse them (remembered). Narrow (the breakpoints below, matched in webview/shell.css), they float
 * over the centre instead: closed until opened from the top bar, closed again with Escape or, for the list, by
 * opening a record. Overlay openness is not saved: the next narrow view starts on the record.
 */
export type SidePanel = 'list' | 'inspector';

/** Keep in step with the `narrow widths` section of shell.css. */
const OVERLAY_QUERY: Record<SidePanel, string> = {
  list: '(max-width: 999px)',
  inspector: '(max-width: 699px)',
};

export interface PanelModesOptions {
  collapsed(panel: SidePanel): boolean;
  setCollapsed(panel: SidePanel, collapsed: boolean): void;
  /** A panel was shown or hidden (the toggles follow). */
  onChange(): void;
}

export class PanelModes {
  private readonly queries = new Map<SidePanel, MediaQueryList>();

  constructor(
    private readonly layout: HTMLElement,
    private readonly opts: PanelModesOptions,
  ) {
    for (const panel of ['list', 'inspector'] as const) {
      const q = window.matchMedia(OVERLAY_QUERY[panel]);
      this.queries.set(panel, q);
      q.addEventListener('change', () => {
        this.layout.classList.remove(`${panel}-open`);
        this.opts.onChange();
      });
    }
  }

  overlay(panel: SidePanel): boolean {
    return this.queries.get(panel)?.matches ?? false;
  }

  shown(panel: SidePanel): boolean {
    return this.overlay(panel) ? this.layout.classList.contains(`${panel}-open`) : !this.opts.collapsed(panel);
  }

  show(panel: SidePanel, shown: boolean): void {
    if (this.overlay(panel)) {
      // One overlay at a time: two would cover the whole centre.
      for (const p of ['list', 'inspector'] as const) this.layout.classList.toggle(`${p}-open`, p === panel && shown);
    } else this.opts.setCollapsed(panel, !shown);
    this.opts.onChange();
  }

  /** Closes an open overlay; false when none was open. */
  closeOverlay(): SidePanel | null {
    for (const p of ['list', 'inspector'] as const) {
      if (this.overlay(p) && this.layout.classList.contains(`${p}-open`)) {
        this.layout.classList.remove(`${p}-open`);
        this.opts.onChange();
        return p;
      }
    }
    return null;
  }
}
