/**
 * Qwen3-Coder's calls as the model writes them: `<tool_call>`, `<function=NAME>`, then one
 * `<parameter=KEY>` … `</parameter>` per argument, each on its own lines; a string value is the bare text, any
 * other value its JSON (parameterTypes.ts reads them back by the schema).
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { FUNCTION_BEGIN, FUNCTION_END, PARAMETER_BEGIN, PARAMETER_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './qwen3CoderMarkers.ts';

/** One parameter as the model writes it. */
export function parameterText(key: string, value: unknown): string {
  return `${PARAMETER_BEGIN}${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n${PARAMETER_END}\n`;
}

export const qwen3CoderCallWriter: FormatCallWriter = {
  lead: (content) => `${content}\n\n`,
  open: '',
  separator: '\n',
  close: '',
  head: (name) => `${TOOL_CALL_BEGIN}\n${FUNCTION_BEGIN}${name}>\n`,
  member: parameterText,
  tail: `${FUNCTION_END}\n${TOOL_CALL_END}`,
};
