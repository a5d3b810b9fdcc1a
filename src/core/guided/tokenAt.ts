/** Which recorded token holds a character of the completion (what-if findings are anchored to it). */
import type { Token } from '../tokens/token.ts';

/** The recorded token holding a char offset (the last token for the end of the text). */
export function tokenAt(tokens: readonly Token[], offset: number): number {
  if (tokens.length === 0) return -1;
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((tokens[mid] as Token).charStart <= offset) lo = mid;
    else hi = mid - 1;
  }
  // Empty tokens (skipped special tokens) share offsets with their neighbours: prefer one that covers it.
  for (let i = lo; i >= 0 && i >= lo - 4; i--) {
    const t = tokens[i] as Token;
    if (t.charStart <= offset && offset < t.charEnd) return t.index;
  }
  return (tokens[lo] as Token).index;
}
