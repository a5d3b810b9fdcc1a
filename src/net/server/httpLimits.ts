/**
 * What the embedded endpoint and the recording proxy accept from a client: how long it may take to send its
 * headers and its whole request, and which callers are refused. Both listen on loopback for programs on this
 * machine; a web page must not drive them (DNS rebinding), and a client that dribbles its request must not hold a
 * connection open for ever. Responses are not timed here: long generations are bounded by the upstream's timeouts.
 */
import type { IncomingMessage, ServerOptions } from 'node:http';

/** The client's request headers must arrive within this time. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
/** The client's whole request (headers and body) must arrive within this time: 408 otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

export interface ClientLimits {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** node:http server options enforcing the limits (Node answers 408 and closes the connection). */
export function clientTimeouts(limits: ClientLimits): ServerOptions {
  const requestTimeout = limits.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Node's headersTimeout must not exceed requestTimeout.
  const headersTimeout = Math.min(limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  // Node checks the timeouts on an interval (30 s by default): often enough that a short limit means something.
  return { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))) };
}

/**
 * Why a request is refused, or null. Browsers send `Origin` with every cross-site request, API clients do not;
 * and on loopback, a `Host` that is not a loopback name is DNS rebinding.
 */
export function browserRefusal(req: IncomingMessage, listenHost: string, what: string): string | null {
  if (req.headers.origin !== undefined) return `requests from web pages are refused (Origin: ${req.headers.origin})`;
  if (!LOOPBACK_HOSTS.has(listenHost)) return null;
  const host = (req.headers.host ?? '')
    .replace(/:\d+$/u, '')
    .replace(/^\[|\]$/gu, '')
    .toLowerCase();
  if (host !== '' && !LOOPBACK_HOSTS.has(host)) return `requests for host "${host}" are refused: this ${what} serves ${listenHost}`;
  return null;
}
