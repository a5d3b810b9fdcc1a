/**
 * The proxy's side towards the upstream endpoint: where a client path goes, which headers cross (hop-by-hop ones
 * never do), and the HTTP client. Requests go through undici's `request`, which hands over the body bytes as they
 * arrive and never decompresses them, with HTTPS_PROXY / HTTP_PROXY / NO_PROXY honoured — except for loopback
 * upstreams (a local vLLM, the embedded endpoint), which are always reached directly.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { endpointLabel, normalizeBaseUrl } from '../replay/endpoint.ts';
import { isLoopback } from '../replay/httpTransport.ts';

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus what the proxy sets or handles
 * itself: host and length are the new connection's, and `expect: 100-continue` was answered already.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

function connectionListed(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Set<string> {
  const value = headers.connection;
  const listed = new Set<string>();
  for (const v of Array.isArray(value) ? value : value ? [value] : [])
    for (const name of v.split(',')) listed.add(name.trim().toLowerCase());
  return listed;
}

export interface RequestHeaderOptions {
  /** Replace the client's credentials with this key (sent as `Authorization: Bearer …`). */
  apiKey?: string;
  /** The proxy rewrites the body: ask for it uncompressed. */
  identityEncoding?: boolean;
}

/** The client's request headers as sent upstream. */
export function upstreamRequestHeaders(
  incoming: IncomingHttpHeaders,
  options: RequestHeaderOptions = {},
): Record<string, string | string[]> {
  const listed = connectionListed(incoming);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  if (options.apiKey) {
    delete out['api-key'];
    delete out['x-api-key'];
    out.authorization = `Bearer ${options.apiKey}`;
  }
  if (options.identityEncoding) out['accept-encoding'] = 'identity';
  return out;
}

/** The upstream's response headers as sent to the client (`keepLength`: the body goes through unchanged). */
export function clientResponseHeaders(upstream: Record<string, string | string[] | undefined>, keepLength: boolean): OutgoingHttpHeaders {
  const listed = connectionListed(upstream);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || listed.has(name)) continue;
    if (HOP_BY_HOP.has(name) && !(keepLength && name === 'content-length')) continue;
    out[name] = value;
  }
  return out;
}

export interface UpstreamOptions {
  /** Base URL, with or without `/v1`. */
  url: string;
  /** No response headers, or no body bytes, for this long: the request fails (undici's headers/body timeouts). */
  timeoutMs?: number;
}

export interface UpstreamRequest {
  method: string;
  /** The client's path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer | null;
  signal: AbortSignal;
}

export class Upstream {
  /** `http://host:8000/v1` */
  readonly baseUrl: string;
  /** The base URL without credentials, for records and logs. */
  readonly label: string;
  private readonly dispatcher: Dispatcher;

  constructor(options: UpstreamOptions) {
    this.baseUrl = normalizeBaseUrl(options.url);
    const parsed = new URL(this.baseUrl);
    // A key in the URL would be sent nowhere (requests go to the origin) and shown in logs: refuse it.
    if (parsed.username || parsed.password)
      throw new Error('the upstream URL carries credentials: pass the key separately (--api-key-env, or Set API Key in VS Code)');
    this.label = endpointLabel({ name: 'upstream', baseUrl: this.baseUrl, model: '', engine: 'vllm' });
    const timeouts = { headersTimeout: options.timeoutMs ?? 600_000, bodyTimeout: options.timeoutMs ?? 600_000 };
    this.dispatcher = isLoopback(this.baseUrl) ? new Agent(timeouts) : new EnvHttpProxyAgent(timeouts);
  }

  /** Where a client path goes: `/v1/…` under the base URL, anything else under the base URL's parent. */
  urlFor(pathAndQuery: string): string {
    const base = new URL(this.baseUrl);
    const prefix = base.pathname.replace(/\/v1$/u, '');
    const q = pathAndQuery.indexOf('?');
    const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
    const query = q < 0 ? '' : pathAndQuery.slice(q);
    return `${base.origin}${prefix}${path.startsWith('/') ? path : `/${path}`}${query}`;
  }

  send(req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    return request(this.urlFor(req.path), {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      dispatcher: this.dispatcher,
    });
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
