/**
 * The record list's rows drawn (recordList.ts), in the normal flow of one box moved by a single transform to the first
 * of them: a scroll moves one composited layer, not a transform per row (each a property node that made every frame
 * lay the whole page's paint out in layers again: Chromium's Layerize and PrePaint, ~9 ms a frame in the workbench
 * e2e's trace under load).
 */
import { h } from './dom.ts';
import { RecordRow } from './recordRow.ts';

export class RowWindow {
  readonly el = h('div', { class: 'list-window' });
  /** The rows in the window, in order: `rows[i]` shows position `first + i`. */
  rows: RecordRow[] = [];
  first = 0;
  /** Rows out of the window, kept to be filled again (a fling needs fewer rows than a slow scroll). */
  private readonly spare: RecordRow[] = [];
  /** The transform as last written. */
  private top = -1;

  /**
   * Holds `count` rows from position `first`, placed for rows `rowHeight` high, and returns them (to be filled).
   * Rows still in the window keep their place and what they show (a slow scroll refills the rows that came in, not
   * all of them): the rows that left at one end go to the other.
   */
  place(first: number, count: number, rowHeight: number): readonly RecordRow[] {
    const shift = first - this.first;
    const kept = this.rows.length;
    if (shift > 0 && shift < kept) {
      // Scrolled down: the rows that left at the top are appended, to show the rows coming in at the bottom.
      const left = this.rows.splice(0, shift);
      for (const row of left) this.el.appendChild(row.el);
      this.rows.push(...left);
    } else if (shift < 0 && -shift < kept) {
      const left = this.rows.splice(kept + shift, -shift);
      const before = this.rows[0]?.el ?? null;
      for (const row of left) this.el.insertBefore(row.el, before);
      this.rows.unshift(...left);
    }
    this.first = first;
    // As many rows as asked: taken from the spare ones (or made) at the end, or put aside from the end.
    while (this.rows.length < count) {
      const row = this.spare.pop() ?? new RecordRow();
      this.el.appendChild(row.el);
      this.rows.push(row);
    }
    while (this.rows.length > count) {
      const row = this.rows.pop() as RecordRow;
      row.el.remove();
      this.spare.push(row);
    }
    const top = first * rowHeight;
    if (top !== this.top) {
      this.top = top;
      this.el.style.transform = `translateY(${top}px)`;
    }
    return this.rows;
  }
}
