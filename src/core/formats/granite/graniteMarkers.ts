/**
 * The markup of IBM Granite's JSON tool calls, in the two forms vLLM reads (docs/formats/granite.md):
 * - Granite 3.0 (vLLM `granite`): `<|tool_call|>` (a special token of its vocabulary) then a JSON list of
 *   `{"name": …, "arguments": {…}}` objects (vllm/tool_parsers/granite_tool_parser.py @
 *   017e9f4448b700e85ee16023287b025693c72b9e);
 * - granite-20b-functioncalling (vLLM `granite-20b-fc`): each call `<function_call>` then one JSON object, calls on
 *   their own lines (granite_20b_fc_tool_parser.py @ 017e9f4).
 * `<|end_of_text|>` ends the text. Neither is pythonic: both are JSON calls, read by the kernel's JSON-call scanner.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';

export const TOOL_CALL_TOKEN = '<|tool_call|>';
export const FUNCTION_CALL = '<function_call>';
export const END_OF_TEXT = '<|end_of_text|>';

export type GraniteMarkerName = 'list-begin' | 'call-begin' | 'end-of-turn';

export const GRANITE_MARKERS: readonly MarkerDef<GraniteMarkerName>[] = [
  { text: TOOL_CALL_TOKEN, name: 'list-begin' },
  { text: FUNCTION_CALL, name: 'call-begin' },
  { text: END_OF_TEXT, name: 'end-of-turn' },
];

/** The keys of the call object that carry the arguments (vLLM reads `arguments`). */
export const ARGUMENT_KEYS: readonly string[] = ['arguments'];
