/**
 * FunctionGemma's calls as the model writes them: `<start_function_call>call:NAME{key:<escape>value<escape>,…}`
 * `<end_function_call>`, back to back; every value between `<escape>` delimiters, non-strings as their JSON (its
 * parser `json.loads` each value back).
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { FUNCTION_GEMMA_CALL_BEGIN, FUNCTION_GEMMA_CALL_END, FUNCTION_GEMMA_ESCAPE } from './functionGemmaMarkers.ts';

export const functionGemmaCallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: '',
  separator: '',
  close: '',
  head: (name) => `${FUNCTION_GEMMA_CALL_BEGIN}call:${name}{`,
  member: (key, value) =>
    `${key}:${FUNCTION_GEMMA_ESCAPE}${typeof value === 'string' ? value : JSON.stringify(value)}${FUNCTION_GEMMA_ESCAPE}`,
  memberSeparator: ',',
  tail: `}${FUNCTION_GEMMA_CALL_END}`,
};
