/** DeepSeek-V3.1's calls as the model writes them: one calls block, each call `NAME<｜tool▁sep｜>` then its JSON. */
import type { FormatCallWriter } from '../callWriter.ts';
import { CALL_BEGIN, CALL_END, CALLS_BEGIN, CALLS_END, TOOL_SEP } from './deepseekV31Markers.ts';

export const deepseekV31CallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: CALLS_BEGIN,
  separator: '',
  close: CALLS_END,
  head: (name) => `${CALL_BEGIN}${name}${TOOL_SEP}`,
  tail: CALL_END,
};
