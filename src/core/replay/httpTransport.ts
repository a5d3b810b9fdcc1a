/**
 * HTTP for replays: undici's fetch with a dispatcher that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY (Node's
 * built-in fetch ignores them). NODE_EXTRA_CA_CERTS is applied by Node itself to every TLS connection.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';

let dispatcher: Dispatcher | null = null;

function proxyDispatcher(): Dispatcher {
  dispatcher ??= new EnvHttpProxyAgent();
  return dispatcher;
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
    dispatcher: proxyDispatcher(),
  });
  return response as unknown as Response;
}
