/**
 * The split used for a completion above the size limit: pieces of about 64 KB instead of one token per word.
 * A token object and a parse event per word cost a few hundred bytes each, so a 50 MB completion split finely
 * needs gigabytes. The parsers give the same result for any split of the text (their split-invariance property),
 * so calls, content and the findings on them come out the same; only the per-token view is lost. No piece ends
 * inside a marker (a marker over two pieces would read as a marker-split) or between the halves of a surrogate pair.
 */
import type { Token } from './token.ts';

export const COARSE_PIECE = 64 * 1024;

/** Where a cut at `at` must move to so that it falls inside no marker and no surrogate pair. */
function safeCut(text: string, at: number, markers: readonly string[]): number {
  let cut = at;
  for (let moved = true; moved;) {
    moved = false;
    for (const m of markers) {
      if (m.length < 2) continue;
      // Only a marker starting within its length before the cut can straddle it: search that window alone.
      const from = Math.max(0, cut - m.length + 1);
      const s = text.slice(from, cut + m.length - 1).indexOf(m);
      if (s >= 0 && from + s < cut) {
        cut = from + s + m.length;
        moved = true;
      }
    }
    const before = text.charCodeAt(cut - 1);
    if (cut < text.length && before >= 0xd800 && before <= 0xdbff) {
      cut++;
      moved = true;
    }
  }
  return Math.min(cut, text.length);
}

export function coarseSplit(text: string, markers: readonly string[], piece = COARSE_PIECE): Token[] {
  const tokens: Token[] = [];
  for (let start = 0; start < text.length;) {
    const end = safeCut(text, Math.min(text.length, start + piece), markers);
    tokens.push({ index: tokens.length, text: text.slice(start, end), charStart: start, charEnd: end, special: false, approximate: true });
    start = end;
  }
  return tokens;
}
