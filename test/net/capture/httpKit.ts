/**
 * Raw HTTP for the proxy tests: node:http clients that keep the exact body bytes (and when each piece arrived), and
 * small upstreams that misbehave on purpose.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Milliseconds from sending to each piece of the body. */
  arrivals: number[];
  /** The response broke off (reset, closed mid-body). */
  broken: boolean;
}

export interface PostOptions {
  headers?: Record<string, string>;
  /** Destroy the connection once this many body bytes arrived (a client that goes away). */
  disconnectAfterBytes?: number;
  method?: string;
}

/** Sends `body` (JSON unless a string) and reads the whole response as bytes, or up to a disconnect. */
export function post(url: string, body: unknown, options: PostOptions = {}): Promise<RawResponse> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'POST', headers: { 'content-type': 'application/json', ...options.headers } },
      (res: IncomingMessage) => {
        const parts: Buffer[] = [];
        const arrivals: number[] = [];
        let size = 0;
        let settled = false;
        const done = (broken: boolean) => {
          if (settled) return;
          settled = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), arrivals, broken });
        };
        res.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          arrivals.push(performance.now() - started);
          size += chunk.length;
          if (options.disconnectAfterBytes !== undefined && size >= options.disconnectAfterBytes) {
            req.destroy();
            done(true);
          }
        });
        res.on('end', () => done(false));
        res.on('aborted', () => done(true));
        res.on('error', () => done(true));
        res.on('close', () => done(!res.complete));
      },
    );
    req.on('error', (err) => reject(err));
    if (options.method !== 'GET') req.end(payload);
    else req.end();
  });
}

/** The `data:` payloads of an SSE body, `[DONE]` left out. */
export function ssePayloads(body: Buffer): string[] {
  return body
    .toString('utf8')
    .split(/\r?\n/u)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trimStart())
    .filter((d) => d !== '[DONE]');
}

/** The embedded endpoint numbers its answers and stamps the time: the only bytes that differ between two runs. */
export function normalizeSim(body: Buffer | string): string {
  return body
    .toString()
    .replace(/"id":"(chatcmpl|cmpl)-toolscope-\d+"/gu, '"id":"$1-toolscope-N"')
    .replace(/"created":\d+/gu, '"created":0');
}

export interface TestUpstream {
  url: string;
  /** Requests seen, with the headers and body they arrived with, and whether their response closed early. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string; closedEarly: Promise<boolean> }>;
  close(): Promise<void>;
}

/** A small upstream answering with `handler`; records each request. */
export async function testUpstream(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<TestUpstream> {
  const requests: TestUpstream['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const closedEarly = new Promise<boolean>((resolve) => res.on('close', () => resolve(!res.writableFinished)));
      requests.push({ path: req.url ?? '', headers: req.headers, body, closedEarly });
      void handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-capture-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
