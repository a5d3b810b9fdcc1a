/**
 * The markup of IBM Granite's JSON tool calls, in the two forms vLLM reads (docs/formats/granite.md):
 * - Granite 3.0 (vLLM `granite`): `<|tool_call|>` (a special token of its vocabulary) then a JSON list of
 *   `{"name": …, "arguments": {…}}` objects (vllm/tool_parsers/granite_tool_parser.py @
 *   017e9f4448b700e85ee16023287b025693c72b9e); Granite 3.1 writes the string `<tool_call>` before the same list (the
 *   same parser strips either prefix: `bot_token`, `bot_string`);
 * - granite-20b-functioncalling (vLLM `granite-20b-fc`): each call `<function_call>` then one JSON object, calls on
 *   their own lines (granite_20b_fc_tool_parser.py @ 017e9f4).
 * `<|end_of_text|>` ends the text. Neither is pythonic: both are JSON calls, read by the kernel's JSON-call scanner.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';

export const TOOL_CALL_TOKEN = '<|tool_call|>';
/** Granite 3.1's list opener: a string, not a token of its vocabulary (vLLM's `bot_string`). */
export const TOOL_CALL_STRING = '<tool_call>';
export const FUNCTION_CALL = '<function_call>';
/**
 * Granite 3.1's markup as it tells itself from Hermes' (which writes the same `<tool_call>`): the string opens a JSON
 * list, and no `</tool_call>` closes it anywhere (Hermes closes each call; a list inside closed tags stays Hermes',
 * as SGLang reads lists there).
 */
export function hasGranite31List(text: string): boolean {
  return /<tool_call>\s*\[/u.test(text) && !text.includes('</tool_call>');
}
export const END_OF_TEXT = '<|end_of_text|>';

export type GraniteMarkerName = 'list-begin' | 'call-begin' | 'end-of-turn';

export const GRANITE_MARKERS: readonly MarkerDef<GraniteMarkerName>[] = [
  { text: TOOL_CALL_TOKEN, name: 'list-begin' },
  { text: TOOL_CALL_STRING, name: 'list-begin' },
  { text: FUNCTION_CALL, name: 'call-begin' },
  { text: END_OF_TEXT, name: 'end-of-turn' },
];

/** The keys of the call object that carry the arguments (vLLM reads `arguments`). */
export const ARGUMENT_KEYS: readonly string[] = ['arguments'];
