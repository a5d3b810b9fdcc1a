/**
 * Removes credentials from anything Toolscope saves or shows: header-like keys (`Authorization`, `api-key`,
 * `x-api-key`, cookies, tokens, secrets), key-like URL query parameters, and bearer tokens inside strings.
 */
const SECRET_KEY = /^(?:authorization|proxy-authorization|api[-_]?key|x-api-key|x-goog-api-key|apikey|cookie|set-cookie|access[-_]?token|refresh[-_]?token|id[-_]?token|secret|client[-_]?secret|password|passwd|token|bearer)$/iu;
const QUERY_SECRET = /([?&](?:api[-_]?key|key|access[-_]?token|token|secret|sig|signature|password)=)[^&#\s"]+/giu;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gu;
const KEY_LIKE = /\b(sk|rk|pk)-[A-Za-z0-9_-]{16,}\b/gu;

export const REDACTED = '[redacted]';

export function redactString(s: string): string {
  return s.replace(QUERY_SECRET, `$1${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`).replace(KEY_LIKE, REDACTED);
}

/** A deep copy with secrets replaced; the input is not touched. */
export function redact<T>(value: T): T {
  return walk(value) as T;
}

function walk(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map(walk);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && v !== '' ? REDACTED : walk(v);
    return out;
  }
  return value;
}
