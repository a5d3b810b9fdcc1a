/**
 * Hermes / Qwen3 calls as the model writes them — and as xgrammar's `qwen_3` tag spells them: `<tool_call>`, a
 * newline, `{"name": "NAME", "arguments": {…}}`, a newline, `</tool_call>`; calls one per line after a blank line.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { TOOL_CALL_BEGIN, TOOL_CALL_END } from './hermesMarkers.ts';

export const hermesCallWriter: FormatCallWriter = {
  lead: (content) => `${content}\n\n`,
  open: '',
  separator: '\n',
  close: '',
  head: (name) => `${TOOL_CALL_BEGIN}\n{"name": ${JSON.stringify(name)}, "arguments": `,
  tail: `}\n${TOOL_CALL_END}`,
};
