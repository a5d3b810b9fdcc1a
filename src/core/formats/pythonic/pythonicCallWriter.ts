/**
 * Pythonic calls as the models write them: `[f(a=1, b="x"), g()]`, keyword arguments as Python literals (the
 * inverse of the reader: strings in double quotes with JSON's escapes, which Python reads alike, `True`/`False`/`None`,
 * lists and dicts).
 */
import type { FormatCallWriter } from '../callWriter.ts';

/** A JSON value as a Python literal. */
export function pythonLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`;
  return 'None';
}

/** One keyword argument; the first written without a separator, the others after `, ` (each carries its own). */
export function keywordArgument(key: string, value: unknown): string {
  return `${key}=${pythonLiteral(value)}, `;
}

/** A call's head; its arguments are written as keywords (each ending `, `, the last trimmed by the tail's `)`). */
export const pythonicCallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: '[',
  separator: ', ',
  close: ']',
  head: (name) => `${name}(`,
  member: keywordArgument,
  tail: ')',
};
