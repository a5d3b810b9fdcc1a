/**
 * A native record's `request.tools` parsed once per tool set, for a reader that opts in (the trace editor's list
 * worker: listWorker.ts). An agent sends the same tools with every request — most of each line's bytes — and a line
 * parsed whole makes them again, for the analysis to find them equal to the last record's (toolSets.ts). Here a line
 * holding a kept tool set's JSON text verbatim is parsed with a marker in its place, and the record is given the
 * tool set parsed before: the very value JSON.parse makes of that text, shared (records are not changed once read).
 *
 * Exact or nothing: the marker holds a NUL character, which JSON writes only as `\u0000`, so in a line without
 * `\u0000` the marker can only be the one put in; unless it lands on a native record's `request.tools`, the line
 * is parsed whole, as is every line of a reader that did not opt in. It helps only where tool sets repeat (an agent's
 * trace, the bench's), never changes a value, and a trace whose tools never repeat stops paying for it (backoff).
 */
import { isObject } from './jsonGuards.ts';

const MARKER = '\u0000toolscope:kept-tools';
const MARKER_JSON = JSON.stringify(MARKER);
const KEY = '"tools":';
/** Tool sets kept, the latest hit first: a trace interleaves a few agents at most. */
const KEPT = 4;
/** Tool sets learnt one after another without a line using any: the lines' tools do not repeat (or not verbatim). */
const FRUITLESS = 8;
const MAX_BACKOFF = 1024;

interface KeptTools {
  /** `"tools":` and the value's JSON text, as a compact writer writes it. */
  text: string;
  value: unknown;
}

let shared = false;
const kept: KeptTools[] = [];
let fruitless = 0;
let skip = 0;
let backoff = 0;

/** From now on (this thread) lines whose tool set was seen before share its parsed value (`false`: no longer). */
export function shareRepeatedToolSets(on = true): void {
  shared = on;
  kept.length = 0;
  fruitless = skip = backoff = 0;
}

/** The line's value with a kept tool set in place, or undefined: parse it whole (and `learnToolSet`). */
export function parseWithKeptTools(text: string): unknown {
  if (!shared) return undefined;
  for (let i = 0; i < kept.length; i++) {
    const k = kept[i] as KeptTools;
    const at = text.indexOf(k.text);
    if (at < 0) continue;
    if (text.includes('\\u0000')) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(`${text.slice(0, at)}${KEY}${MARKER_JSON}${text.slice(at + k.text.length)}`);
    } catch {
      return undefined;
    }
    const request = isObject(value) && 'toolscope' in value ? value.request : undefined;
    // Not the request's tools (the text under another key, or a later key of the same name): another kept set may be.
    if (!isObject(request) || request.tools !== MARKER) continue;
    request.tools = k.value;
    fruitless = backoff = 0;
    if (i > 0) {
      kept.splice(i, 1);
      kept.unshift(k);
    }
    return value;
  }
  return undefined;
}

/** A line parsed whole: its native record's tool set kept when the line holds its JSON text verbatim. */
export function learnToolSet(text: string, value: unknown): void {
  if (!shared) return;
  if (skip > 0) {
    skip--;
    return;
  }
  const request = isObject(value) && 'toolscope' in value ? value.request : undefined;
  const tools = isObject(request) ? request.tools : undefined;
  if (!Array.isArray(tools) || tools.length === 0) return;
  let json: string;
  try {
    json = JSON.stringify(tools);
  } catch {
    return;
  }
  const written = `${KEY}${json}`;
  // Kept already (the line was parsed whole for another reason: a NUL in it).
  if (kept.some((k) => k.text === written)) return;
  if (!text.includes(written) || ++fruitless > FRUITLESS) {
    // Not written compactly, or the tools do not repeat: fewer tries for a while.
    fruitless = 0;
    skip = backoff = Math.min(MAX_BACKOFF, backoff * 2 + 1);
    return;
  }
  kept.unshift({ text: written, value: JSON.parse(json) });
  if (kept.length > KEPT) kept.pop();
}
