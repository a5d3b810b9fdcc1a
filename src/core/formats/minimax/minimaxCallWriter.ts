/**
 * MiniMax-M2's calls as its chat template writes them: `<minimax:tool_call>`, then per call `<invoke name="N">` and
 * a `<parameter name="KEY">VALUE</parameter>` line per argument, then `</invoke>`; all calls of a turn in one block.
 * A string value is the bare text, any other value its JSON.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { INVOKE_BEGIN, INVOKE_END, PARAMETER_BEGIN, PARAMETER_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './minimaxMarkers.ts';

/** One argument as the model writes it. */
export function parameterText(key: string, value: unknown): string {
  return `${PARAMETER_BEGIN}"${key}">${typeof value === 'string' ? value : JSON.stringify(value)}${PARAMETER_END}\n`;
}

export const minimaxCallWriter: FormatCallWriter = {
  lead: (content) => `${content}\n`,
  open: `${TOOL_CALL_BEGIN}\n`,
  separator: '\n',
  close: `\n${TOOL_CALL_END}`,
  head: (name) => `${INVOKE_BEGIN}"${name}">\n`,
  member: parameterText,
  tail: INVOKE_END,
};
