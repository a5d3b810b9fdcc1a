/**
 * HTTP for replays: undici's fetch with a dispatcher that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY (Node's
 * built-in fetch ignores them). NODE_EXTRA_CA_CERTS is applied by Node itself to every TLS connection.
 */
import { Agent, EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';

let proxied: Dispatcher | null = null;
let direct: Dispatcher | null = null;

/** Loopback (the embedded endpoint, a local vLLM) never goes through a proxy, whatever NO_PROXY says. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function dispatcherFor(url: string): Dispatcher {
  if (isLoopback(url)) return (direct ??= new Agent());
  return (proxied ??= new EnvHttpProxyAgent());
}

export interface HttpRequest {
  url: string;
  body: unknown;
  headers: Record<string, string>;
  signal: AbortSignal;
}

export async function postJson(req: HttpRequest): Promise<Response> {
  const response = await undiciFetch(req.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...req.headers },
    body: JSON.stringify(req.body),
    signal: req.signal,
    dispatcher: dispatcherFor(req.url),
  });
  return response as unknown as Response;
}
