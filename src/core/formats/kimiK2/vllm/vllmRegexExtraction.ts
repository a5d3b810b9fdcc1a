/**
 * Non-streaming extraction of generations A and B (the same code in both): one DOTALL regex over the whole
 * completion. Only complete calls match, arguments pass through unvalidated (trimmed by the regex), the id is
 * the raw header and the name is the last dotted segment of the part before the first `:`.
 */
import { ARGUMENT_BEGIN, CALL_BEGIN, CALL_END, SECTION_BEGIN } from '../kimiK2Markers.ts';
import { firstPiece, lastPiece, PY_RE_DIGIT, PY_RE_SPACE, reEscape } from './pyText.ts';
import type { VllmExtraction } from './vllmProfile.ts';

const CALL = new RegExp(
  `${reEscape(CALL_BEGIN)}${PY_RE_SPACE}*(?<id>[^<]+:${PY_RE_DIGIT}+)${PY_RE_SPACE}*${reEscape(ARGUMENT_BEGIN)}` +
    `${PY_RE_SPACE}*(?<args>(?:(?!${reEscape(CALL_BEGIN)})[\\s\\S])*?)${PY_RE_SPACE}*${reEscape(CALL_END)}`,
  'gu',
);

/** `functions.web.search:0` → `search`: the older rule that loses dotted prefixes. */
export const lastSegmentName = (id: string): string => lastPiece(firstPiece(id, ':'), '.');

export function extractWithCallRegex(text: string): VllmExtraction {
  // Only the plural section marker switches extraction on.
  const section = text.indexOf(SECTION_BEGIN);
  if (section < 0) return { tools_called: false, content: text, tool_calls: [] };
  const tool_calls: VllmExtraction['tool_calls'] = [];
  for (const m of text.matchAll(CALL)) {
    const id = m.groups?.id ?? '';
    tool_calls.push({ id, name: lastSegmentName(id), arguments: m.groups?.args ?? '' });
  }
  const content = text.slice(0, section);
  return { tools_called: true, content: content === '' ? null : content, tool_calls };
}
