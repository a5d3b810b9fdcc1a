/**
 * `json.dumps(value, sort_keys=True)` as Python writes it (separators ", " and ": ", ASCII-only with \uXXXX
 * escapes), so K2-Vendor-Verifier's request `hash` (md5 of that text) can be reproduced.
 * Numbers print as JavaScript has them: an integral float (Python `1.0`) is indistinguishable after parsing.
 */
import { createHash } from 'node:crypto';

function str(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return str(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${str(k)}: ${pythonJsonDumps(obj[k])}`)
    .join(', ')}}`;
}

export function k2vvRequestHash(request: unknown): string {
  return createHash('md5').update(pythonJsonDumps(request)).digest('hex');
}
