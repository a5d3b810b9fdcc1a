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

/** Why `value` is not an array of objects (naming the first bad element by `path[i]`), or null. */
export function objectArrayProblem(value: unknown, path: string): string | null {
  if (!Array.isArray(value)) return `"${path}" must be an array, got ${describeJson(value)}`;
  for (let i = 0; i < value.length; i++) {
    if (!isObject(value[i])) return `${path}[${i}] must be an object, got ${describeJson(value[i])}`;
  }
  return null;
}

/** Why an optional field is not an object: null when it is absent or an object. */
export function optionalObjectProblem(owner: UnknownObject, key: string, path: string): string | null {
  if (!(key in owner) || owner[key] === undefined || isObject(owner[key])) return null;
  return `${path}.${key} must be an object, got ${describeJson(owner[key])}`;
}
