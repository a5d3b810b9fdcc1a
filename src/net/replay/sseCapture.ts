/**
 * POSTs a request and captures the answer verbatim: every SSE event's data with its arrival time, or a whole
 * JSON body. Errors keep what arrived: a replay that failed half-way still shows its first half. The answer is
 * read piece by piece and bounded (`maxAnswerBytes`, counted after decompression, so a gzip bomb stops there
 * too); an error event inside a stream ends it as an error.
 */
import { createParser } from 'eventsource-parser';
import { errorPayload } from '../../core/trace/errorPayload.ts';
import { postJson } from './httpTransport.ts';
import { connectionError, parseRetryAfter, ReplayError } from './replayError.ts';

export interface CapturedEvent {
  /** The event's data exactly as sent. */
  data: string;
  /** Milliseconds since the request was sent. */
  at: number;
}

export interface Capture {
  status: number | null;
  /** SSE events in order (streamed answers). */
  events: CapturedEvent[];
  /** The body of a non-streamed answer (or of an error response). */
  body: string | null;
  /** Time to the first event (streams) or to the body. */
  ttftMs: number | null;
  totalMs: number;
  /** Set when the capture is incomplete or the server refused; `events` holds what did arrive. */
  error: ReplayError | null;
  /** The stream ended with `data: [DONE]`. */
  done: boolean;
  /** Messages of the error events in the stream (their events are in `events` too, verbatim). */
  streamErrors: string[];
}

/** Largest answer read (decoded bytes): past it, the capture stops with a `too-large` error. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Most of an error response's body kept. */
const MAX_ERROR_BODY = 64 * 1024;

export interface CaptureOptions {
  url: string;
  body: unknown;
  apiKey?: string;
  /** Extra request headers (never credentials: those go in `apiKey`). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called for each event as it arrives (progress, live views). */
  onEvent?: (event: CapturedEvent) => void;
  /** Largest answer read, in decoded bytes (default 64 MiB). */
  maxAnswerBytes?: number;
}

/**
 * Reads a body chunk by chunk into `sink` until it ends or passes `limit` bytes; returns false when it was cut
 * (the rest is not downloaded).
 */
async function readBounded(body: ReadableStream<Uint8Array> | null, limit: number, sink: (chunk: Uint8Array) => void): Promise<boolean> {
  if (!body) return true;
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    size += value.length;
    if (size > limit) {
      const keep = value.length - (size - limit);
      if (keep > 0) sink(value.subarray(0, keep));
      await reader.cancel().catch(() => undefined);
      return false;
    }
    sink(value);
  }
}

/** A body read whole (up to `limit` bytes) as text. */
async function boundedText(response: Response, limit: number): Promise<{ text: string; complete: boolean }> {
  const parts: Uint8Array[] = [];
  const complete = await readBounded(response.body as ReadableStream<Uint8Array> | null, limit, (c) => parts.push(c));
  return { text: Buffer.concat(parts).toString('utf8'), complete };
}

function errorMessageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (parsed.error && typeof parsed.error.message === 'string') return parsed.error.message;
    if (typeof parsed.message === 'string') return parsed.message;
    if (typeof parsed.detail === 'string') return parsed.detail;
  } catch {
    // not JSON: show the text
  }
  return body.slice(0, 500);
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function capture(options: CaptureOptions): Promise<Capture> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const timeout = new AbortController();
  const timer = options.timeoutMs ? setTimeout(() => timeout.abort(), options.timeoutMs) : undefined;
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  const result: Capture = { status: null, events: [], body: null, ttftMs: null, totalMs: 0, error: null, done: false, streamErrors: [] };
  const limit = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const tooLarge = () =>
    new ReplayError('too-large', `the answer from ${options.url} is larger than ${limit} bytes (the answer size limit): it was cut there`);
  const failed = (err: unknown): ReplayError => {
    if (err instanceof ReplayError) return err;
    if (timeout.signal.aborted)
      return new ReplayError('timeout', `no complete answer from ${options.url} within ${((options.timeoutMs ?? 0) / 1000).toFixed(1)} s`);
    if (options.signal?.aborted) return new ReplayError('aborted', 'cancelled');
    if (result.status !== null)
      return new ReplayError(
        'premature-end',
        `the stream from ${options.url} broke off after ${result.events.length} events: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`,
      );
    return connectionError(options.url, err);
  };
  try {
    const headers: Record<string, string> = { ...options.headers };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let response: Response;
    try {
      response = await postJson({ url: options.url, body: options.body, headers, signal });
    } catch (err) {
      throw failed(err);
    }
    result.status = response.status;
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok) {
      result.body = (await boundedText(response, MAX_ERROR_BODY).catch(() => ({ text: '' }))).text;
      result.ttftMs = elapsed();
      throw new ReplayError(
        'http',
        `${options.url} answered ${response.status} ${response.statusText}: ${errorMessageOf(result.body)}`,
        response.status,
        parseRetryAfter(response.headers.get('retry-after')),
      );
    }
    if (!type.includes('text/event-stream')) {
      let whole: { text: string; complete: boolean };
      try {
        whole = await boundedText(response, limit);
      } catch (err) {
        throw failed(err);
      }
      result.ttftMs = elapsed();
      // A cut JSON body is no answer: it is not kept (its size is in the error).
      if (!whole.complete) throw tooLarge();
      result.body = whole.text;
      return result;
    }
    const parser = createParser({
      onEvent: (event) => {
        const at = elapsed();
        if (result.ttftMs === null) result.ttftMs = at;
        if (event.data === '[DONE]') {
          result.done = true;
          return;
        }
        const captured = { data: event.data, at };
        result.events.push(captured);
        const problem = event.data.includes('error') ? errorPayload(parseOrNull(event.data)) : null;
        if (problem !== null) result.streamErrors.push(problem);
        options.onEvent?.(captured);
      },
    });
    const decoder = new TextDecoder();
    let complete: boolean;
    try {
      complete = await readBounded(response.body as ReadableStream<Uint8Array>, limit, (value) =>
        parser.feed(decoder.decode(value, { stream: true })),
      );
      parser.feed(decoder.decode());
    } catch (err) {
      throw failed(err);
    }
    if (!complete) throw tooLarge();
    if (result.streamErrors.length) {
      const chunks = result.events.length - result.streamErrors.length;
      throw new ReplayError(
        'stream-error',
        `the stream from ${options.url} sent an error after ${chunks} chunk${chunks === 1 ? '' : 's'}: ${result.streamErrors.join('; ')}`,
      );
    }
    if (!result.done) {
      throw new ReplayError(
        'premature-end',
        `the stream from ${options.url} ended after ${result.events.length} events without data: [DONE]`,
      );
    }
    const bad = result.events.findIndex((e) => {
      try {
        JSON.parse(e.data);
        return false;
      } catch {
        return true;
      }
    });
    if (bad >= 0)
      throw new ReplayError('malformed-stream', `event ${bad + 1} of the stream is not JSON: ${result.events[bad]?.data.slice(0, 120)}`);
    return result;
  } catch (err) {
    result.error = failed(err);
    return result;
  } finally {
    clearTimeout(timer);
    result.totalMs = elapsed();
  }
}
