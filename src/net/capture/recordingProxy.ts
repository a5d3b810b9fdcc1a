/**
 * The recording proxy: an OpenAI-compatible pass-through on 127.0.0.1 that forwards every request to the upstream
 * and every response back unchanged, byte for byte, as the bytes arrive, and appends each `/v1/chat/completions`
 * and `/v1/completions` exchange to a trace as one native record (see capturedExchange.ts, rotatingTraceWriter.ts).
 *
 * Faithful on the failure paths too: upstream 4xx/5xx go through as they are; a reset or stall mid-stream breaks
 * the client's connection the same way; a client that goes away aborts the upstream request. Each of these is in
 * the record. With `captureTokens` the proxy asks for token data and takes it out again (tokenCapturePlan.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import type { Engine } from '../replay/endpoint.ts';
import { CapturedExchange, chatBodyProblem, type ExchangeEnd } from './capturedExchange.ts';
import { BodyDecoder, isEncoded } from './contentDecoding.ts';
import { RotatingTraceWriter } from './rotatingTraceWriter.ts';
import { eventBytes, SseEventSplitter, type SseEvent } from './sseEventSplitter.ts';
import { planTokenCapture, upstreamBody, type CaptureRoute, type TokenCapturePlan } from './tokenCapturePlan.ts';
import { clientResponseHeaders, Upstream, upstreamRequestHeaders } from './upstream.ts';
import { deeperThan, MAX_JSON_DEPTH } from '../../core/util/jsonDepth.ts';
import { requestCredentials } from '../../core/util/redact.ts';
import { browserRefusal, clientTimeouts } from '../server/httpLimits.ts';

export interface RecordingProxyOptions {
  /** The OpenAI-compatible endpoint to forward to (base URL, with or without `/v1`). */
  upstream: string;
  /** The trace file records are appended to. */
  out: string;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Ask the upstream for token data and record it, without the client seeing it. */
  captureTokens?: boolean;
  /** How the upstream asks for token data (`vllm`: `return_tokens_as_token_ids`, usage counts). */
  engine?: Engine;
  /** Rotate the trace before a file grows past this many bytes. */
  maxBytes?: number;
  /** No response headers, or no body bytes, from the upstream for this long: the exchange fails. */
  timeoutMs?: number;
  /** Send this key upstream instead of the client's credentials. */
  apiKey?: string;
  /** Largest request body accepted (default 64 MiB). */
  maxRequestBytes?: number;
  /** The client's request headers must arrive within this time (default 30 s). */
  headersTimeoutMs?: number;
  /** The client's whole request must arrive within this time (default 120 s; 408 otherwise). */
  requestTimeoutMs?: number;
  /** Called after each exchange's record is written. */
  onExchange?: (summary: ExchangeSummary) => void;
  /** Called when records start going to another file. */
  onRotate?: (path: string) => void;
  /** A record that could not be written. */
  onError?: (err: unknown) => void;
}

export interface ExchangeSummary {
  id: string;
  method: string;
  path: string;
  status: number | null;
  streamed: boolean;
  events: number;
  totalMs: number;
  error: string | null;
  /** The file the record went to. */
  file: string;
  /** Records written so far. */
  recorded: number;
}

export interface RunningProxy {
  /** `http://127.0.0.1:PORT/v1`: what clients use as their base URL. */
  url: string;
  port: number;
  /** The upstream's base URL, without credentials. */
  upstream: string;
  /** Records written so far. */
  readonly recorded: number;
  /** The trace file records go to now (changes when the trace rotates). */
  readonly currentFile: string;
  /** Stops accepting, waits up to `graceMs` (default 5 s) for exchanges in flight, aborts the rest, flushes. */
  close(options?: { graceMs?: number }): Promise<void>;
}

const DEFAULT_MAX_REQUEST = 64 * 1024 * 1024;
/** Bytes of a request body handed to the record when it cannot be kept as JSON (it keeps 64 KiB, redacted). */
const MAX_RAW_BODY = 65 * 1024;

class RequestTooLarge extends Error {}

