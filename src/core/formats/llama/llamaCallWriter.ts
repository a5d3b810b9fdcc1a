/**
 * Llama 3.x/4 calls as the model writes them — and as xgrammar's `llama` tag spells them: the bare object
 * `{"name": "NAME", "parameters": {…}}`, several joined by `; ` (vLLM's llama3_json). A Llama answer that calls a tool
 * is the calls alone: text before them would make vLLM read the whole answer as content, so none is written.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { CALL_SEPARATOR } from './llamaMarkers.ts';

export const llamaCallWriter: FormatCallWriter = {
  lead: () => '',
  open: '',
  separator: `${CALL_SEPARATOR} `,
  close: '',
  head: (name) => `{"name": ${JSON.stringify(name)}, "parameters": `,
  tail: '}',
};
