/**
 * JSON values written back as Python literals, for the call writers of the pythonic formats (pythonic, LFM2): the
 * inverse of the pythonic reader (pythonCallReader.ts). Strings in double quotes with JSON's escapes (Python reads
 * them alike), `True`/`False`/`None`, lists and dicts.
 */

/** A JSON value as a Python literal. */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`;
  return 'None';
}

/** One keyword argument, followed by `, ` (Python allows the trailing comma before the call's `)`). */
export function keywordArgument(key: string, value: unknown): string {
  return `${key}=${pythonLiteral(value)}, `;
}
