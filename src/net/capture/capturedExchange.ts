/**
 * One request/response through the recording proxy, as it happens: the client's request, the upstream's status and
 * headers, each payload as the client received it with its arrival time, the raw tokens, and how it ended. At the
 * end it becomes one native record (`toRecord`), credentials redacted.
 */
import { deeperThan, MAX_JSON_DEPTH } from '../../core/util/jsonDepth.ts';
import { redact, redactExact, redactString } from '../../core/util/redact.ts';
import { requestFromPrompt } from '../server/promptRequest.ts';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest, TraceRecord } from '../../core/trace/record.ts';
import { describeJson } from '../../core/trace/importers/jsonGuards.ts';
import { requestProblem } from '../../core/trace/importers/chatShapes.ts';
import { errorPayload } from '../../core/trace/errorPayload.ts';
import { CompletionCollector } from './completionCollector.ts';
import { clientView, type CaptureRoute, type TokenCapturePlan } from './tokenCapturePlan.ts';

export type ExchangeEnd =
  | { kind: 'complete' }
  /** The client went away before the response was complete; the upstream request was aborted. */
  | { kind: 'client-aborted' }
  /** The proxy was stopped while the exchange was in flight; the upstream request was aborted. */
  | { kind: 'stopped' }
  /** No response from the upstream (connection refused, DNS, TLS, timeout before headers). */
  | { kind: 'unreachable'; message: string; timeout: boolean }
  /** The upstream's response broke off (reset, idle timeout). */
  | { kind: 'broken'; message: string; timeout: boolean };

export interface ExchangeRequest {
  id: string;
  method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  route: CaptureRoute;
  headers: Record<string, string | string[] | undefined>;
  /** The client's JSON body (null when it was not a JSON object). */
  body: Record<string, unknown> | null;
  /**
   * The body's first bytes as text when it cannot be recorded as JSON (not a JSON object, nested too deep, a chat
   * request whose `messages` is not an array): kept, redacted and bounded, so the record shows what was sent.
   */
  rawBody?: string;
  /** The body's whole size in bytes, with `rawBody`. */
  rawBytes?: number;
  plan: TokenCapturePlan | null;
  upstream: string;
}

/** Longest error body kept verbatim in a record. */
const MAX_ERROR_BODY = 64 * 1024;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON.parse, refusing values too deep to walk: the record is written with JSON.stringify, which would overflow
 * the stack on them and lose the exchange. Such a payload is kept as text, like one that is not JSON.
 */
