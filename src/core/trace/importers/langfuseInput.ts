/**
 * A Langfuse observation's `input` cell as a value (langfuseObservation.ts), parsed as jsonColumn parses JSON text,
 * with an agent's repeated `tools` list parsed once.
 */
import { jsonColumn } from './exportMessages.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';

/** Parsed `tools` lists by their JSON text (langfuseInputValue), at most TOOLS_CACHED of them; cleared when full. */
const toolsByText = new Map<string, unknown>();
const TOOLS_CACHED = 64;

/** A cell's end from its comma on (`, "tools": […]}`), seen before, with its list parsed. */
interface KnownTail {
  tail: string;
  tools: unknown;
}

/**
 * The tails seen (at most TOOLS_CACHED; cleared when full) by the last TAIL_KEY characters of their cell: a cell that
 * ends with a known tail needs neither the search for `"tools"` nor a hash of its list's text (both ~1 µs a cell of
 * the bench's export, about a tenth of this function's time).
 */
const tailsByEnd = new Map<string, KnownTail[]>();
let tailsKept = 0;
const TAIL_KEY = 48;

/** The known tail `cell` ends with (and begins before its end), if any. */
function knownTail(cell: string): KnownTail | undefined {
  const candidates = tailsByEnd.get(cell.slice(-TAIL_KEY));
  if (candidates)
    for (const known of candidates) {
      const { tail } = known;
      // A slice compared with === (memcmp-like) is ~3× quicker than endsWith (measured on the bench's cells).
      if (cell.length > tail.length && cell.slice(cell.length - tail.length) === tail) return known;
    }
  return undefined;
}

function keepTail(cell: string, comma: number, tools: unknown): void {
  if (tailsKept >= TOOLS_CACHED) {
    tailsByEnd.clear();
    tailsKept = 0;
  }
  const end = cell.slice(-TAIL_KEY);
  const known = { tail: cell.slice(comma), tools };
  const candidates = tailsByEnd.get(end);
  if (candidates) candidates.push(known);
  else tailsByEnd.set(end, [known]);
  tailsKept++;
}

/**
 * An `input` cell: JSON text parsed as jsonColumn does, but an object whose last member is a `tools` list (what the
 * OpenAI integration logs: `{"messages": […], "tools": […]}`) has that list parsed once per distinct text. An agent
 * sends the same tools with every call, and their definitions are a large part of each cell (measured on the bench's
 * export: about a fifth of JSON.parse's time on `input`). The list is found by text: in JSON text a `"` inside a
 * string is always escaped, so `"tools"` followed by `:` and `[` is a key, and the head before it, closed with `}`,
 * and the list must each parse on their own — together they are exactly the whole text's members, in its order.
 * Anything else (no such key, a head or list that does not parse) is parsed whole. A cached list is shared by the
 * records that send it, as a Parquet dictionary's JSON value already is. A cell ending with the very text (comma to
 * end) of a tail found so before is split at the same place without searching: its last `"tools"` is that tail's,
 * since a list holding the text `"tools"` would have been searched to, and failed.
 */
export function langfuseInputValue(cell: unknown): unknown {
  if (typeof cell !== 'string') return cell;
  const known = knownTail(cell);
  const split = known ? { comma: cell.length - known.tail.length, listText: '' } : toolsMember(cell);
  if (split === null) return jsonColumn(cell);
  const { comma } = split;
  // `{, "tools": […]}` is no JSON, though `{}` and the list are.
  let before = comma - 1;
  while (before > 0 && isSpace(cell.charCodeAt(before))) before--;
  if (cell.charCodeAt(before) === 123 /* { */) return jsonColumn(cell);
  let tools = known?.tools;
  if (!known) {
    tools = toolsByText.get(split.listText);
    if (tools === undefined) {
      try {
        tools = JSON.parse(split.listText) as unknown;
      } catch {
        return jsonColumn(cell);
      }
      if (toolsByText.size >= TOOLS_CACHED) toolsByText.clear();
      toolsByText.set(split.listText, tools);
    }
    keepTail(cell, comma, tools);
  }
  const head = headObject(cell, comma);
  if (head === null) return jsonColumn(cell);
  head.tools = tools;
  return head;
}

/**
 * A last member `"tools": […]` found by text (whitespace allowed between the tokens): the comma before it and the
 * list's text, or null.
 */
function toolsMember(cell: string): { comma: number; listText: string } | null {
  const key = cell.lastIndexOf('"tools"');
  let end = cell.length - 1;
  while (end > 0 && isSpace(cell.charCodeAt(end))) end--;
  if (key < 1 || cell.charCodeAt(end) !== 125 /* } */) return null;
  let open = key + 7;
  while (isSpace(cell.charCodeAt(open))) open++;
  if (cell.charCodeAt(open) !== 58 /* : */) return null;
  open++;
  while (isSpace(cell.charCodeAt(open))) open++;
  let comma = key - 1;
  while (comma > 0 && isSpace(cell.charCodeAt(comma))) comma--;
  let close = end - 1;
  while (close > open && isSpace(cell.charCodeAt(close))) close--;
  if (cell.charCodeAt(open) !== 91 /* [ */ || cell.charCodeAt(comma) !== 44 /* , */ || cell.charCodeAt(close) !== 93 /* ] */) return null;
  return { comma, listText: cell.slice(open, close + 1) };
}

const MESSAGES_KEY = '{"messages":';

/**
 * The object `cell.slice(0, comma)` closed with `}` holds, or null when that is no JSON object. The usual head,
 * `{"messages":[…]`, is parsed as its one member's value, a slice of the cell: V8 parses a slice in place, where the
 * head closed with `}` was a copy of most of the cell (measured: ~8 % of this function's time on the bench's export).
 */
function headObject(cell: string, comma: number): UnknownObject | null {
  if (cell.startsWith(MESSAGES_KEY)) {
    try {
      return { messages: JSON.parse(cell.slice(MESSAGES_KEY.length, comma)) as unknown };
    } catch {
      // Another member after `messages`, or no JSON: the head as a whole says which.
    }
  }
  let head: unknown;
  try {
    head = JSON.parse(`${cell.slice(0, comma)}}`);
  } catch {
    return null;
  }
  return isObject(head) ? head : null;
}

/** JSON's whitespace. */
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
