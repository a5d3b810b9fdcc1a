/**
 * The markup of MiniMax-M2 / M2.1 / M2.5 / M2.7 completions (MiniMaxAI). A block holds one or more invokes, each a
 * name and a `<parameter name="KEY">VALUE</parameter>` per argument, one tag a line:
 *
 *   <minimax:tool_call>
 *   <invoke name="get_weather">
 *   <parameter name="city">Paris</parameter>
 *   </invoke>
 *   </minimax:tool_call>
 *
 * The block tags and the think tags are tokens of the vocabulary (vLLM's minimax_m2 parser reads them by id:
 * vllm/parser/minimax_m2.py `token_id_terminals`); `<invoke name=` and `<parameter name=` are text. Reasoning is
 * `<think>`…`</think>`, the template opening it in the prompt. The turn ends with `[e~[`, which no `<` scan sees.
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

export const TOOL_CALL_BEGIN = '<minimax:tool_call>';
export const TOOL_CALL_END = '</minimax:tool_call>';
export const INVOKE_BEGIN = '<invoke name=';
export const INVOKE_END = '</invoke>';
export const PARAMETER_BEGIN = '<parameter name=';
export const PARAMETER_END = '</parameter>';

/** Everything the parser recognises, by its role in the key/value kernel. */
export const MINIMAX_SCAN_TABLE: readonly MarkerDef<KeyValueRole>[] = [
  { text: TOOL_CALL_BEGIN, name: 'call-begin' },
  { text: TOOL_CALL_END, name: 'call-end' },
  { text: INVOKE_BEGIN, name: 'function-begin' },
  { text: INVOKE_END, name: 'function-end' },
  { text: PARAMETER_BEGIN, name: 'parameter-begin' },
  { text: PARAMETER_END, name: 'parameter-end' },
  { text: '<think>', name: 'think-begin' },
  { text: '</think>', name: 'think-end' },
];

/** The tags that are tokens of the vocabulary (the rest are text the parser recognises). */
export const MINIMAX_TOKEN_MARKERS: readonly string[] = [TOOL_CALL_BEGIN, TOOL_CALL_END, '<think>', '</think>'];
