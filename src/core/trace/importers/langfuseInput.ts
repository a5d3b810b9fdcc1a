/**
 * A Langfuse observation's `input` cell as a value (langfuseObservation.ts), parsed as jsonColumn parses JSON text,
 * with an agent's repeated `tools` list parsed once.
 */
import { jsonColumn } from './exportMessages.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';

/** Parsed `tools` lists by their JSON text (langfuseInputValue), at most TOOLS_CACHED of them; cleared when full. */
const toolsByText = new Map<string, unknown>();
const TOOLS_CACHED = 64;

/**
 * Texts seen, each with its parsed tools list, found by their last TAIL_KEY characters (at most TOOLS_CACHED; all
 * dropped when full): a cell's tail (comma to end) or head (start to the comma after the list) seen before needs
 * neither the search for its key nor a hash or parse of its list's text (both ~1 µs a cell of the bench's export,
 * about a tenth of this function's time).
 */
class TextsByEnd {
  private readonly byEnd = new Map<string, { text: string; tools: unknown }[]>();
  private kept = 0;

  /** The texts kept under `end`. */
  candidates(end: string): readonly { text: string; tools: unknown }[] | undefined {
    return this.byEnd.get(end);
  }

  /** Keeps `text` under `end`: the last TAIL_KEY characters of the cell it is looked up by. */
  keep(end: string, text: string, tools: unknown): void {
    if (this.kept >= TOOLS_CACHED) {
      this.byEnd.clear();
      this.kept = 0;
    }
    const known = { text, tools };
    const candidates = this.byEnd.get(end);
    if (candidates) candidates.push(known);
    else this.byEnd.set(end, [known]);
    this.kept++;
  }
}

const TAIL_KEY = 48;
/** The tails (`, "tools": […]}`) seen. */
const knownTails = new TextsByEnd();

/** The known tail `cell` ends with (and begins before its end), if any. */
function knownTail(cell: string): { text: string; tools: unknown } | undefined {
  const candidates = knownTails.candidates(cell.slice(-TAIL_KEY));
  if (candidates)
    for (const known of candidates) {
      const { text } = known;
      // A slice compared with === (memcmp-like) is ~3× quicker than endsWith (measured on the bench's cells).
      if (cell.length > text.length && cell.slice(cell.length - text.length) === text) return known;
    }
  return undefined;
}

/**
 * An `input` cell: JSON text parsed as jsonColumn does, but an object whose first member is a `tools` list followed by
 * `messages` (what Langfuse's Python SDK logs for an OpenAI chat call: `{"tools": […], "messages": […]}`), or whose
 * last member is a `tools` list (its JS SDK and the server's own merge: `{"messages": […], "tools": […]}`; see
 * docs/trace-format.md), has that list parsed once per distinct text. An agent sends the same tools with every call,
 * and their definitions are a large part of each cell (measured on the bench's export: about a fifth of JSON.parse's
 * time on `input`). A tools-first cell: toolsFirstValue. A tools-last one: the list is found by text: in JSON text a `"` inside a
 * string is always escaped, so `"tools"` followed by `:` and `[` is a key, and the head before it, closed with `}`,
 * and the list must each parse on their own — together they are exactly the whole text's members, in its order.
 * Anything else (no such key, a head or list that does not parse) is parsed whole. A cached list is shared by the
 * records that send it, as a Parquet dictionary's JSON value already is. A cell ending with the very text (comma to
 * end) of a tail found so before is split at the same place without searching: its last `"tools"` is that tail's,
 * since a list holding the text `"tools"` would have been searched to, and failed.
 */
