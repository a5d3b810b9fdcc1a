/** LFM2's calls as the model writes them: `<|tool_call_start|>[f(a=1), g()]<|tool_call_end|>` after what it says. */
import type { FormatCallWriter } from '../callWriter.ts';
import { keywordArgument } from '../kernel/pythonLiteral.ts';
import { TOOL_CALL_END, TOOL_CALL_START } from './lfm2Markers.ts';

export const lfm2CallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: `${TOOL_CALL_START}[`,
  separator: ', ',
  close: `]${TOOL_CALL_END}`,
  head: (name) => `${name}(`,
  member: keywordArgument,
  tail: ')',
};
