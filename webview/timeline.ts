/**
 * The completion as token chips in a virtualised monospace flow: rows of fixed height, only the rows in view
 * (plus a margin) exist in the DOM, so a 100k-token record opens as fast as a short one. Chips are coloured by
 * role, special tokens show their text, whitespace is visible (and copies as itself), approximate boundaries
 * are dashed, logprobs shade the chip, and diagnostics underline exactly the tokens they anchor to.
 */
import './timeline.css';
import type { RecordView, TokenView } from '../src/shared/protocol.ts';
import { clip, h } from './dom.ts';
import { displayRuns, layoutTokens, type TimelineLayout } from './layout.ts';
import { anchoredDiagnostics, type AnchoredDiagnostic } from './navigation.ts';

/** Padding (2 × 2px) + border (2 × 1px) + gap (1px) of a chip, px: must match `.chip` in timeline.css. */
const CHIP_EXTRA = 7;
/** Left and right padding of the rows, px. */
const ROW_PADDING = 8;
const OVERSCAN_ROWS = 6;
const SEVERITY_ORDER = { error: 3, warning: 2, info: 1 } as const;

export interface TimelineOptions {
  onChipClick(token: number): void;
}

function logprobClass(logprob: number | undefined): string {
  if (logprob === undefined) return '';
  const p = Math.exp(logprob);
  if (p >= 0.9) return '';
  if (p >= 0.6) return ' lp1';
  if (p >= 0.3) return ' lp2';
  if (p >= 0.1) return ' lp3';
  return ' lp4';
}

export function tokenTitle(t: TokenView, i: number, n: number, diags: readonly AnchoredDiagnostic[]): string {
  const parts = [`token ${i + 1} / ${n} · ${t.role}`, `parser state after: ${t.state}`];
  if (t.id !== undefined) parts.push(`id ${t.id}`);
  if (t.logprob !== undefined) parts.push(`logprob ${t.logprob.toFixed(4)} (p = ${Math.exp(t.logprob).toFixed(3)})`);
  if (t.approximate) parts.push('boundary approximate');
  let title = parts.join(' · ');
  for (const d of diags) {
    title += `\n${d.diagnostic.severity} ${d.diagnostic.code}: ${clip(d.diagnostic.message, 400)}`;
    if (d.diagnostic.hint) title += `\n  hint: ${clip(d.diagnostic.hint, 400)}`;
  }
  return title;
}

export class Timeline {
  readonly el: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly measure: HTMLElement;
  private view: RecordView | null = null;
  private texts: string[] = [];
  private layout: TimelineLayout | null = null;
  private layoutWidth = -1;
  private charWidth = 0;
  private rowHeight = 22;
  private cursor = 0;
  private diags: AnchoredDiagnostic[] = [];
  private activeDiag: AnchoredDiagnostic | null = null;
  private readonly rows = new Map<number, HTMLElement>();
  private readonly chips = new Map<number, HTMLElement[]>();
  private frame = 0;

  constructor(private readonly opts: TimelineOptions) {
    this.spacer = h('div', { class: 'tl-spacer', role: 'none' });
    this.measure = h('span', { class: 'chip chip-measure', 'aria-hidden': 'true' }, 'x'.repeat(64));
    this.el = h(
      'div',
      {
        class: 'timeline',
        role: 'listbox',
        tabindex: 0,
        'aria-label': 'Completion tokens',
        'aria-roledescription': 'token timeline',
        'aria-orientation': 'horizontal',
      },
      this.measure,
      this.spacer,
    );
    this.el.addEventListener('scroll', () => this.schedule());
    this.el.addEventListener('click', (e) => {
      const chip = (e.target as Element).closest<HTMLElement>('.chip[data-i]');
      if (!chip) return;
      // Keep a text selection the user is making.
      const sel = document.getSelection();
      if (sel && !sel.isCollapsed && this.el.contains(sel.anchorNode)) return;
      this.el.focus({ preventScroll: true });
      this.opts.onChipClick(Number(chip.dataset.i));
    });
    document.addEventListener('copy', (e) => this.onCopy(e));
    // Columns depend on the font's width: lay out again once web fonts are in, if they changed it.
    void document.fonts?.ready.then(() => {
      if (this.view && this.fontChanged()) this.relayout();
    });
    new ResizeObserver(() => {
      if (this.view && this.usableWidth() !== this.layoutWidth) this.relayout();
      else this.schedule();
    }).observe(this.el);
  }

