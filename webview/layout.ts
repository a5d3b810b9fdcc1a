/**
 * Token timeline layout, DOM-free so it can be tested in Node: tokens flow into fixed-height rows of a
 * monospace grid, breaking after newlines and where a row is full. A token longer than a row, or one holding
 * newlines, becomes several segments. Whitespace and control characters are shown as one glyph each, so a
 * displayed offset is a text offset and copying can hand back the real text.
 */
import { isBidiControl } from './bidiControls.ts';

/** The timeline's one-cell stand-in for a bidirectional control character (copied as it is shown). */
export const BIDI_GLYPH = '⇄';

export interface LayoutMetrics {
  /** Width of one monospace cell, px. */
  charWidth: number;
  /** Padding, border and gap around a chip, px. */
  chipExtra: number;
  /** Usable row width, px. */
  width: number;
}

export interface TimelineLayout {
  rows: number;
  /** First segment of each row; `rowStart[rows]` is the segment count. */
  rowStart: Int32Array;
  segToken: Int32Array;
  /** Segment's text range inside its token (UTF-16 offsets). */
  segFrom: Int32Array;
  segTo: Int32Array;
  /** Row of each token's first segment. */
  tokenRow: Int32Array;
}

/** The visible stand-in for a whitespace or control character (one code unit for one), or null. */
export function glyphFor(code: number): string | null {
  switch (code) {
    case 0x20:
      return '·';
    case 0x0a:
      return '↵';
    case 0x09:
      return '→';
    case 0x0d:
      return '␍';
    case 0xa0:
      return '⍽';
    case 0x200b:
    case 0x200c:
    case 0x200d:
    case 0x2060:
    case 0xfeff:
      return '¦';
    default:
      if (code < 0x20) return String.fromCharCode(0x2400 + code);
      if (code === 0x7f) return '␡';
      // Never applied: it would reorder the tokens around it (the token's tooltip shows it as an escape).
      if (isBidiControl(code)) return BIDI_GLYPH;
      return null;
  }
}

/** The character a glyph stands for (zero-width characters all show as ¦ and copy as U+200B). */
export function unglyph(shown: string): string {
  let out = '';
  for (const ch of shown) {
    const code = ch.codePointAt(0) as number;
    if (ch === '·') out += ' ';
    else if (ch === '↵') out += '\n';
    else if (ch === '→') out += '\t';
    else if (ch === '␍') out += '\r';
    else if (ch === '⍽') out += '\u00a0';
    else if (ch === '¦') out += '\u200b';
    else if (ch === '␡') out += '\u007f';
    else if (code >= 0x2400 && code < 0x2420) out += String.fromCharCode(code - 0x2400);
    else out += ch;
  }
  return out;
}

/** Display runs of `text[from, to)`: plain text, or whitespace shown as glyphs. */
export function displayRuns(text: string, from = 0, to = text.length): Array<{ ws: boolean; text: string }> {
  const runs: Array<{ ws: boolean; text: string }> = [];
  let plainStart = from;
  let i = from;
  while (i < to) {
    const g = glyphFor(text.charCodeAt(i));
    if (g === null) {
      i++;
      continue;
    }
    if (i > plainStart) runs.push({ ws: false, text: text.slice(plainStart, i) });
    let glyphs = '';
    while (i < to) {
      const gg = glyphFor(text.charCodeAt(i));
      if (gg === null) break;
      glyphs += gg;
      i++;
    }
    runs.push({ ws: true, text: glyphs });
    plainStart = i;
  }
  if (to > plainStart) runs.push({ ws: false, text: text.slice(plainStart, to) });
  return runs;
}

/** Monospace cells of one UTF-16 code unit: East Asian wide characters take two, combining marks none. */
export function cellsOf(code: number): number {
  if (code < 0x300) return 1;
  if (code <= 0x36f) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6)
  )
    return 2;
  // A surrogate pair (emoji, rare CJK) counts one per unit: two cells.
  return 1;
}

class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export function layoutTokens(texts: readonly string[], m: LayoutMetrics): TimelineLayout {
  const cw = Math.max(1, m.charWidth);
  const width = Math.max(cw * 4 + m.chipExtra, m.width);
  const n = texts.length;
  const rowStart = new IntList(Math.ceil(n / 8) + 2);
  const segToken = new IntList(n + 16);
  const segFrom = new IntList(n + 16);
  const segTo = new IntList(n + 16);
  const tokenRow = new Int32Array(n);
  let x = 0;
  let row = 0;
  rowStart.push(0);
  const newRow = () => {
    rowStart.push(segToken.length);
    row++;
    x = 0;
  };
  const place = (token: number, from: number, to: number, px: number) => {
    segToken.push(token);
    segFrom.push(from);
    segTo.push(to);
    x += px;
  };
  for (let t = 0; t < n; t++) {
    const text = texts[t] ?? '';
    if (text.length === 0) {
      const w = cw + m.chipExtra;
      if (x > 0 && x + w > width) newRow();
      tokenRow[t] = row;
      place(t, 0, 0, w);
      continue;
    }
    let from = 0;
    let first = true;
    while (from < text.length) {
      const nl = text.indexOf('\n', from);
      const pieceEnd = nl === -1 ? text.length : nl + 1;
      // Cells of the whole piece.
      let cells = 0;
      for (let i = from; i < pieceEnd; i++) cells += cellsOf(text.charCodeAt(i));
      const w = Math.max(1, cells) * cw + m.chipExtra;
      let end: number;
      let px: number;
      if (x + w <= width) {
        end = pieceEnd;
        px = w;
      } else if (x > 0 && w <= width) {
        // Fits on a row of its own.
        newRow();
        end = pieceEnd;
        px = w;
      } else {
        // Longer than the rest of the row: cut it where the row is full (at least one character).
        if (x > 0 && width - x < cw * 4 + m.chipExtra) newRow();
        const room = width - x - m.chipExtra;
        let used = 0;
        end = from;
        while (end < pieceEnd) {
          const code = text.charCodeAt(end);
          // Keep surrogate pairs together.
          const step = code >= 0xd800 && code <= 0xdbff && end + 1 < pieceEnd ? 2 : 1;
          let c = 0;
          for (let k = 0; k < step; k++) c += cellsOf(text.charCodeAt(end + k));
          if (end > from && (used + c) * cw > room) break;
          used += c;
          end += step;
        }
        px = Math.max(1, used) * cw + m.chipExtra;
      }
      if (first) {
        tokenRow[t] = row;
        first = false;
      }
      place(t, from, end, px);
      from = end;
      if (end === pieceEnd && nl !== -1 && end === nl + 1) newRow();
      else if (from < text.length && end < pieceEnd) newRow();
    }
  }
  rowStart.push(segToken.length);
  return {
    rows: rowStart.length - 1,
    rowStart: rowStart.done(),
    segToken: segToken.done(),
    segFrom: segFrom.done(),
    segTo: segTo.done(),
    tokenRow,
  };
}

/** Binary search: the row holding segment `seg`. */
export function rowOfSegment(layout: TimelineLayout, seg: number): number {
  let lo = 0;
  let hi = layout.rows - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((layout.rowStart[mid] ?? 0) <= seg) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
