/**
 * How a Kimi K2 call reads between `<|tool_call_begin|>` and `<|tool_call_argument_begin|>`: its id
 * `functions.NAME:IDX`, which names the tool. The what-if says what the id still needs where the grammar refused it,
 * and reads a call tag's tool from its begin (`<|tool_call_begin|>functions.NAME:`, kimiK2StructuralTag.ts).
 */
import type { CallHeaderReading } from '../toolCallFormat.ts';
import { ARGUMENT_BEGIN, CALL_BEGIN, CALL_END, nameFromCallId } from './kimiK2Markers.ts';

const PREFIX = 'functions.';

export const kimiK2CallHeader: CallHeaderReading = {
  callBegin: CALL_BEGIN,
  argumentsBegin: ARGUMENT_BEGIN,
  callEnd: CALL_END,
  toolOf: (header) => nameFromCallId(header.trim()),
  toolOfTag: (begin) =>
    begin.startsWith(CALL_BEGIN)
      ? begin
          .slice(CALL_BEGIN.length)
          .replace(/^functions\./, '')
          .replace(/:$/, '')
      : undefined,
  hint(header, tools) {
    if (header.startsWith(PREFIX) && !header.includes(':')) return `a tool name: ${tools}`;
    if (PREFIX.startsWith(header)) return `"${PREFIX}" then the tool name (${tools})`;
    if (header.startsWith(PREFIX)) return `the call index (digits) then "${ARGUMENT_BEGIN}"`;
    return undefined;
  },
};
