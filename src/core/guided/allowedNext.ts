/**
 * What a grammar allows next, read from a token bitmask over the byte vocabulary, in structured form and as
 * words: `one of: "<|tool_call_end|>", ",", "}", whitespace`.
 */
import { BYTE_TOKENS, type ByteVocabulary } from './byteVocabulary.ts';

export interface AllowedNext {
  /** Special-token strings allowed next. */
  specials: string[];
  /** Byte values allowed next. */
  bytes: number[];
  /** A stop token (end of output) is allowed. */
  end: boolean;
  /** The string every continuation starts with, when there is no choice (xgrammar's jump-forward string). */
  forced: string;
}

export function readBitmask(bitmask: Int32Array, vocabulary: ByteVocabulary, forced: string): AllowedNext {
  const allowed = (id: number) => (((bitmask[id >> 5] ?? 0) >>> (id & 31)) & 1) === 1;
  const bytes: number[] = [];
  for (let b = 0; b < BYTE_TOKENS; b++) if (allowed(b)) bytes.push(b);
  const specials: string[] = [];
  let end = false;
  for (const [id, text] of vocabulary.specialTexts) {
    if (!allowed(id)) continue;
    if (vocabulary.stopIds.includes(id)) end = true;
    else specials.push(text);
  }
  return { specials, bytes, end, forced };
}

export function nothingAllowed(next: AllowedNext): boolean {
  return next.bytes.length === 0 && next.specials.length === 0 && !next.end;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const q = (s: string) => JSON.stringify(s);

function byteItems(bytes: readonly number[], specials: readonly string[]): string[] {
  const set = new Set(bytes);
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) if (set.has(b)) printable.push(b);
  const items: string[] = [];
  if (printable.length >= 80) {
    const missing: string[] = [];
    for (let b = 0x21; b <= 0x7e; b++) if (!set.has(b)) missing.push(q(String.fromCharCode(b)));
    items.push(missing.length ? `any character except ${missing.join(', ')}` : 'any character');
  } else {
    // "<" that only starts an allowed special token is said by the token itself.
    const dropLt = specials.some((s) => s.startsWith('<')) && printable.length < 20;
    let i = 0;
    while (i < printable.length) {
      let j = i;
      const start = printable[i] as number;
      const alnum = (c: number) => /[0-9a-zA-Z]/.test(String.fromCharCode(c));
      while (
        j + 1 < printable.length &&
        printable[j + 1] === (printable[j] as number) + 1 &&
        alnum(printable[j + 1] as number) &&
        alnum(start)
      )
        j++;
      if (j - i >= 2) items.push(`${q(String.fromCharCode(start))}–${q(String.fromCharCode(printable[j] as number))}`);
      else
        for (let k = i; k <= j; k++) {
          const ch = String.fromCharCode(printable[k] as number);
          if (!(dropLt && ch === '<')) items.push(q(ch));
        }
      i = j + 1;
    }
  }
  const ws = bytes.filter((b) => WHITESPACE.has(b));
  if (ws.length >= 2) items.push('whitespace');
  else if (ws.length === 1) items.push(q(String.fromCharCode(ws[0] as number)));
  if (bytes.some((b) => b >= 0x80)) items.push('non-ASCII characters');
  if (bytes.some((b) => b < 0x20 && !WHITESPACE.has(b))) items.push('control characters');
  return items;
}

/** `"functions.get_weather:"`, `one of: "<|tool_call_end|>", ",", "}"`, `end of output`, `nothing`. */
export function describeAllowed(next: AllowedNext): string {
  // In free text every special token is allowed as text: one word for them, not twenty.
  const specials = next.specials.length > 8 ? ['any special token'] : next.specials.map(q);
  const items = [...specials, ...byteItems(next.bytes, next.specials)];
  if (next.end) items.push('end of output');
  if (items.length === 0) return 'nothing';
  if (next.forced.length >= 2 && next.specials.length + next.bytes.length === 1 && !next.end) return q(next.forced);
  return items.length === 1 ? (items[0] as string) : `one of: ${items.join(', ')}`;
}
