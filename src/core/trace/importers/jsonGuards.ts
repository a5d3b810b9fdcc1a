/**
 * Narrowing helpers for parsed JSON: importers receive `unknown` and check just enough to type it honestly.
 */

export type UnknownObject = Record<string, unknown>;

export function isObject(value: unknown): value is UnknownObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** A short description of a JSON value for error messages ("array", "string", "null" …). */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** The first keys of an object, for "found keys: …" in messages. */
export function listKeys(value: UnknownObject, max = 8): string {
  const keys = Object.keys(value);
  if (keys.length === 0) return '(none)';
  const shown = keys.slice(0, max).join(', ');
  return keys.length > max ? `${shown}, … (${keys.length} keys)` : shown;
}
