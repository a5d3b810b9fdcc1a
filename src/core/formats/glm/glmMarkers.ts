/**
 * The markup of GLM-4.5/4.6 and GLM-4.7/5.x completions (zai-org). A call is `<tool_call>` and the function name,
 * then an `<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>` pair per argument, then `</tool_call>`:
 *
 *   GLM-4.5/4.6 (a line break after the name and after each tag pair):
 *   <tool_call>get_weather
 *   <arg_key>city</arg_key>
 *   <arg_value>Paris</arg_value>
 *   </tool_call>
 *
 *   GLM-4.7/5.x (no line breaks; a call without arguments is `<tool_call>get_time</tool_call>`):
 *   <tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>
 *
 * Each tag is one token of the models' vocabulary (added tokens, `special: false`: they survive
 * `skip_special_tokens`, vLLM's glm4_moe_tool_parser.py still turns it off). Reasoning is `<think>`…`</think>`; a turn
 * that calls tools ends with `<|observation|>`, one of the models' end-of-turn ids with `<|user|>` and
 * `<|endoftext|>` (the chat template's roles).
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

export const TOOL_CALL_BEGIN = '<tool_call>';
export const TOOL_CALL_END = '</tool_call>';
export const ARG_KEY_BEGIN = '<arg_key>';
export const ARG_KEY_END = '</arg_key>';
export const ARG_VALUE_BEGIN = '<arg_value>';
export const ARG_VALUE_END = '</arg_value>';
export const OBSERVATION = '<|observation|>';

/** Everything the parser recognises, by its role in the key/value kernel. */
export const GLM_SCAN_TABLE: readonly MarkerDef<KeyValueRole>[] = [
  { text: TOOL_CALL_BEGIN, name: 'call-begin' },
  { text: TOOL_CALL_END, name: 'call-end' },
  { text: ARG_KEY_BEGIN, name: 'parameter-begin' },
  { text: ARG_KEY_END, name: 'key-end' },
  { text: ARG_VALUE_BEGIN, name: 'value-begin' },
  { text: ARG_VALUE_END, name: 'parameter-end' },
  { text: '<think>', name: 'think-begin' },
  { text: '</think>', name: 'think-end' },
  { text: OBSERVATION, name: 'end-of-turn' },
  { text: '<|user|>', name: 'end-of-turn' },
  { text: '<|endoftext|>', name: 'end-of-turn' },
];

/** The format's markers: every tag above is a single token of the vocabulary. */
export const GLM_TOKEN_MARKERS: readonly string[] = GLM_SCAN_TABLE.map((m) => m.text);
