/**
 * Kimi K3's calls as its renderer writes them (vLLM rust/src/chat/src/renderer/kimi_k3 @ 017e9f4, its
 * tools_history_and_required fixture): the answer in the response channel — whose open tag the instruct prompt
 * already holds — closed, then the tools channel with one `call` per call (index from 1) and one typed `argument` per
 * member, no layout between tags.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import {
  ARGUMENT_CLOSE,
  ARGUMENT_OPEN,
  CALL_CLOSE,
  CALL_OPEN,
  escapeAttribute,
  RESPONSE_CLOSE,
  SEP,
  TOOLS_CLOSE,
  TOOLS_OPEN,
} from './kimiK3Markers.ts';

/** The XTML type of a JSON value (the renderer's `_xtml_type`: integers are numbers). */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? typeof value : 'object';
}

/** One argument as the model writes it. */
export function argumentText(key: string, value: unknown): string {
  const type = typeOf(value);
  return `${ARGUMENT_OPEN} key="${escapeAttribute(key)}" type="${type}"${SEP}${typeof value === 'string' ? value : JSON.stringify(value)}${ARGUMENT_CLOSE}`;
}

export const kimiK3CallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: `${RESPONSE_CLOSE}${TOOLS_OPEN}`,
  separator: '',
  close: TOOLS_CLOSE,
  head: (name, index) => `${CALL_OPEN} tool="${escapeAttribute(name)}" index="${index + 1}"${SEP}`,
  member: argumentText,
  tail: CALL_CLOSE,
};
