/**
 * Mistral's calls as v11+ models write them: `[TOOL_CALLS]NAME[ARGS]{json}` per call, back to back, after any text
 * (mistral-common's InstructTokenizerV11 `_encode_tool_calls_in_assistant_message`, without `[CALL_ID]`: a new call
 * has no id until the server gives it one).
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { ARGS, TOOL_CALLS } from './mistralMarkers.ts';

export const mistralCallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: '',
  separator: '',
  close: '',
  head: (name) => `${TOOL_CALLS}${name}${ARGS}`,
  tail: '',
};
