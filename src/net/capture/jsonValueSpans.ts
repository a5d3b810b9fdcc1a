/**
 * Byte-faithful edits of a JSON text: find where a member's value starts and ends, and replace values in place,
 * so every other character stays exactly as the server wrote it (number formats, escapes, spacing, key order).
 * Re-serialising a parsed object would not: Python writes `1e-05` where JavaScript writes `0.00001`.
 */

/** A member of a JSON object: its key and the half-open character range of its value. */
export interface MemberSpan {
  key: string;
  valueStart: number;
  valueEnd: number;
}

export class JsonScanError extends Error {}

function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** End (exclusive) of the string literal starting at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
  throw new JsonScanError(`unterminated string at ${i}`);
}

/** End (exclusive) of the JSON value starting at `i` (no leading whitespace). */
export function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    // Brackets balance once strings are skipped; their contents need no further checking here.
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = stringEnd(text, j) - 1;
      else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    throw new JsonScanError(`unterminated ${c === '{' ? 'object' : 'array'} at ${i}`);
  }
  let j = i;
  while (j < text.length && /[-+.\w]/u.test(text[j] as string)) j++;
  if (j === i) throw new JsonScanError(`no JSON value at ${i}`);
  return j;
}

/** The members of the object starting at `start` (a `{`), in order. */
export function objectMembers(text: string, start: number): MemberSpan[] {
  if (text[start] !== '{') throw new JsonScanError(`no object at ${start}`);
  const out: MemberSpan[] = [];
  let i = skipSpace(text, start + 1);
  if (text[i] === '}') return out;
  for (;;) {
    if (text[i] !== '"') throw new JsonScanError(`expected a key at ${i}`);
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') throw new JsonScanError(`expected ":" at ${i}`);
    const valueStart = skipSpace(text, i + 1);
    const end = valueEnd(text, valueStart);
    out.push({ key, valueStart, valueEnd: end });
    i = skipSpace(text, end);
    if (text[i] === ',') {
      i = skipSpace(text, i + 1);
      continue;
    }
    if (text[i] === '}') return out;
    throw new JsonScanError(`expected "," or "}" at ${i}`);
  }
}

/** The items of the array starting at `start` (a `[`), as value ranges. */
export function arrayItems(text: string, start: number): Array<{ start: number; end: number }> {
  if (text[start] !== '[') throw new JsonScanError(`no array at ${start}`);
  const out: Array<{ start: number; end: number }> = [];
  let i = skipSpace(text, start + 1);
  if (text[i] === ']') return out;
  for (;;) {
    const end = valueEnd(text, i);
    out.push({ start: i, end });
    i = skipSpace(text, end);
    if (text[i] === ',') {
      i = skipSpace(text, i + 1);
      continue;
    }
    if (text[i] === ']') return out;
    throw new JsonScanError(`expected "," or "]" at ${i}`);
  }
}

export interface Edit {
  start: number;
  end: number;
  replacement: string;
}

/** Applies non-overlapping edits (any order). */
export function applyEdits(text: string, edits: Edit[]): string {
  if (!edits.length) return text;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.replacement;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * Edits that set `choices[*].<key>` to `null` for each key given, wherever the value is not already null, in the
 * top-level object of `text`. Throws JsonScanError when `text` is not an object.
 */
export function nullChoiceFieldEdits(text: string, keys: readonly string[]): Edit[] {
  const top = skipSpace(text, 0);
  const choices = objectMembers(text, top).find((m) => m.key === 'choices');
  if (!choices || text[choices.valueStart] !== '[') return [];
  const edits: Edit[] = [];
  for (const item of arrayItems(text, choices.valueStart)) {
    if (text[item.start] !== '{') continue;
    for (const m of objectMembers(text, item.start)) {
      if (keys.includes(m.key) && text.slice(m.valueStart, m.valueEnd) !== 'null')
        edits.push({ start: m.valueStart, end: m.valueEnd, replacement: 'null' });
    }
  }
  return edits;
}
