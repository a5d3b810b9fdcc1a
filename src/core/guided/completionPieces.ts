/**
 * A completion cut the way the byte vocabulary sees it: special-token strings as single pieces, the text between
 * them as plain pieces. Shared by the what-if (feeding a recorded completion) and constrained decoding.
 */
import { SPECIAL_TEXTS_BY_LENGTH, STOP_TEXTS } from './byteVocabulary.ts';

export interface Piece {
  start: number;
  text: string;
  special: boolean;
}

/** Splits text at the special tokens, keeping them (a pattern that never matches when the vocabulary has none). */
export const SPECIAL_SPLIT = SPECIAL_TEXTS_BY_LENGTH.length
  ? new RegExp(`(${SPECIAL_TEXTS_BY_LENGTH.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`)
  : /(?!)/;

const SPECIAL_SET: ReadonlySet<string> = new Set(SPECIAL_TEXTS_BY_LENGTH);

export function pieces(text: string, from: number, to: number): Piece[] {
  const out: Piece[] = [];
  let at = from;
  for (const part of text.slice(from, to).split(SPECIAL_SPLIT)) {
    if (part.length > 0) out.push({ start: at, text: part, special: SPECIAL_SET.has(part) });
    at += part.length;
  }
  return out;
}

/** Where the first stop string (or one of the format's `extra` stops) starts at or after `from`, or -1. */
export function stopOffset(text: string, from: number, extra: readonly string[] = []): number {
  const stops = [...STOP_TEXTS, ...extra].map((s) => text.indexOf(s, from)).filter((i) => i >= 0);
  return stops.length ? Math.min(...stops) : -1;
}
