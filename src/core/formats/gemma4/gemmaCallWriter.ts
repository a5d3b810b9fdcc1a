/**
 * Gemma 4's calls as the model writes them: `<|tool_call>call:NAME{key:value,…}<tool_call|>`, back to back; a string
 * between `<|"|>` delimiters, numbers and booleans bare, objects `{key:value}` and lists `[…]` in the same notation
 * (the chat template's `format_argument`).
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { GEMMA4_CALL_BEGIN, GEMMA4_CALL_END, GEMMA4_STRING } from './gemmaMarkers.ts';

/** A JSON value in Gemma 4's notation. */
export function gemmaValue(value: unknown): string {
  if (typeof value === 'string') return `${GEMMA4_STRING}${value}${GEMMA4_STRING}`;
  if (Array.isArray(value)) return `[${value.map(gemmaValue).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}:${gemmaValue(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export const gemma4CallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: '',
  separator: '',
  close: '',
  head: (name) => `${GEMMA4_CALL_BEGIN}call:${name}{`,
  member: (key, value) => `${key}:${gemmaValue(value)}`,
  memberSeparator: ',',
  tail: `}${GEMMA4_CALL_END}`,
};
