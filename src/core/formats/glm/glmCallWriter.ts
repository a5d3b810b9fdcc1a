/**
 * GLM's calls as GLM-4.7/5.x write them: `<tool_call>NAME`, an `<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>`
 * pair per argument, `</tool_call>`, no line breaks; a string value is the bare text, any other value its JSON (the
 * chat template's `v | tojson if v is not string`). Calls follow each other directly.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { ARG_KEY_BEGIN, ARG_KEY_END, ARG_VALUE_BEGIN, ARG_VALUE_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './glmMarkers.ts';

/** One argument as the model writes it. */
export function argumentText(key: string, value: unknown): string {
  return `${ARG_KEY_BEGIN}${key}${ARG_KEY_END}${ARG_VALUE_BEGIN}${typeof value === 'string' ? value : JSON.stringify(value)}${ARG_VALUE_END}`;
}

export const glmCallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: '',
  separator: '',
  close: '',
  head: (name) => `${TOOL_CALL_BEGIN}${name}`,
  member: argumentText,
  tail: TOOL_CALL_END,
};
