/**
 * The pre-tokenizer of Toolscope's approximate splits, for every format: the text between markers in a
 * `MarkerSplitter`, and the text shared out among recorded tokens that carry none (recordedTokens.ts). It is Kimi
 * K2's tiktoken pattern, which Kimi K2's format also declares as its models' own (`tokenizer.tiktoken`, `gguf`).
 *
 * The pattern in JavaScript (`v` flag): the original (tokenization_kimi.py, run by
 * Python `regex` / Rust regex) uses set intersection `[…&&[^\p{Han}]]` and scoped case-insensitivity
 * `(?i:'s|…)`; here they become `v`-flag set subtraction and explicit case classes.
 * Two details keep the splits identical to the original rather than to a literal translation:
 * - `\s` there is the Unicode White_Space property (U+0085 yes, U+FEFF no); JavaScript's `\s` is not.
 * - `(?i:s)` also matches `ſ` (U+017F, whose simple case fold is `s`); no other contraction letter has one.
 */
const HAN = String.raw`\p{Script=Han}`;
const SPACE = String.raw`\p{White_Space}`;
const NOT_SPACE = String.raw`\P{White_Space}`;
const UPPER = String.raw`[[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]--${HAN}]`;
const LOWER = String.raw`[[\p{Ll}\p{Lm}\p{Lo}\p{M}]--${HAN}]`;
const CONTRACTION = String.raw`(?:'[sS\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?`;
const PREFIX = String.raw`[^\r\n\p{L}\p{N}]?`;

export const KIMI_PRETOKENIZER_SOURCE = [
  String.raw`[${HAN}]+`,
  String.raw`${PREFIX}${UPPER}*${LOWER}+${CONTRACTION}`,
  String.raw`${PREFIX}${UPPER}+${LOWER}*${CONTRACTION}`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^${SPACE}\p{L}\p{N}]+[\r\n]*`,
  String.raw`${SPACE}*[\r\n]+`,
  String.raw`${SPACE}+(?!${NOT_SPACE})`,
  String.raw`${SPACE}+`,
].join('|');

/** Compiled on first use: its Unicode set classes take ~1.5 ms to compile, and a run may never pre-tokenize. */
let compiled: RegExp | undefined;
const pattern = (): RegExp => (compiled ??= new RegExp(KIMI_PRETOKENIZER_SOURCE, 'gv'));

/**
 * Calls `piece(start, end)` for each pre-tokenizer piece of text[from, to), in order; the pieces tile the range.
 * Used by the splitter to avoid building intermediate strings.
 */
export function forEachPiece(text: string, from: number, to: number, piece: (start: number, end: number) => void): void {
  if (to <= from) return;
  // A slice, so no alternative (the look-ahead included) can see past `to`.
  const segment = from === 0 && to === text.length ? text : text.slice(from, to);
  let last = 0;
  const re = pattern();
  for (;;) {
    // Set each time: `piece` may itself pre-tokenize (the pattern object is shared).
    re.lastIndex = last;
    const m = re.exec(segment);
    // No alternative matches the empty string, so a null match means the end of the segment.
    if (m === null || m[0] === '') break;
    const start = m.index;
    const end = start + m[0].length;
    // Every code point matches some alternative; still, never lose text if one were skipped.
    if (start > last) piece(from + last, from + start);
    piece(from + start, from + end);
    last = end;
  }
  if (last < segment.length) piece(from + last, to);
}

/** Splits text into pre-tokenizer pieces; their concatenation is the input. */
export function pretokenize(text: string): string[] {
  const pieces: string[] = [];
  forEachPiece(text, 0, text.length, (start, end) => pieces.push(text.slice(start, end)));
  return pieces;
}
