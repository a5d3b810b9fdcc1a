/**
 * MiniMax-M3's calls as its chat template's `to_xml` renders them (described in ml-explore/mlx-lm PR 1416): the block,
 * then per call `]<]minimax[>[<invoke name="N">` and a tag named after each key, one a line; an object's members and
 * an array's items (`<item>`) as child tags, a string the bare text, any other value its JSON.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { ELEMENT_BEGIN, ELEMENT_END, INVOKE_BEGIN, INVOKE_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './minimaxM3Markers.ts';

/** One element: `]<]minimax[>[<KEY>VALUE]<]minimax[>[</KEY>`, an object or array as child elements a line each. */
export function elementText(key: string, value: unknown): string {
  const children = Array.isArray(value)
    ? value.map((v) => elementText('item', v))
    : value !== null && typeof value === 'object'
      ? Object.entries(value).map(([k, v]) => elementText(k, v))
      : null;
  // An empty object or array is its JSON (no child tags to write).
  const body = children?.length ? `\n${children.join('\n')}\n` : typeof value === 'string' ? value : JSON.stringify(value);
  return `${ELEMENT_BEGIN}${key}>${body}${ELEMENT_END}${key}>`;
}

export const minimaxM3CallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: `${TOOL_CALL_BEGIN}\n`,
  separator: '\n',
  close: `\n${TOOL_CALL_END}`,
  head: (name) => `${INVOKE_BEGIN}"${name}">\n`,
  member: (key, value) => `${elementText(key, value)}\n`,
  tail: INVOKE_END,
};
