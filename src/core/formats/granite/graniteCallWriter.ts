/**
 * Granite 3.0's calls as the model writes them: `<|tool_call|>` and one JSON list of `{"name", "arguments"}` objects
 * (the template's example, vLLM's granite parser). Text before it would make vLLM read the whole answer as content.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { TOOL_CALL_TOKEN } from './graniteMarkers.ts';

export const graniteCallWriter: FormatCallWriter = {
  lead: () => '',
  open: `${TOOL_CALL_TOKEN}[`,
  separator: ', ',
  close: ']',
  head: (name) => `{"name": ${JSON.stringify(name)}, "arguments": `,
  tail: '}',
};