function parseWalkable(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (deeperThan(value)) throw new Error(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export class CapturedExchange {
  readonly startedAt = new Date();
  private readonly t0 = performance.now();
  status: number | null = null;
  responseHeaders: Record<string, string | string[] | undefined> = {};
  streamed = false;
  /** The credentials the request carried (redact.ts's requestCredentials), struck from the record wherever they occur. */
  forwardedCredentials: readonly string[] = [];
  private headersMs: number | null = null;
  private firstMs: number | null = null;
  private totalMs = 0;
  /** Stream payloads as the client got them, and when each arrived. */
  private readonly payloads: unknown[] = [];
  private readonly payloadMs: number[] = [];
  private readonly unparsed: Array<{ event: number; data: string }> = [];
  private readonly errorEvents: string[] = [];
  private droppedEvents = 0;
  private events = 0;
  private done = false;
  private readonly body: Buffer[] = [];
  private bodyBytes = 0;
  private clientBody: unknown = undefined;
  private end: ExchangeEnd | null = null;
  /** Things the record's reader should know (a body that could not be decoded, logprobs left in). */
  private readonly notes: string[] = [];
  private readonly collector: CompletionCollector;

  constructor(readonly request: ExchangeRequest) {
    this.collector = new CompletionCollector(request.route, request.body?.stream === true);
  }

  private now(): number {
    return round(performance.now() - this.t0);
  }

  /** Data events received so far (a measure of how far a stream got). */
  get eventCount(): number {
    return this.events;
  }

  responseStarted(status: number, headers: Record<string, string | string[] | undefined>, streamed: boolean): void {
    this.status = status;
    this.responseHeaders = headers;
    this.streamed = streamed;
    this.headersMs = this.now();
  }

  /**
   * One SSE data payload from the upstream; returns the text to forward to the client (null: drop the event).
   * Payloads that are not JSON are forwarded and recorded as they are.
   */
  streamData(data: string): string | null {
    const at = this.now();
    const index = this.events++;
    if (data === '[DONE]') {
      this.done = true;
      return data;
    }
    this.firstMs ??= at;
    let parsed: unknown;
    try {
      parsed = parseWalkable(data);
    } catch {
      this.unparsed.push({ event: index + 1, data: data.slice(0, 4096) });
      return data;
    }
    const problem = errorPayload(parsed);
    if (problem !== null) {
      this.errorEvents.push(problem);
      return data;
    }
    this.collector.add(parsed);
    const view =
      this.status !== null && this.status < 300 ? clientView(data, parsed, this.request.plan, true) : { text: data, value: parsed };
    if (view.text === null) {
      this.droppedEvents++;
      return null;
    }
    this.payloads.push(view.value);
    this.payloadMs.push(at);
    return view.text;
  }

  /** Bytes of a non-streamed body as they pass (kept for the record, forwarded unchanged by the caller). */
  bodyChunk(chunk: Buffer): void {
    this.firstMs ??= this.now();
    if (this.bodyBytes < 256 * 1024 * 1024) this.body.push(chunk);
    this.bodyBytes += chunk.length;
  }

  /**
   * A whole non-streamed body that the plan rewrites: returns the bytes to send the client. Bodies that are not
   * JSON objects, or errors, are sent as they came.
   */
  rewriteBody(body: Buffer): Buffer {
    this.body.push(body);
    this.bodyBytes += body.length;
    this.firstMs ??= this.now();
    const text = body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = parseWalkable(text);
    } catch {
      return body;
    }
    if (this.status === null || this.status >= 300) return body;
    const view = clientView(text, parsed, this.request.plan, false);
    this.clientBody = view.value;
    return view.text === null || !view.changed ? body : Buffer.from(view.text, 'utf8');
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  finish(end: ExchangeEnd): void {
    this.end ??= end;
    this.totalMs = this.now();
  }

  get ended(): ExchangeEnd | null {
    return this.end;
  }

  toRecord(): TraceRecord {
    const req = this.request;
    const record: TraceRecord = { toolscope: 1, id: req.id };
    const body = req.body;
    const meta: Record<string, unknown> = {
      source: 'toolscope-proxy',
      endpoint: req.path,
      upstream: req.upstream,
    };
    if (typeof body?.model === 'string') meta.model = body.model;
    meta.created = this.startedAt.toISOString();
    meta.status = this.status;
    meta.streamed = this.streamed;
    const errors: string[] = [];

    if (req.rawBody !== undefined) {
      // Redacted before it is cut, so a key at the cut is still recognised.
      meta.rawRequestBody = redactString(req.rawBody).slice(0, MAX_ERROR_BODY);
      meta.rawRequestBytes = req.rawBytes ?? Buffer.byteLength(req.rawBody);
    }
    if (req.route === 'chat') {
      // A trace's request is what the reader takes (messages an array of messages, tools a list of tools); anything
      // else is kept as text, so the line still loads (`messages: [null]` or `tools: "x"` made a line analyze refused).
      const problem = body ? chatBodyProblem(body) : null;
      if (body && problem === null) record.request = redact(body) as ChatRequest;
      else if (body)
        this.note(
          body.messages !== undefined && !Array.isArray(body.messages)
            ? `the request's "messages" is not an array (${describeJson(body.messages)}): the request is kept as text (meta.rawRequestBody)`
            : `the request is not one a trace holds (${problem}): it is kept as text (meta.rawRequestBody)`,
        );
    } else if (body) {
      if (typeof body.prompt === 'string') {
        record.prompt = body.prompt;
        // The tools a Kimi-style prompt declares: what the completion's calls are checked against.
        const { tools } = requestFromPrompt(body.prompt);
        if (tools?.length) record.request = { ...(typeof body.model === 'string' ? { model: body.model } : {}), tools };
      }
      const { prompt: _prompt, ...params } = body;
      meta.completionsRequest = redact(params);
    }

    // What the client received.
    let whole: unknown;
    if (!this.streamed && this.bodyBytes > 0) {
      const text = Buffer.concat(this.body).toString('utf8');
      if (this.status !== null && this.status >= 400) {
        errors.push(`upstream answered ${this.status}: ${text.length > MAX_ERROR_BODY ? `${text.slice(0, MAX_ERROR_BODY)}…` : text}`);
      } else {
        try {
          whole = parseWalkable(text);
          // Tokens come from what the upstream sent, before anything was taken out for the client.
          this.collector.add(whole);
        } catch (err) {
          if (this.status !== null && this.status < 300)
            errors.push(
              `upstream answered ${this.status} with a body that cannot be recorded as JSON (${err instanceof Error ? err.message : String(err)}): ${redactString(text.slice(0, 500))}`,
            );
        }
        const problem = errorPayload(whole);
        if (problem !== null) errors.push(problem);
      }
    } else if (!this.streamed && this.status !== null && this.status >= 400) {
      errors.push(`upstream answered ${this.status} with an empty body`);
    }
    const clientWhole = this.clientBody !== undefined ? this.clientBody : whole;

    if (req.route === 'chat') {
      if (this.streamed) record.response = this.payloads as ChatCompletionChunk[];
      else if (isObject(clientWhole) && Array.isArray(clientWhole.choices)) record.response = clientWhole as ChatCompletion;
    } else if (this.streamed ? this.payloads.length : clientWhole !== undefined) {
      meta.completionsResponse = this.streamed ? this.payloads : clientWhole;
    }

    // The raw completion.
    const collected = this.collector.result();
    if (collected.completion && (req.route === 'completions' || collected.complete === true)) record.completion = collected.completion;
    if (req.plan || collected.tokenCount > 0) {
      const tokens: Record<string, unknown> = { count: collected.tokenCount, complete: collected.complete };
      if (collected.reason) tokens.reason = collected.reason;
      // Tokens that are not the completion (some missing, or not known to be all): their text, for a human to read.
      if (collected.complete !== true && collected.tokenCount > 0 && req.route === 'chat')
        tokens.partialText = this.collector.partialText();
      const capture: Record<string, unknown> = { tokens };
      if (req.plan && Object.keys(req.plan.added).length) capture.added = req.plan.added;
      if (this.droppedEvents) capture.droppedEvents = this.droppedEvents;
      meta.capture = capture;
    }

    // How it ended.
    const end = this.end ?? { kind: 'complete' };
    const chunks = `${this.events} event${this.events === 1 ? '' : 's'}`;
    if (end.kind === 'client-aborted') {
      meta.clientAborted = true;
      errors.unshift(
        `the client disconnected ${this.status === null ? 'before the upstream answered' : `after ${chunks}`}; the upstream request was aborted`,
      );
    } else if (end.kind === 'stopped') {
      errors.unshift(
        `the proxy stopped ${this.status === null ? 'before the upstream answered' : `after ${chunks}`}; the upstream request was aborted`,
      );
    } else if (end.kind === 'unreachable') {
      errors.unshift(`${end.timeout ? 'upstream timed out' : 'upstream unreachable'}: ${end.message}`);
    } else if (end.kind === 'broken') {
      errors.unshift(`${end.timeout ? 'the upstream stalled' : 'the upstream connection broke off'} after ${chunks}: ${end.message}`);
    } else if (this.streamed && !this.done && this.status !== null && this.status < 300) {
      errors.push(`the stream ended after ${chunks} without data: [DONE]`);
    }
    for (const u of this.unparsed) errors.push(`event ${u.event} of the stream is not JSON: ${u.data.slice(0, 200)}`);
    errors.push(...this.errorEvents.map((e) => `error event in the stream: ${e}`));
    if (this.errorEvents.length) meta.streamErrors = redact(this.errorEvents);
    if (this.unparsed.length) meta.unparsedEvents = redact(this.unparsed);
    if (this.notes.length) meta.notes = this.notes;
    // Upstreams echo credentials in their errors ("Incorrect API key provided: sk-…").
    if (errors.length) record.error = redactString(errors.join('; '));
    meta.partial = end.kind !== 'complete' || (this.streamed && !this.done);

    meta.timings = {
      headersMs: this.headersMs,
      ttftMs: this.firstMs,
      totalMs: this.totalMs,
      ...(this.streamed ? { eventMs: this.payloadMs } : {}),
    };
    meta.requestHeaders = redact(req.headers);
    if (this.status !== null) meta.responseHeaders = redact(this.responseHeaders);
    record.meta = meta;
    // The exact credentials the client sent, wherever they appear: an upstream may echo a key in its answer.
    redactExact(record, this.forwardedCredentials);
    return record;
  }
}

/** Why a chat request body cannot be a trace's `request` (what the trace reader would refuse), or null. */
export function chatBodyProblem(body: Record<string, unknown>): string | null {
  return requestProblem(body);
}
