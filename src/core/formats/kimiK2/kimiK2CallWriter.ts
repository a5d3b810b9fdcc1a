/** Kimi K2's calls as the model writes them: one section, each call `functions.NAME:INDEX` then its JSON. */
import type { FormatCallWriter } from '../callWriter.ts';
import { ARGUMENT_BEGIN, CALL_BEGIN, CALL_END, SECTION_BEGIN, SECTION_END } from './kimiK2Markers.ts';

export const kimiK2CallWriter: FormatCallWriter = {
  lead: (content) => `${content} `,
  open: SECTION_BEGIN,
  separator: '',
  close: SECTION_END,
  head: (name, index) => `${CALL_BEGIN}functions.${name}:${index}${ARGUMENT_BEGIN}`,
  tail: CALL_END,
};