/** The routes whose exchanges are recorded. */
export function routeOf(method: string | undefined, path: string): CaptureRoute | null {
  if (method !== 'POST') return null;
  if (/(?:^|\/)chat\/completions$/u.test(path)) return 'chat';
  if (/(?:^|\/)completions$/u.test(path)) return 'completions';
  return null;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new RequestTooLarge(`request body over ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

/** The first bytes of a body as text (a multi-byte character cut at the end is dropped by the decoder). */
function rawBodyOf(raw: Buffer): string {
  return raw
    .subarray(0, MAX_RAW_BODY)
    .toString('utf8')
    .replace(/\uFFFD$/u, '');
}

function sendProxyError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify({ error: { message: `toolscope proxy: ${message}`, type: 'upstream_error', param: null, code: status } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Resolves when the client can take more bytes (or is gone). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function errorCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return String(e?.code ?? e?.cause?.code ?? '');
}

function errorMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : '';
  return cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** The data line of a one-data-line event rewritten to `data`, every other byte as received. */
function withData(event: SseEvent, data: string): Buffer {
  const parts: Buffer[] = [];
  for (const line of event.lines) {
    const text = line.content;
    if (text.length >= 5 && text.subarray(0, 5).toString('latin1') === 'data' + ':') {
      const prefix = text[5] === 0x20 ? 6 : 5;
      parts.push(text.subarray(0, prefix), Buffer.from(data, 'utf8'), line.terminator);
    } else {
      parts.push(line.content, line.terminator);
    }
  }
  return Buffer.concat(parts);
}

export class RecordingProxy {
  private server: Server | null = null;
  private readonly upstream: Upstream;
  private writer: RotatingTraceWriter | null = null;
  private seq = 0;
  private readonly runId = `proxy-${Date.now().toString(36)}`;
  private readonly inFlight = new Map<Promise<void>, AbortController>();

  constructor(private readonly options: RecordingProxyOptions) {
    this.upstream = new Upstream({ url: options.upstream, timeoutMs: options.timeoutMs });
  }

  async start(): Promise<RunningProxy> {
    this.writer = await RotatingTraceWriter.open({
      path: this.options.out,
      maxBytes: this.options.maxBytes,
      onRotate: this.options.onRotate,
    });
    const server = createServer(clientTimeouts(this.options), (req, res) => {
      const abort = new AbortController();
      const task = this.handle(req, res, abort).catch((err: unknown) => {
        this.options.onError?.(err);
        if (!res.headersSent) sendProxyError(res, 500, `internal error: ${errorMessage(err)}`);
        else res.destroy();
      });
      this.inFlight.set(task, abort);
      void task.finally(() => this.inFlight.delete(task));
    });
    this.server = server;
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const port = (server.address() as AddressInfo).port;
    const writer = this.writer;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    return {
      url: `http://${urlHost}:${port}/v1`,
      port,
      upstream: this.upstream.label,
      get recorded() {
        return writer.recordsWritten;
      },
      get currentFile() {
        return writer.currentPath;
      },
      close: (options) => this.close(options?.graceMs ?? 5000),
    };
  }

  private closing: Promise<void> | null = null;

  /** A second call while stopping, with a grace of 0, aborts what is still in flight at once. */
  private close(graceMs: number): Promise<void> {
    if (this.closing) {
      if (graceMs <= 0) this.abortInFlight();
      return this.closing;
    }
    this.closing = this.shutDown(graceMs);
    return this.closing;
  }

  private abortInFlight(): void {
    for (const abort of this.inFlight.values()) abort.abort(new Error('the proxy stopped'));
  }

  private async shutDown(graceMs: number): Promise<void> {
    const server = this.server;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server?.closeIdleConnections();
    if (this.inFlight.size) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...this.inFlight.keys()]), grace]);
      clearTimeout(timer);
      this.abortInFlight();
      await Promise.allSettled([...this.inFlight.keys()]);
    }
    server?.closeAllConnections();
    await closed;
    await this.writer?.close();
    await this.upstream.close();
  }

  private async record(exchange: CapturedExchange): Promise<void> {
    const writer = this.writer;
    if (!writer) return;
    const record = exchange.toRecord();
    try {
      await writer.append(record);
    } catch (err) {
      this.options.onError?.(err);
      return;
    }
    const req = exchange.request;
    this.options.onExchange?.({
      id: record.id,
      method: req.method,
      path: req.path,
      status: exchange.status,
      streamed: exchange.streamed,
      events: exchange.eventCount,
      totalMs: (record.meta?.timings as { totalMs: number }).totalMs,
      error: record.error ?? null,
      file: writer.currentPath,
      recorded: writer.recordsWritten,
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse, abort: AbortController): Promise<void> {
    const refusal = this.refusal(req);
    if (refusal) {
      req.resume();
      sendProxyError(res, 403, refusal);
      return;
    }
    const pathAndQuery = req.url ?? '/';
    const path = pathAndQuery.split('?')[0] ?? '/';
    const route = routeOf(req.method, path);
    let clientGone = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        clientGone = true;
        abort.abort(new Error('the client disconnected'));
      }
    });

    let raw: Buffer;
    try {
      raw = await readBody(req, this.options.maxRequestBytes ?? DEFAULT_MAX_REQUEST);
    } catch (err) {
      if (err instanceof RequestTooLarge) sendProxyError(res, 413, err.message);
      else res.destroy();
      return;
    }

    let body: Record<string, unknown> | null = null;
    let tooDeep = false;
    if (route) {
      try {
        const parsed: unknown = JSON.parse(raw.toString('utf8'));
        // Too deep to walk (stringify, redact): forwarded as it is and recorded as text, like a body that is not JSON.
        tooDeep = deeperThan(parsed);
        if (!tooDeep && parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        // Not JSON: forwarded as it is, for the upstream to refuse.
      }
    }
    const plan: TokenCapturePlan | null =
      route && body && this.options.captureTokens ? planTokenCapture(route, body, this.options.engine ?? 'vllm') : null;
    const adds = plan !== null && Object.keys(plan.added).length > 0;
    const rewrites = plan !== null && (plan.nullFields.length > 0 || plan.dropUsageChunk);
    const sent = adds && body && plan ? Buffer.from(JSON.stringify(upstreamBody(body, plan)), 'utf8') : raw;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';

    const exchange = route
      ? new CapturedExchange({
          id: `${this.runId}-${++this.seq}`,
          method: req.method ?? 'POST',
          path,
          route,
          headers: req.headers,
          body,
          ...(body && (route !== 'chat' || chatBodyProblem(body) === null) ? {} : { rawBody: rawBodyOf(raw), rawBytes: raw.length }),
          plan,
          upstream: this.upstream.label,
        })
      : null;
    if (exchange) exchange.forwardedCredentials = requestCredentials(req.headers, pathAndQuery);
    if (exchange && tooDeep)
      exchange.note(
        `the request body is nested deeper than ${MAX_JSON_DEPTH} levels: it was forwarded unchanged and is kept as text (meta.rawRequestBody)`,
      );
    const finish = async (end: ExchangeEnd) => {
      if (!exchange) return;
      exchange.finish(end);
      await this.record(exchange);
    };
    const aborted = (): ExchangeEnd | null => (clientGone ? { kind: 'client-aborted' } : abort.signal.aborted ? { kind: 'stopped' } : null);

    let response: Dispatcher.ResponseData;
    try {
      response = await this.upstream.send({
        method: req.method ?? 'GET',
        path: pathAndQuery,
        headers: upstreamRequestHeaders(req.headers, { apiKey: this.options.apiKey, identityEncoding: rewrites }),
        body: hasBody || sent.length ? sent : null,
        signal: abort.signal,
      });
    } catch (err) {
      const end = aborted();
      if (end) return finish(end);
      const timeout = TIMEOUT_CODES.has(errorCode(err));
      sendProxyError(
        res,
        timeout ? 504 : 502,
        `${timeout ? 'no answer from' : 'cannot reach'} ${this.upstream.label}: ${errorMessage(err)}`,
      );
      return finish({ kind: 'unreachable', message: errorMessage(err), timeout });
    }

    const status = response.statusCode;
    const headers = response.headers;
    const contentType = String(headers['content-type'] ?? '');
    const streamed = contentType.includes('text/event-stream');
    const encoded = isEncoded(headers['content-encoding']);
    exchange?.responseStarted(status, headers, streamed);
    const ok = status >= 200 && status < 300;
    const rewriteStream = exchange !== null && rewrites && streamed && ok && !encoded;
    const rewriteWhole = exchange !== null && rewrites && !streamed && ok && !encoded;
    if (exchange && rewrites && ok && encoded)
      exchange.note('the upstream compressed its answer although asked for identity: token data was left in what the client received');

    const write = async (chunk: Buffer) => {
      if (chunk.length && !res.write(chunk)) await drained(res);
    };
    const splitter = exchange && streamed ? new SseEventSplitter() : null;
    const recordEvents = (events: SseEvent[]) => {
      for (const e of events) if (e.data !== null) exchange?.streamData(e.data);
    };
    const decoder =
      exchange && encoded
        ? new BodyDecoder(headers['content-encoding'], (chunk) => {
            if (splitter) recordEvents(splitter.push(chunk));
            else exchange.bodyChunk(chunk);
          })
        : null;

    try {
      if (rewriteWhole && exchange) {
        const parts: Buffer[] = [];
        for await (const chunk of response.body) parts.push(chunk as Buffer);
        const out = exchange.rewriteBody(Buffer.concat(parts));
        res.writeHead(status, { ...clientResponseHeaders(headers, false), 'content-length': out.length });
        res.end(out);
      } else {
        res.writeHead(status, clientResponseHeaders(headers, !rewriteStream));
        // Headers go out now: a client waiting for a slow first token knows the request was accepted.
        res.flushHeaders();
        for await (const data of response.body) {
          const chunk = data as Buffer;
          if (rewriteStream && splitter && exchange) {
            for (const event of splitter.push(chunk)) await write(this.forwardEvent(exchange, event));
            continue;
          }
          // To the client first; then into the record (timed as it arrived); then wait for a slow client.
          const full = chunk.length > 0 && !res.write(chunk);
          if (decoder) decoder.write(chunk);
          else if (splitter) recordEvents(splitter.push(chunk));
          else exchange?.bodyChunk(chunk);
          if (full) await drained(res);
        }
        if (clientGone) throw new Error('the client disconnected');
        if (rewriteStream && splitter && exchange) {
          const rest = splitter.end();
          if (rest) await write(this.forwardEvent(exchange, rest));
        }
        await decoder?.end();
        if (!rewriteStream && splitter && !decoder) {
          const rest = splitter.end();
          if (rest?.data != null) exchange?.streamData(rest.data);
        }
        res.end();
      }
      if (decoder?.problem) exchange?.note(decoder.problem);
      await finish({ kind: 'complete' });
    } catch (err) {
      await decoder?.end();
      const end = aborted();
      if (end) {
        if (!res.destroyed) res.destroy();
        return finish(end);
      }
      // The upstream broke off: so does the client's response, the way it would have without the proxy.
      if (!res.headersSent) sendProxyError(res, 502, `the answer from ${this.upstream.label} broke off: ${errorMessage(err)}`);
      else res.destroy();
      return finish({ kind: 'broken', message: errorMessage(err), timeout: TIMEOUT_CODES.has(errorCode(err)) });
    }
  }

  /** Why a request is refused, or null: web pages must not drive the proxy (it may add an API key, and it records). */
  private refusal(req: IncomingMessage): string | null {
    return browserRefusal(req, this.options.host ?? '127.0.0.1', 'proxy');
  }

  /** The bytes to send the client for one upstream event (nothing when the event exists only for token data). */
  private forwardEvent(exchange: CapturedExchange, event: SseEvent): Buffer {
    if (event.data === null) return eventBytes(event);
    const data = exchange.streamData(event.data);
    if (data === null) return Buffer.alloc(0);
    if (data === event.data) return eventBytes(event);
    if (event.dataLines !== 1) {
      exchange.note('an event with several data lines was forwarded unchanged: its token data reached the client');
      return eventBytes(event);
    }
    return withData(event, data);
  }
}

export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RunningProxy> {
  return new RecordingProxy(options).start();
}
