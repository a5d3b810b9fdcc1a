/**
 * The markup of Qwen3-Coder completions: `<tool_call>` and `</tool_call>` are special tokens; inside them the call
 * is XML-like text, one value per parameter:
 *
 *   <tool_call>
 *   <function=get_weather>
 *   <parameter=city>
 *   Paris
 *   </parameter>
 *   </function>
 *   </tool_call>
 *
 * The tags inside are ordinary text tokens (`<`, `function`, `=` …), so only the special tokens are markers of
 * the format (timeline chips, marker-split checks); the parser still recognises the tags.
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

export const TOOL_CALL_BEGIN = '<tool_call>';
export const TOOL_CALL_END = '</tool_call>';
export const FUNCTION_BEGIN = '<function=';
export const FUNCTION_END = '</function>';
export const PARAMETER_BEGIN = '<parameter=';
export const PARAMETER_END = '</parameter>';

/** The tags' names are their roles in the key/value kernel. */
export type Qwen3CoderMarkerName = Exclude<KeyValueRole, 'key-end' | 'value-begin'>;

/** Everything the parser recognises (special tokens and the text tags). */
export const QWEN3_CODER_SCAN_TABLE: readonly MarkerDef<Qwen3CoderMarkerName>[] = [
  { text: TOOL_CALL_BEGIN, name: 'call-begin' },
  { text: TOOL_CALL_END, name: 'call-end' },
  { text: FUNCTION_BEGIN, name: 'function-begin' },
  { text: FUNCTION_END, name: 'function-end' },
  { text: PARAMETER_BEGIN, name: 'parameter-begin' },
  { text: PARAMETER_END, name: 'parameter-end' },
  { text: '<think>', name: 'think-begin' },
  { text: '</think>', name: 'think-end' },
  { text: '<|im_end|>', name: 'end-of-turn' },
  { text: '<|endoftext|>', name: 'end-of-turn' },
];

/** The special tokens among them: the format's markers. */
export const QWEN3_CODER_TOKEN_MARKERS: readonly string[] = [
  TOOL_CALL_BEGIN,
  TOOL_CALL_END,
  '<think>',
  '</think>',
  '<|im_end|>',
  '<|endoftext|>',
];
