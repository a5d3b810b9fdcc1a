/**
 * What a line is, from its first few characters only, so the byte index can classify a line of any length
 * without decoding it: blank, an SSE field line (`data:`, `event:`, `id:`, `retry:`, `:` comment), a line that
 * starts a record (JSON, a Python printout, …), or a continuation line that belongs to the record above it
 * (indented, or opening with `}`, `]` or `)`: the body and the close of pretty-printed JSON and of multi-line
 * Python printouts), an Ollama stream chunk or a printed `ChatCompletionChunk(…)` (consecutive ones are one entry). Works on byte values and UTF-16
 * codes alike: every prefix it looks for is ASCII.
 */

export type LineKind = 'blank' | 'json' | 'sse' | 'continuation' | 'ollama' | 'pychunk';

/** How many codes after the leading whitespace decide a line's kind: enough for an Ollama chunk's model name. */
export const LINE_HEAD_LENGTH = 160;

/** Enough codes for every kind but an Ollama chunk (`event:` and `retry:` are the longest prefixes). */
export const SHORT_HEAD = 6;

const OLLAMA_OPEN = Array.from('{"model":', (c) => c.charCodeAt(0));

const CHUNK_PRINTOUT = Array.from('ChatCompletionChunk(', (c) => c.charCodeAt(0));

function startsWith(head: ArrayLike<number>, length: number, prefix: number[]): boolean {
  if (length < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (head[k] !== prefix[k]) return false;
  return true;
}

/**
 * The first SHORT_HEAD codes are `{"mode` or `ChatCo`: the line may be an Ollama chunk or a printed
 * `ChatCompletionChunk(…)`, so more of it is worth reading.
 */
export function isOllamaStart(head: ArrayLike<number>): boolean {
  return (
    startsWith(head, SHORT_HEAD, OLLAMA_OPEN.slice(0, SHORT_HEAD)) || startsWith(head, SHORT_HEAD, CHUNK_PRINTOUT.slice(0, SHORT_HEAD))
  );
}
const CREATED_AT = Array.from('"created_at":', (c) => c.charCodeAt(0));
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * An Ollama NDJSON chunk as Ollama writes it (Go's field order): `{"model":"<name>","created_at":` at the start
 * (spaces after `:` and `,` allowed). Ollama's lines carry no stream id, so consecutive ones are grouped into one
 * entry here and split into streams at `"done": true` when read (importers/ollamaImporter.ts).
 */
function isOllamaHead(head: ArrayLike<number>, length: number): boolean {
  let i = 0;
  const skipSpaces = () => {
    while (i < length && head[i] === 32) i++;
  };
  const expect = (codes: number[]): boolean => {
    for (const c of codes) {
      if (i >= length || head[i] !== c) return false;
      i++;
    }
    return true;
  };
  if (!expect(OLLAMA_OPEN)) return false;
  skipSpaces();
  if (head[i] !== QUOTE) return false;
  for (i++; i < length && head[i] !== QUOTE; i++) if (head[i] === BACKSLASH) return false;
  if (i >= length) return false;
  i++;
  skipSpaces();
  if (head[i] !== 44) return false; // ,
  i++;
  skipSpaces();
  return expect(CREATED_AT);
}

const SSE_PREFIXES = ['data:', 'event:', 'id:', 'retry:', ':'].map((p) => Array.from(p, (c) => c.charCodeAt(0)));
const CLOSERS = new Set(['}', ']', ')'].map((c) => c.charCodeAt(0)));

/** Space, tab and CR: skipped before the head, and all a blank line holds. */
export function isLeadingSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/**
 * `head` holds the first `length` (≤ LINE_HEAD_LENGTH) codes after leading whitespace; 0 means blank.
 * `indented`: the line had whitespace before its head.
 */
export function classifyHead(head: ArrayLike<number>, length: number, indented = false): LineKind {
  if (length === 0) return 'blank';
  for (const prefix of SSE_PREFIXES) {
    if (prefix.length > length) continue;
    let match = true;
    for (let i = 0; i < prefix.length && match; i++) match = head[i] === prefix[i];
    if (match) return 'sse';
  }
  if (indented || CLOSERS.has(head[0] ?? 0)) return 'continuation';
  if (head[0] === 123 && isOllamaHead(head, length)) return 'ollama';
  // `print(chunk)` in a streaming loop: one ChatCompletionChunk(…) repr a line; consecutive ones are one entry.
  return startsWith(head, length, CHUNK_PRINTOUT) ? 'pychunk' : 'json';
}

export function classifyText(text: string): LineKind {
  let i = 0;
  while (i < text.length && isLeadingSpace(text.charCodeAt(i))) i++;
  const head: number[] = [];
  for (let j = i; j < text.length && head.length < LINE_HEAD_LENGTH; j++) head.push(text.charCodeAt(j));
  return classifyHead(head, head.length, hasIndent(text, i));
}

/** Spaces or tabs before position `i` (a CR alone does not indent). */
function hasIndent(text: string, i: number): boolean {
  for (let k = 0; k < i; k++) {
    const c = text.charCodeAt(k);
    if (c === 32 || c === 9) return true;
  }
  return false;
}
