/**
 * The markup of Kimi K3 completions (Moonshot's "XTML"): every tag is `<|open|>NAME ATTRS<|sep|>` … `<|close|>NAME<|sep|>`,
 * where `<|open|>`, `<|close|>` and `<|sep|>` are dedicated tokens of the vocabulary and the tag's name and attributes
 * ordinary text. An assistant message is channels:
 *
 *   <|open|>think<|sep|>reasoning<|close|>think<|sep|>
 *   <|open|>response<|sep|>visible answer<|close|>response<|sep|>
 *   <|open|>tools<|sep|>
 *     <|open|>call tool="get_weather" index="1"<|sep|>
 *       <|open|>argument key="city" type="string"<|sep|>Hangzhou<|close|>argument<|sep|>
 *       <|open|>argument key="days" type="number"<|sep|>2<|close|>argument<|sep|>
 *     <|close|>call<|sep|>
 *   <|close|>tools<|sep|>
 *   <|close|>message<|sep|><|end_of_msg|>
 *
 * A call's arguments are typed `argument` blocks (`type` string, number, boolean, null, object or array: a string is
 * the raw text, any other type its JSON), or one `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>` block holding
 * them all as JSON. Attribute values escape `&` and `"` (`&amp;`, `&quot;`). In chat serving the generation prompt
 * ends with `<|open|>think<|sep|>` (thinking) or `<|open|>response<|sep|>` (instruct), so a completion starts inside
 * that channel. Read at vLLM vllm/tool_parsers/kimi_k3_tool_parser.py, rust/src/parser/src/unified/kimi_k3.rs and
 * rust/src/chat/src/renderer/kimi_k3/ @ 017e9f4448b700e85ee16023287b025693c72b9e.
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

export const OPEN = '<|open|>';
export const CLOSE = '<|close|>';
export const SEP = '<|sep|>';
export const END_OF_MSG = '<|end_of_msg|>';

export const THINK_OPEN = `${OPEN}think${SEP}`;
export const THINK_CLOSE = `${CLOSE}think${SEP}`;
export const RESPONSE_OPEN = `${OPEN}response${SEP}`;
export const RESPONSE_CLOSE = `${CLOSE}response${SEP}`;
export const TOOLS_OPEN = `${OPEN}tools${SEP}`;
export const TOOLS_CLOSE = `${CLOSE}tools${SEP}`;
export const CALL_OPEN = `${OPEN}call`;
export const CALL_CLOSE = `${CLOSE}call${SEP}`;
export const ARGUMENT_OPEN = `${OPEN}argument`;
export const ARGUMENT_CLOSE = `${CLOSE}argument${SEP}`;
export const JSON_OPEN = `${OPEN}json`;
export const JSON_CLOSE = `${CLOSE}json${SEP}`;
export const MESSAGE_CLOSE = `${CLOSE}message${SEP}`;

/** The response channel's own tags: where the visible answer begins and ends (outside calls only). */
export const RESPONSE_TAGS: ReadonlySet<string> = new Set([RESPONSE_OPEN, RESPONSE_CLOSE]);

/**
 * Everything the parser recognises, by its role in the key/value kernel (no tag is a prefix of another). The
 * response channel's tags end nothing: in content they are markup the client never sees.
 */
export const KIMI_K3_SCAN_TABLE: readonly MarkerDef<KeyValueRole>[] = [
  { text: TOOLS_OPEN, name: 'call-begin' },
  { text: TOOLS_CLOSE, name: 'call-end' },
  { text: CALL_OPEN, name: 'function-begin' },
  { text: CALL_CLOSE, name: 'function-end' },
  { text: ARGUMENT_OPEN, name: 'parameter-begin' },
  { text: ARGUMENT_CLOSE, name: 'parameter-end' },
  { text: JSON_OPEN, name: 'raw-begin' },
  { text: JSON_CLOSE, name: 'raw-end' },
  { text: THINK_OPEN, name: 'think-begin' },
  { text: THINK_CLOSE, name: 'think-end' },
  { text: RESPONSE_OPEN, name: 'end-of-turn' },
  { text: RESPONSE_CLOSE, name: 'end-of-turn' },
  { text: MESSAGE_CLOSE, name: 'end-of-turn' },
  { text: END_OF_MSG, name: 'end-of-turn' },
  { text: SEP, name: 'header-end' },
];

/** The dedicated tokens of the vocabulary: the format's markers (each tag above is one to three of them and text). */
export const KIMI_K3_TOKENS: readonly string[] = [OPEN, CLOSE, SEP, END_OF_MSG];

/** `&quot;` before `&amp;`: the inverse of the renderer's escaping (`&` first, then `"`). */
export function unescapeAttribute(value: string): string {
  return value.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

export function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

/** The attributes of a tag's header (` tool="get_weather" index="1"`), values unescaped; the first of a name wins. */
export function attributes(header: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of header.matchAll(/(\w+)="([^"]*)"/gu)) {
    const name = m[1] as string;
    if (!out.has(name)) out.set(name, unescapeAttribute(m[2] as string));
  }
  return out;
}

/** The `tool` attribute of a call's header, unescaped, and where its value is written in the header (at 0 when absent). */
export function toolAttribute(header: string): { name: string; start: number; end: number } {
  const m = /(?:^|\s)tool="([^"]*)"/u.exec(header);
  if (!m) return { name: '', start: 0, end: 0 };
  const end = m.index + m[0].length - 1;
  const written = m[1] as string;
  return { name: unescapeAttribute(written), start: end - written.length, end };
}