export function langfuseInputValue(cell: unknown): unknown {
  if (typeof cell !== 'string') return cell;
  if (cell.startsWith(TOOLS_HEAD)) {
    const value = toolsFirstValue(cell);
    if (value !== undefined) return value;
  }
  const known = knownTail(cell);
  const split = known ? { comma: cell.length - known.text.length, listText: '' } : toolsMember(cell);
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
    knownTails.keep(cell.slice(-TAIL_KEY), cell.slice(comma), tools);
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

const TOOLS_HEAD = '{"tools":';
const MESSAGES_NAME = '"messages"';
/** `"messages"` texts tried as the key after the list: a tool's schema may name a property `messages` too. */
const MESSAGES_TRIES = 4;

/** The heads (`{"tools": […],`, the comma after the list included) seen. */
const knownHeads = new TextsByEnd();

/**
 * A cell that begins `{"tools": [`: its list is found by the `"messages"` key after it (the Python SDK writes messages
 * right after tools), the comma before that key and the `]` before the comma. The list's text between them either
 * parses on its own — then it is exactly the cell's first value, JSON values being self-delimiting — or the next
 * `"messages"` is tried. A head seen before is recognised by its text (compared as a slice, memcmp-like) and needs no
 * parse or hash of its list. The rest, `"messages": […]}`, is parsed in place as the value of its one member; other
 * members after it are parsed as the object `{` + rest, whose keys follow `tools` in the cell's order (a later `tools`
 * overwrites the first in its place, as JSON.parse does). undefined: no such head (the caller parses otherwise).
 */
function toolsFirstValue(cell: string): unknown {
  let from = TOOLS_HEAD.length;
  for (let tries = 0; tries < MESSAGES_TRIES; tries++) {
    const key = cell.indexOf(MESSAGES_NAME, from);
    if (key < 0) return undefined;
    from = key + MESSAGES_NAME.length;
    let comma = key - 1;
    while (comma > 0 && isSpace(cell.charCodeAt(comma))) comma--;
    if (cell.charCodeAt(comma) !== 44 /* , */) continue;
    let close = comma - 1;
    while (close > 0 && isSpace(cell.charCodeAt(close))) close--;
    if (cell.charCodeAt(close) !== 93 /* ] */) continue;
    const tools = headTools(cell, comma, close);
    if (tools === undefined) continue;
    return restWithTools(cell, tools, comma, key);
  }
  return undefined;
}

/** The parsed list of the head that ends at `comma` (its `]` at `close`), or undefined when its text is no JSON. */
function headTools(cell: string, comma: number, close: number): unknown {
  const end = cell.slice(Math.max(0, comma + 1 - TAIL_KEY), comma + 1);
  const candidates = knownHeads.candidates(end);
  if (candidates)
    for (const known of candidates) if (known.text.length === comma + 1 && cell.slice(0, comma + 1) === known.text) return known.tools;
  let open = TOOLS_HEAD.length;
  while (isSpace(cell.charCodeAt(open))) open++;
  if (cell.charCodeAt(open) !== 91 /* [ */ || open > close) return undefined;
  const listText = cell.slice(open, close + 1);
  let tools = toolsByText.get(listText);
  if (tools === undefined) {
    try {
      tools = JSON.parse(listText) as unknown;
    } catch {
      return undefined;
    }
    if (toolsByText.size >= TOOLS_CACHED) toolsByText.clear();
    toolsByText.set(listText, tools);
  }
  knownHeads.keep(end, cell.slice(0, comma + 1), tools);
  return tools;
}

/** `{"tools": <tools>,` + the cell after `comma` (the `"messages"` key at `key`) as JSON.parse reads the whole. */
function restWithTools(cell: string, tools: unknown, comma: number, key: number): unknown {
  let colon = key + MESSAGES_NAME.length;
  while (isSpace(cell.charCodeAt(colon))) colon++;
  let end = cell.length - 1;
  while (end > colon && isSpace(cell.charCodeAt(end))) end--;
  if (cell.charCodeAt(colon) === 58 /* : */ && cell.charCodeAt(end) === 125 /* } */) {
    try {
      return { tools, messages: JSON.parse(cell.slice(colon + 1, end)) as unknown };
    } catch {
      // Another member after `messages`, or no JSON: the rest as an object says which.
    }
  }
  let rest: unknown;
  try {
    rest = JSON.parse(`{${cell.slice(comma + 1)}`);
  } catch {
    return jsonColumn(cell);
  }
  // Spread defines own properties (a `__proto__` key stays a key), as JSON.parse does.
  return { tools, ...(rest as UnknownObject) };
}

/** JSON's whitespace. */
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
