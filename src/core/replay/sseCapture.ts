/**
 * POSTs a request and captures the answer verbatim: every SSE event's data with its arrival time, or a whole
 * JSON body. Errors keep what arrived: a replay that failed half-way still shows its first half.
 */
import { createParser } from 'eventsource-parser';
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
}

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

export async function capture(options: CaptureOptions): Promise<Capture> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const timeout = new AbortController();
  const timer = options.timeoutMs ? setTimeout(() => timeout.abort(), options.timeoutMs) : undefined;
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  const result: Capture = { status: null, events: [], body: null, ttftMs: null, totalMs: 0, error: null, done: false };
  const failed = (err: unknown): ReplayError => {
    if (err instanceof ReplayError) return err;
    if (timeout.signal.aborted) return new ReplayError('timeout', `no complete answer from ${options.url} within ${((options.timeoutMs ?? 0) / 1000).toFixed(1)} s`);
    if (options.signal?.aborted) return new ReplayError('aborted', 'cancelled');
    if (result.status !== null) return new ReplayError('premature-end', `the stream from ${options.url} broke off after ${result.events.length} events: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`);
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
      result.body = await response.text().catch(() => '');
      result.ttftMs = elapsed();
      throw new ReplayError(
        'http',
        `${options.url} answered ${response.status} ${response.statusText}: ${errorMessageOf(result.body)}`,
        response.status,
        parseRetryAfter(response.headers.get('retry-after')),
      );
    }
    if (!type.includes('text/event-stream')) {
      result.body = await response.text();
      result.ttftMs = elapsed();
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
        options.onEvent?.(captured);
      },
    });
    const decoder = new TextDecoder();
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      parser.feed(decoder.decode());
    } catch (err) {
      throw failed(err);
    }
    if (!result.done) {
      throw new ReplayError('premature-end', `the stream from ${options.url} ended after ${result.events.length} events without data: [DONE]`);
    }
    const bad = result.events.findIndex((e) => {
      try {
        JSON.parse(e.data);
        return false;
      } catch {
        return true;
      }
    });
    if (bad >= 0) throw new ReplayError('malformed-stream', `event ${bad + 1} of the stream is not JSON: ${result.events[bad]?.data.slice(0, 120)}`);
    return result;
  } catch (err) {
    result.error = failed(err);
    return result;
  } finally {
    clearTimeout(timer);
    result.totalMs = elapsed();
  }
}
