/**
 * Token numbers for people: 1-based, both ends included (`token 11`, `tokens 11–34`), the same in the trace editor,
 * the readable report, the CI excerpts and finding messages. The `--json` fields stay 0-based with the end exclusive
 * (`tokenStart: 10, tokenEnd: 34` is `tokens 11–34`): docs/diagnostics.md.
 */
export function tokenNumber(index: number): string {
  return String(index + 1);
}

/** `token 11` or `tokens 11–34` for the 0-based range [start, end). */
export function tokenSpanText(start: number, end: number): string {
  return end - start <= 1 ? `token ${start + 1}` : `tokens ${start + 1}–${end}`;
}
