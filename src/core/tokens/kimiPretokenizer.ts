/**
 * The Kimi tiktoken pre-tokenizer pattern in JavaScript. The Python `regex` original uses set intersection
 * (`[…&&[^\p{Han}]]`) and scoped case-insensitivity (`(?i:'s|…)`); the `v` flag's set subtraction and explicit
 * case classes express the same thing.
 */
const LETTERS_UPPER = String.raw`[[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]--\p{Script=Han}]`;
const LETTERS_LOWER = String.raw`[[\p{Ll}\p{Lm}\p{Lo}\p{M}]--\p{Script=Han}]`;
const CONTRACTIONS = String.raw`(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?`;

export const KIMI_PRETOKENIZER_SOURCE = [
  String.raw`[\p{Script=Han}]+`,
  String.raw`[^\r\n\p{L}\p{N}]?${LETTERS_UPPER}*${LETTERS_LOWER}+${CONTRACTIONS}`,
  String.raw`[^\r\n\p{L}\p{N}]?${LETTERS_UPPER}+${LETTERS_LOWER}*${CONTRACTIONS}`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^\s\p{L}\p{N}]+[\r\n]*`,
  String.raw`\s*[\r\n]+`,
  String.raw`\s+(?!\S)`,
  String.raw`\s+`,
].join('|');

const PATTERN = new RegExp(KIMI_PRETOKENIZER_SOURCE, 'gv');

/** Splits text into pre-tokenizer pieces; their concatenation is the input. */
export function pretokenize(text: string): string[] {
  const pieces: string[] = [];
  PATTERN.lastIndex = 0;
  let last = 0;
  for (let m = PATTERN.exec(text); m; m = PATTERN.exec(text)) {
    // The pattern covers every character, but never lose text if it somehow skips one.
    if (m.index > last) pieces.push(text.slice(last, m.index));
    if (m[0] === '') {
      PATTERN.lastIndex++;
      continue;
    }
    pieces.push(m[0]);
    last = m.index + m[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}