  get tokenCount(): number {
    return this.texts.length;
  }

  setRecord(view: RecordView | null, cursor: number): void {
    this.view = view;
    this.texts = view ? view.tokens.map((t) => t.text) : [];
    this.diags = view ? anchoredDiagnostics(view) : [];
    this.activeDiag = null;
    this.cursor = Math.max(0, Math.min(cursor, this.texts.length - 1));
    this.layout = null;
    this.layoutWidth = -1;
    this.el.scrollTop = 0;
    this.relayout();
  }

  get diagnostics(): readonly AnchoredDiagnostic[] {
    return this.diags;
  }

  focus(): void {
    this.el.focus({ preventScroll: true });
  }

  /** Moves the cursor, scrolls it into view, and updates only the chips that change. */
  setCursor(cursor: number, activeDiag: AnchoredDiagnostic | null): void {
    const old = this.cursor;
    const oldDiag = this.activeDiag;
    this.cursor = Math.max(0, Math.min(cursor, this.texts.length - 1));
    this.activeDiag = activeDiag;
    this.scrollToCursor();
    if (oldDiag?.index !== activeDiag?.index) {
      // The active diagnostic's range changes: redraw the rows in view.
      this.render(true);
      return;
    }
    for (const c of this.chips.get(old) ?? []) {
      c.classList.remove('cursor');
      c.setAttribute('aria-selected', 'false');
    }
    this.markCursor();
  }

  private markCursor(): void {
    const chips = this.chips.get(this.cursor) ?? [];
    for (const c of chips) {
      c.classList.add('cursor');
      c.setAttribute('aria-selected', 'true');
    }
    if (chips.length) this.el.setAttribute('aria-activedescendant', `tok-${this.cursor}`);
    else this.el.removeAttribute('aria-activedescendant');
  }

  private usableWidth(): number {
    return Math.max(0, this.el.clientWidth - 2 * ROW_PADDING - 4);
  }

  private measureFont(): void {
    const r = this.measure.getBoundingClientRect();
    if (r.width > 0) this.charWidth = (r.width - CHIP_EXTRA) / 64;
    if (r.height > 0) this.rowHeight = Math.max(18, Math.ceil(r.height) + 4);
  }

  /** Whether the font measures differently now than when the tokens were laid out. */
  private fontChanged(): boolean {
    const [charWidth, rowHeight] = [this.charWidth, this.rowHeight];
    this.measureFont();
    return charWidth !== this.charWidth || rowHeight !== this.rowHeight;
  }

  /**
   * Its tab is shown: laid out now if its record came while it was hidden (no width then). A width changed while it
   * was hidden is the ResizeObserver's, before the frame paints; laying out again for the width it has rebuilt every
   * row in view for nothing (the first paint showed the tab twice).
   */
  shown(): void {
    if (this.view && !this.layout) this.relayout();
  }

  /** Lays the tokens out again for the current width (after a resize or a new record). */
  relayout(): void {
    const width = this.usableWidth();
    if (!this.view || width <= 0) {
      this.clearRows();
      this.spacer.style.height = '0px';
      return;
    }
    this.measureFont();
    this.layoutWidth = width;
    this.layout = layoutTokens(this.texts, { charWidth: this.charWidth, chipExtra: CHIP_EXTRA, width });
    this.spacer.style.height = `${this.layout.rows * this.rowHeight}px`;
    this.clearRows();
    this.scrollCursorIntoView();
    this.render(true);
  }

  private clearRows(): void {
    for (const row of this.rows.values()) row.remove();
    this.rows.clear();
    this.chips.clear();
  }

