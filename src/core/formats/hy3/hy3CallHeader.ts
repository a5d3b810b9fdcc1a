/**
 * How a Hy3 call reads between `<tool_call>` and `<tool_sep>`, in either spelling: the tool name. The what-if says a
 * tool name is wanted where the grammar refused one, and reads a call tag's tool from its begin
 * (`<tool_call:opensource>NAME<tool_sep:opensource>\n`, hy3StructuralTag.ts). The arguments are tags of free text, not
 * one JSON text: the reading stops short of them (its `argumentsBegin` is the call's end).
 */
import type { CallHeaderReading } from '../toolCallFormat.ts';

// What both spellings share: `<tool_call>` and `<tool_call:opensource>` begin so, and `</tool_call…` ends them.
const CALL_BEGIN = '<tool_call';
const CALL_END = '</tool_call';
const TAG_BEGIN = /^<tool_call(?::opensource)?>([^<]*)<tool_sep(?::opensource)?>\n$/u;

export const hy3CallHeader: CallHeaderReading = {
  callBegin: CALL_BEGIN,
  argumentsBegin: CALL_END,
  callEnd: CALL_END,
  toolOf: (header) =>
    header
      .replace(/^(?::opensource)?>/u, '')
      .replace(/<tool_sep(?::opensource)?>[^]*$/u, '')
      .trim(),
  toolOfTag: (begin) => TAG_BEGIN.exec(begin)?.[1],
  hint: (header, tools) => (/^(?::opensource)?>[^<]*$/u.test(header) ? `a tool name: ${tools}` : undefined),
};
