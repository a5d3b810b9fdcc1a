/**
 * Removes credentials from anything Toolscope saves or shows. Keys travel in more places than headers: a field
 * named like a key (`Authorization`, `api_key`, `apiKey`, `x-api-key`, cookies, tokens, secrets), a request body
 * that was not JSON and is kept as text (`{"api_key": "…"}` inside a string), a URL's `?key=`, a bearer token, or
 * a bare key pasted into any string — so strings are searched for the shapes hosted APIs give their keys too:
 * OpenAI `sk-…`/`sk-proj-…`, Anthropic `sk-ant-…`, Moonshot `sk-…`, Groq `gsk_…`, Together `tgp_v1_…`, Fireworks
 * `fw_…`, Hugging Face `hf_…`, xAI `xai-…`, Google `AIza…`. Values nested deeper than the walk goes are dropped,
 * not copied unredacted.
 */
import { MAX_JSON_DEPTH } from './jsonDepth.ts';

const KEY_NAME = String.raw`(?:authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|secret[-_]?key|secret|password|passwd|token|bearer|cookie|set-cookie)`;
const SECRET_KEY = new RegExp(`^${KEY_NAME}$`, 'iu');
/** `"api_key": "…"`, `api_key=…`, `x-api-key: …` written inside a string (a raw body, a header dump, a log line). */
const FIELD_IN_TEXT = new RegExp(
  String.raw`((?:^|[^A-Za-z0-9_-])["']?${KEY_NAME}["']?\s*[:=]\s*["']?)(?!Bearer\s|Basic\s|\[redacted\])([^"'\s,;&}\]]{4,})`,
  'giu',
);
const QUERY_SECRET = /([?&](?:api[-_]?key|key|access[-_]?token|token|secret|sig|signature|password)=)[^&#\s"']+/giu;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gu;
/** Key shapes of hosted APIs (prefix, then the random part). */
const KEY_SHAPES =
  /(?<![A-Za-z0-9])(?:(?:sk|rk|pk)-[A-Za-z0-9_-]{12,}|gsk_[A-Za-z0-9]{16,}|fw_[A-Za-z0-9]{16,}|tgp_v1_[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|AIza[0-9A-Za-z_-]{30,})/gu;

export const REDACTED = '[redacted]';

export function redactString(s: string): string {
  return s
    .replace(QUERY_SECRET, `$1${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(FIELD_IN_TEXT, `$1${REDACTED}`)
    .replace(KEY_SHAPES, REDACTED);
}

/** A deep copy with secrets replaced; the input is not touched. */
export function redact<T>(value: T): T {
  return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH) return `[nested deeper than ${MAX_JSON_DEPTH} levels: not kept]`;
  if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && v !== '' ? REDACTED : walk(v, depth + 1);
  return out;
}

/** The shortest credential searched for as an exact string: anything shorter would strike ordinary words. */
export const MIN_EXACT_SECRET = 16;

/**
 * The credentials a request carried (`Authorization` with or without its scheme, `x-api-key`, `api-key`, and the
 * values of query parameters named like a key), those of MIN_EXACT_SECRET characters or more: what the recording
 * proxy forwarded, to be struck wherever it appears in the record (an upstream echoing the key in its answer).
 */
export function requestCredentials(headers: Record<string, string | string[] | undefined>, pathAndQuery: string): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined): void => {
    const v = value?.trim();
    if (v !== undefined && v.length >= MIN_EXACT_SECRET) found.add(v);
  };
  for (const name of ['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key']) {
    const raw = headers[name];
    for (const value of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
      add(value);
      add(/^\s*(?:Bearer|Basic|Token)\s+(.+)$/iu.exec(value)?.[1]);
    }
  }
  const query = pathAndQuery.indexOf('?');
  if (query >= 0) {
    for (const [name, value] of new URLSearchParams(pathAndQuery.slice(query + 1)))
      if (/^(?:api[-_]?key|key|access[-_]?token|token|secret|sig|signature|password)$/iu.test(name)) add(value);
  }
  // Longest first, so a key inside a longer credential (a bearer value) is struck as the longer one.
  return [...found].sort((a, b) => b.length - a.length);
}

/** Strikes each of `secrets` wherever it occurs in a string of `value` (in place, without recursion). */
export function redactExact(value: unknown, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const strike = (s: string): string => {
    for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join(REDACTED);
    return s;
  };
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) {
      if (typeof x === 'string') (v as Record<string | number, unknown>)[k] = strike(x);
      else if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
}