  /** Scrolls the cursor's row into view and draws the rows in view that are not drawn yet. */
  private scrollToCursor(): void {
    this.scrollCursorIntoView();
    this.render(false);
  }

  private scrollCursorIntoView(): void {
    if (!this.layout || this.texts.length === 0) return;
    const row = this.layout.tokenRow[this.cursor] ?? 0;
    const top = row * this.rowHeight;
    const height = this.el.clientHeight;
    const margin = Math.min(2 * this.rowHeight, height / 4);
    if (top < this.el.scrollTop + margin) this.el.scrollTop = Math.max(0, top - margin);
    else if (top + this.rowHeight > this.el.scrollTop + height - margin) this.el.scrollTop = top + this.rowHeight + margin - height;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(false);
    });
  }

  /** Renders the rows in view (± overscan); `force` rebuilds rows already there. */
  private render(force: boolean): void {
    const layout = this.layout;
    const view = this.view;
    if (!layout || !view) return;
    const height = this.el.clientHeight || this.rowHeight * 30;
    const first = Math.max(0, Math.floor(this.el.scrollTop / this.rowHeight) - OVERSCAN_ROWS);
    const last = Math.min(layout.rows - 1, Math.ceil((this.el.scrollTop + height) / this.rowHeight) + OVERSCAN_ROWS);
    for (const [r, row] of this.rows) {
      if (r < first || r > last || force) {
        row.remove();
        this.rows.delete(r);
        this.forgetRowChips(layout, r);
      }
    }
    for (let r = first; r <= last; r++) {
      if (this.rows.has(r)) continue;
      const row = this.buildRow(layout, view, r);
      this.rows.set(r, row);
      this.spacer.appendChild(row);
    }
    this.markCursor();
  }

  private forgetRowChips(layout: TimelineLayout, r: number): void {
    const s0 = layout.rowStart[r] ?? 0;
    const s1 = layout.rowStart[r + 1] ?? s0;
    for (let s = s0; s < s1; s++) {
      const t = layout.segToken[s] as number;
      const list = this.chips.get(t);
      if (!list) continue;
      const kept = list.filter((c) => c.isConnected && c.parentElement?.dataset.row !== String(r));
      if (kept.length) this.chips.set(t, kept);
      else this.chips.delete(t);
    }
  }

  private buildRow(layout: TimelineLayout, view: RecordView, r: number): HTMLElement {
    const row = h('div', { class: 'tl-row', role: 'none', 'data-row': r });
    row.style.transform = `translateY(${r * this.rowHeight}px)`;
    row.style.height = `${this.rowHeight}px`;
    const s0 = layout.rowStart[r] ?? 0;
    const s1 = layout.rowStart[r + 1] ?? s0;
    if (s1 <= s0) return row;
    const tFirst = layout.segToken[s0] as number;
    const tLast = layout.segToken[s1 - 1] as number;
    const rowDiags = this.diags.filter((d) => d.start <= tLast && d.end > tFirst);
    const n = view.tokens.length;
    for (let s = s0; s < s1; s++) {
      const t = layout.segToken[s] as number;
      const from = layout.segFrom[s] as number;
      const to = layout.segTo[s] as number;
      const tok = view.tokens[t] as TokenView;
      const here = rowDiags.filter((d) => d.start <= t && t < d.end);
      let cls = `chip role-${tok.role}`;
      if (tok.special) cls += ' special';
      if (tok.approximate) cls += ' approx';
      cls += logprobClass(tok.logprob);
      if (here.length) {
        let worst: keyof typeof SEVERITY_ORDER = 'info';
        for (const d of here) if (SEVERITY_ORDER[d.diagnostic.severity] > SEVERITY_ORDER[worst]) worst = d.diagnostic.severity;
        cls += ` diag diag-${worst}`;
        const active = this.activeDiag;
        if (active && here.some((d) => d.index === active.index)) cls += ' diag-active';
        // Where guided decoding would have stepped in: a marker of its own, not just another underline.
        if (here.some((d) => d.diagnostic.kind === 'guided-would-block')) cls += ' guided-block';
      }
      if (from > 0) cls += ' cont-start';
      if (to < tok.text.length) cls += ' cont-end';
      if (tok.text.length === 0) cls += ' empty';
      const firstSeg = from === 0;
      // Leading and trailing whitespace (most of it) is drawn by ::before / ::after from data attributes: the
      // glyphs cost no element, and copying still gives the real text (see positionOf).
      const runs = displayRuns(tok.text, from, to);
      const lead = runs[0]?.ws ? (runs.shift() as { text: string }).text : '';
      const trail = runs.length && runs[runs.length - 1]?.ws ? (runs.pop() as { text: string }).text : '';
      const chip = h('span', {
        class: cls,
        'data-i': t,
        'data-from': from,
        'data-diags': here.length ? here.map((d) => d.index).join(' ') : null,
        'data-lead': lead || null,
        'data-trail': trail || null,
        id: firstSeg ? `tok-${t}` : null,
        role: firstSeg ? 'option' : 'none',
        'aria-selected': firstSeg ? 'false' : null,
        'aria-posinset': firstSeg ? t + 1 : null,
        'aria-setsize': firstSeg ? n : null,
        title: tokenTitle(tok, t, n, here),
      });
      for (const run of runs) {
        if (run.ws) chip.appendChild(h('span', { class: 'ws' }, run.text));
        else chip.appendChild(document.createTextNode(run.text));
      }
      const list = this.chips.get(t);
      if (list) list.push(chip);
      else this.chips.set(t, [chip]);
      row.appendChild(chip);
    }
    return row;
  }

  /** Copying from the timeline gives the real text (spaces, newlines), not the glyphs shown for them. */
  private onCopy(e: ClipboardEvent): void {
    if (!this.view || !e.clipboardData) return;
    const sel = document.getSelection();
    let text: string | null = null;
    if (sel && !sel.isCollapsed && sel.anchorNode && sel.focusNode && this.el.contains(sel.anchorNode) && this.el.contains(sel.focusNode)) {
      const a = this.positionOf(sel.anchorNode, sel.anchorOffset);
      const b = this.positionOf(sel.focusNode, sel.focusOffset);
      if (a && b) {
        const [p, q] = a.token < b.token || (a.token === b.token && a.offset <= b.offset) ? [a, b] : [b, a];
        text = this.textBetween(p, q);
      }
    } else if ((!sel || sel.isCollapsed) && this.el.contains(document.activeElement)) {
      text = this.view.tokens[this.cursor]?.text ?? null;
    }
    if (text === null) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
  }

  private positionOf(node: Node, offset: number): { token: number; offset: number } | null {
    const el = node instanceof Element ? node : node.parentElement;
    const chip = el?.closest<HTMLElement>('.chip[data-i]');
    if (!chip) return null;
    // Children start after the leading glyphs (drawn by ::before, not in the DOM).
    let chars = chip.dataset.lead?.length ?? 0;
    if (node === chip) {
      if (offset === 0) chars = 0;
      for (let i = 0; i < offset && i < chip.childNodes.length; i++) chars += chip.childNodes[i]?.textContent?.length ?? 0;
    } else {
      for (const child of chip.childNodes) {
        if (child === node || child.contains(node)) {
          chars += offset;
          break;
        }
        chars += child.textContent?.length ?? 0;
      }
    }
    return { token: Number(chip.dataset.i), offset: Number(chip.dataset.from) + chars };
  }

  private textBetween(a: { token: number; offset: number }, b: { token: number; offset: number }): string {
    const tokens = this.view?.tokens ?? [];
    if (a.token === b.token) return (tokens[a.token]?.text ?? '').slice(a.offset, b.offset);
    let out = (tokens[a.token]?.text ?? '').slice(a.offset);
    for (let t = a.token + 1; t < b.token; t++) out += tokens[t]?.text ?? '';
    return out + (tokens[b.token]?.text ?? '').slice(0, b.offset);
  }
}
