/**
 * Python string semantics the vLLM profiles depend on. vLLM's parsers are Python: `str.strip()`, `len()`,
 * regex `\s` / `\d` / `.` and negative indexing differ from their JavaScript namesakes at the edges, and a
 * profile must reproduce the edges too.
 */

/** Characters `str.isspace()` accepts, so `strip()` / `lstrip()` / `rstrip()` remove exactly these. */
const PY_STR_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** Regex `\s` of the `regex` module (Unicode White_Space): `str.isspace()` minus the \x1c-\x1f separators. */
export const PY_RE_SPACE = '[\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
/** Regex `\d` on str patterns: any Unicode decimal digit. */
export const PY_RE_DIGIT = '\\p{Nd}';
/** Regex `.` without DOTALL: everything but `\n` (JavaScript's `.` also stops at `\r`, U+2028 and U+2029). */
export const PY_RE_DOT = '[^\\n]';

const LEADING = new RegExp(`^[${PY_STR_SPACE}]+`, 'u');
const TRAILING = new RegExp(`[${PY_STR_SPACE}]+$`, 'u');

export const pyLstrip = (s: string): string => s.replace(LEADING, '');
export const pyRstrip = (s: string): string => s.replace(TRAILING, '');
export const pyStrip = (s: string): string => pyRstrip(pyLstrip(s));

/** `len(s)`: code points, not UTF-16 units. */
export function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `s[-n:]` in code points. */
export function pyTail(s: string, n: number): string {
  const points = Array.from(s);
  return points.slice(Math.max(0, points.length - n)).join('');
}

/** `s.split(sep)[-1]`. */
export function lastPiece(s: string, sep: string): string {
  const at = s.lastIndexOf(sep);
  return at < 0 ? s : s.slice(at + sep.length);
}

/** `s.split(sep)[0]`. */
export function firstPiece(s: string, sep: string): string {
  const at = s.indexOf(sep);
  return at < 0 ? s : s.slice(0, at);
}

/** `s.replace(old, "")`: every occurrence. */
export const removeAll = (s: string, old: string): string => s.split(old).join('');

/** A literal for a `u`-flag RegExp (the markers need only `|` escaped, but be general). */
export const reEscape = (s: string): string => s.replace(/[|\\^$.*+?()[\]{}]/g, '\\$&');

/** Python raised IndexError: the parser's own try/except turns it into "no delta". */
export class PyIndexError extends Error {
  constructor(index: number, length: number) {
    super(`list index ${index} out of range (length ${length})`);
  }
}

/** `list[i]` with Python's negative indexing and IndexError. */
export function pyAt<T>(list: readonly T[], i: number): T {
  const at = i < 0 ? list.length + i : i;
  if (at < 0 || at >= list.length) throw new PyIndexError(i, list.length);
  return list[at] as T;
}

/** `list[i] = value` with Python's negative indexing and IndexError. */
export function pySet<T>(list: T[], i: number, value: T): void {
  const at = i < 0 ? list.length + i : i;
  if (at < 0 || at >= list.length) throw new PyIndexError(i, list.length);
  list[at] = value;
}

/**
 * How many trailing characters of `text` are a proper prefix of `tag` (vLLM's `partial_tag_overlap`): what
 * a streaming parser holds back because it may still become the tag.
 */
export function partialTagOverlap(text: string, tag: string): number {
  for (let i = Math.min(text.length, tag.length - 1); i > 0; i--) {
    if (text.endsWith(tag.slice(0, i))) return i;
  }
  return 0;
}
