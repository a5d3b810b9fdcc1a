/**
 * What a line is, from its first few characters only, so the byte index can classify a line of any length
 * without decoding it: blank, an SSE field line (`data:`, `event:`, `id:`, `retry:`, `:` comment) or JSON.
 * Works on byte values and UTF-16 codes alike: every prefix it looks for is ASCII.
 */

export type LineKind = 'blank' | 'json' | 'sse';

/** How many codes after the leading whitespace decide a line's kind (`event:` and `retry:` are the longest). */
export const LINE_HEAD_LENGTH = 6;

const SSE_PREFIXES = ['data:', 'event:', 'id:', 'retry:', ':'].map((p) => Array.from(p, (c) => c.charCodeAt(0)));

/** Space, tab and CR: skipped before the head, and all a blank line holds. */
export function isLeadingSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/** `head` holds the first `length` (≤ LINE_HEAD_LENGTH) codes after leading whitespace; 0 means blank. */
export function classifyHead(head: ArrayLike<number>, length: number): LineKind {
  if (length === 0) return 'blank';
  for (const prefix of SSE_PREFIXES) {
    if (prefix.length > length) continue;
    let match = true;
    for (let i = 0; i < prefix.length && match; i++) match = head[i] === prefix[i];
    if (match) return 'sse';
  }
  return 'json';
}

export function classifyText(text: string): LineKind {
  let i = 0;
  while (i < text.length && isLeadingSpace(text.charCodeAt(i))) i++;
  const head: number[] = [];
  for (let j = i; j < text.length && head.length < LINE_HEAD_LENGTH; j++) head.push(text.charCodeAt(j));
  return classifyHead(head, head.length);
}
