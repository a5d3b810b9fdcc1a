/** An OpenAI-compatible endpoint to replay against. Keys never live here: they are passed per call. */
export type Engine = 'vllm' | 'sglang' | 'openai';

export interface Endpoint {
  name: string;
  /** Base URL up to and including `/v1`, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  model: string;
  engine: Engine;
}

export const ENGINES: readonly Engine[] = ['vllm', 'sglang', 'openai'];

/** Accepts `host:port`, a URL with or without `/v1`, with or without a trailing slash. */
export function normalizeBaseUrl(input: string): string {
  let url = input.trim();
  if (!/^https?:\/\//iu.test(url)) url = `http://${url}`;
  const parsed = new URL(url);
  let path = parsed.pathname.replace(/\/+$/u, '');
  if (!/\/v1$/u.test(path)) path = `${path}/v1`;
  parsed.pathname = path;
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString().replace(/\/$/u, '');
}

/** The endpoint as saved in records: URL without credentials or query. */
export function endpointLabel(e: Endpoint): string {
  const u = new URL(e.baseUrl);
  u.username = '';
  u.password = '';
  return u.toString().replace(/\/$/u, '');
}
