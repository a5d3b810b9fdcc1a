/**
 * How a Kimi K3 call reads between `<|open|>call` and its `<|sep|>`: the attributes ` tool="NAME" index="N"`, which
 * name the tool. The what-if says a tool name is wanted where the grammar refused one, and reads a call tag's tool from
 * its begin (`<|open|>call tool="NAME" index="`, kimiK3StructuralTag.ts). Past the header each argument is a tag of its
 * own, not one JSON text: the reading stops short of them (its `argumentsBegin` is the call's end, so no header
 * reaches past the `<|sep|>`), and the what-if reads each argument's schema from that argument's tag.
 */
import type { CallHeaderReading } from '../toolCallFormat.ts';
import { CALL_CLOSE, CALL_OPEN, SEP, toolAttribute, unescapeAttribute } from './kimiK3Markers.ts';

const TAG_BEGIN = `${CALL_OPEN} tool="`;
const TAG_END = '" index="';

export const kimiK3CallHeader: CallHeaderReading = {
  callBegin: CALL_OPEN,
  argumentsBegin: CALL_CLOSE,
  callEnd: CALL_CLOSE,
  toolOf: (header) => toolAttribute(header).name,
  toolOfTag: (begin) =>
    begin.startsWith(TAG_BEGIN) && begin.endsWith(TAG_END) ? unescapeAttribute(begin.slice(TAG_BEGIN.length, -TAG_END.length)) : undefined,
  hint(header, tools) {
    if (/^ tool="[^"]*$/u.test(header)) return `a tool name: ${tools}`;
    if (/^ tool="[^"]*" index="[0-9]*$/u.test(header)) return `the call index (digits) then "${SEP}`;
    return undefined;
  },
};
