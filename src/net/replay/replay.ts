/**
 * Replays a recorded request against an OpenAI-compatible endpoint and returns the result as a new native
 * record (never touching the original): chat mode streams `/v1/chat/completions` and keeps every chunk;
 * completions mode renders the chat template client-side and asks `/v1/completions` for the raw text with
 * special tokens and token ids — the ground truth, which Toolscope's parser then reads.
 */
import { redact, redactString } from '../../core/util/redact.ts';
import { renderPrompt } from '../../core/template/renderPrompt.ts';
import { tokensFromLogprobs } from '../../core/trace/importers/completionsImporter.ts';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest, RecordedToken, TraceRecord } from '../../core/trace/record.ts';
import { endpointLabel, type Endpoint } from './endpoint.ts';
import { guidedRequest, type StructuralTagBuilder } from './guidedRequest.ts';
import { resolveFormat } from '../../core/formats/resolveFormat.ts';
import { StructuralTagError } from '../../core/formats/structuralTag/toolChoice.ts';
import { tagProblem } from '../../core/guided/schemaSupport.ts';
import type { StructuralTag } from '../../core/formats/structuralTag/structuralTagFormat.ts';
import { ReplayError } from './replayError.ts';
import { withRetries } from './retry.ts';
import { capture, type Capture, type CapturedEvent } from './sseCapture.ts';
import { errorPayload } from '../../core/trace/errorPayload.ts';

export type ReplayMode = 'chat' | 'completions';

export interface ReplayOptions {
  endpoint: Endpoint;
  apiKey?: string;
  mode: ReplayMode;
  guided: boolean;
  /** Chat template for completions mode (default: the record's format's own template, `ToolCallFormat.chatTemplate`). */
  template?: { source: string; label: string };
  /** A tag builder that replaces the record's format's tag (tests, callers with a tag of their own). */
  buildTag?: StructuralTagBuilder;
  /**
   * The tag shape the user chose (`--tag-shape`): the record's format's tag in that shape, also sent to vLLM beside
   * strict tools. A shape the record's format does not offer leaves that record's default tag.
   */
  tagShape?: string;
  /** Bounds one replay, retries and their waits included. */
  timeoutMs?: number;
  retries?: number;
  /** Largest answer read, in decoded bytes (default 64 MiB): past it the replay is an error that keeps what came. */
  maxAnswerBytes?: number;
  signal?: AbortSignal;
  onEvent?: (event: CapturedEvent) => void;
  onRetry?: (attempt: number, delayMs: number, error: ReplayError) => void;
  /**
   * Guided on, and the request's grammar holds something xgrammar cannot compile (schemaSupport.ts): said before
   * the request goes out, which is sent all the same (the server's answer, often a 400, is the replay's result).
   */
  onGuidedProblem?: (reason: string) => void;
  /** For tests: scale retry delays. */
  retryDelayScale?: number;
}

export interface ReplayResult {
  record: TraceRecord;
  error: ReplayError | null;
}

/** Sampling fields a replay keeps from the original request; everything else is rebuilt. */
const SAMPLING = [
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'seed',
  'stop',
  'presence_penalty',
  'frequency_penalty',
];

function replayId(originalId: string, guided: boolean, mode: ReplayMode): string {
  return `${originalId}~replay-${mode}-guided-${guided ? 'on' : 'off'}-${Date.now().toString(36)}`;
}

/** Past this many bytes of events, `meta.rawStream` is left out: the answer is kept once, as its chunks. */
const MAX_RAW_STREAM_BYTES = 8 * 1024 * 1024;

function rawStreamMeta(events: CapturedEvent[]): Record<string, unknown> {
  let bytes = 0;
  for (const e of events) bytes += e.data.length;
  if (bytes <= MAX_RAW_STREAM_BYTES) return { rawStream: events.map((e) => e.data) };
  return { rawStreamOmitted: `the stream's ${events.length} events hold ${bytes} characters: kept once, as the response, not twice` };
}

function baseMeta(original: TraceRecord, options: ReplayOptions, c: Capture & { attempts: number }): TraceRecord['meta'] {
  return {
    source: 'replay',
    replayOf: original.id,
    guided: options.guided,
    mode: options.mode,
    endpoint: endpointLabel(options.endpoint),
    endpointName: options.endpoint.name,
    engine: options.endpoint.engine,
    model: options.endpoint.model,
    created: new Date().toISOString(),
    status: c.status,
    attempts: c.attempts,
    partial: c.error !== null,
    timings: { ttftMs: c.ttftMs, totalMs: c.totalMs, eventMs: c.events.map((e) => e.at) },
    ...rawStreamMeta(c.events),
    ...(c.streamErrors.length ? { streamErrors: redact(c.streamErrors) } : {}),
  };
}

/** The chunks of a stream; error events are not chunks (they are in `meta.streamErrors` and `meta.rawStream`). */
function parseEvents(events: CapturedEvent[]): unknown[] {
  return events.flatMap((e) => {
    try {
      const chunk = JSON.parse(e.data) as unknown;
      return errorPayload(chunk) === null ? [chunk] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The tag of the record's own format (`ToolCallFormat.guided`): what an engine builds for that model's parser under
 * strict tool calling, so SGLang and completions mode are sent the same grammar the model's markup needs.
 */
function recordTagBuilder(original: TraceRecord, shape?: string): StructuralTagBuilder {
  const { format } = resolveFormat(original, null);
  return (request) => {
    if (!format.guided)
      throw new StructuralTagError(`Toolscope has no structural tag for the ${format.displayName} format (${format.name})`);
    const offered = shape !== undefined && format.guided.shapes.includes(shape);
    return { ...format.guided.structuralTag(request.tools, request.tool_choice, offered ? { shape } : {}) };
  };
}

/** The tag the user chose: an explicit builder, else the record's format's tag in the chosen shape; else none. */
function chosenTag(original: TraceRecord, options: ReplayOptions): StructuralTagBuilder | undefined {
  if (options.buildTag) return options.buildTag;
  return options.tagShape !== undefined ? recordTagBuilder(original, options.tagShape) : undefined;
}

/** Tells `onGuidedProblem` what xgrammar would refuse in the grammar a guided replay asks for. */
function checkGuidedGrammar(request: ChatRequest, options: ReplayOptions, tagFor: StructuralTagBuilder): void {
  if (!options.guided || !request.tools?.length || !options.onGuidedProblem) return;
  let tag: StructuralTag;
  try {
    tag = tagFor(request) as unknown as StructuralTag;
  } catch {
    return; // no tag for this request: the request itself says why (replayRecord records it)
  }
  const problem = tagProblem(tag);
  if (problem) options.onGuidedProblem(problem);
}

export async function replayRecord(original: TraceRecord, options: ReplayOptions): Promise<ReplayResult> {
  if (!original.request || !Array.isArray(original.request.messages)) {
    throw new ReplayError('http', `record ${original.id} has no chat request to replay`);
  }
  // The tag the user chose (--tag-shape) wins; otherwise the record's format's own tag.
  const tagFor = chosenTag(original, options) ?? recordTagBuilder(original);
  checkGuidedGrammar(original.request, options, tagFor);
  try {
    return await (options.mode === 'chat'
      ? replayChat(original, original.request, options, tagFor)
      : replayCompletions(original, original.request, options, tagFor));
  } catch (err) {
    if (err instanceof ReplayError) throw err;
    // The request could not be built or the answer not read: a record that says so, so nothing else is lost.
    const error = new ReplayError('request', err instanceof Error ? err.message : String(err));
    const meta = baseMeta(original, options, {
      status: null,
      events: [],
      body: null,
      ttftMs: null,
      totalMs: 0,
      error,
      done: false,
      streamErrors: [],
      attempts: 0,
    });
    return {
      record: {
        toolscope: 1,
        id: replayId(original.id, options.guided, options.mode),
        request: redact(original.request) as ChatRequest,
        meta,
        error: redactString(error.message),
      },
      error,
    };
  }
}

async function run(url: string, body: unknown, options: ReplayOptions) {
  const deadline = options.timeoutMs ? performance.now() + options.timeoutMs : undefined;
  return withRetries(
    (remainingMs) =>
      capture({
        url,
        body,
        apiKey: options.apiKey,
        timeoutMs: remainingMs,
        signal: options.signal,
        onEvent: options.onEvent,
        maxAnswerBytes: options.maxAnswerBytes,
      }),
    { retries: options.retries ?? 2, signal: options.signal, onRetry: options.onRetry, delayScale: options.retryDelayScale, deadline },
  );
}

async function replayChat(
  original: TraceRecord,
  request: ChatRequest,
  options: ReplayOptions,
  tagFor: StructuralTagBuilder,
): Promise<ReplayResult> {
  const guided = guidedRequest(request, options.endpoint.engine, options.guided, chosenTag(original, options), tagFor);
  const body: Record<string, unknown> = { ...guided, model: options.endpoint.model, stream: true };
  delete body.stream_options;
  // Token logprobs where the engine offers them: the timeline can then shade tokens.
  if (options.endpoint.engine !== 'openai') body.logprobs = true;
  const c = await run(`${options.endpoint.baseUrl}/chat/completions`, body, options);
  const record: TraceRecord = {
    toolscope: 1,
    id: replayId(original.id, options.guided, 'chat'),
    request: redact(body) as ChatRequest,
    meta: baseMeta(original, options, c),
  };
  if (c.body !== null && c.status !== null && c.status < 400) {
    try {
      record.response = JSON.parse(c.body) as ChatCompletion;
    } catch {
      c.error = new ReplayError('malformed-stream', `the answer from ${options.endpoint.baseUrl} is not JSON: ${c.body.slice(0, 120)}`);
    }
  } else {
    record.response = parseEvents(c.events) as ChatCompletionChunk[];
  }
  // Servers echo credentials in their errors ("Incorrect API key provided: sk-…").
  if (c.error) record.error = redactString(c.error.message);
  return { record, error: c.error };
}

async function replayCompletions(
  original: TraceRecord,
  request: ChatRequest,
  options: ReplayOptions,
  tagFor: StructuralTagBuilder,
): Promise<ReplayResult> {
  // The record's template: the caller's, else its format's own (a Hermes record is not rendered as Kimi K2).
  const template = options.template ?? resolveFormat(original, null).format.chatTemplate;
  const prompt = renderPrompt(request, template?.source);
  const body: Record<string, unknown> = { model: options.endpoint.model, prompt, stream: true, logprobs: 1, skip_special_tokens: false };
  for (const key of SAMPLING) if (request[key] !== undefined) body[key] = request[key];
  if (options.endpoint.engine === 'vllm') body.return_tokens_as_token_ids = true;
  if (options.guided && request.tools?.length) {
    const tag = tagFor(request);
    if (options.endpoint.engine === 'sglang') body.response_format = { type: 'structural_tag', ...tag };
    else body.structured_outputs = { structural_tag: JSON.stringify(tag) };
  }
  const c = await run(`${options.endpoint.baseUrl}/completions`, body, options);
  let text = '';
  const tokens: RecordedToken[] = [];
  let finish: string | null = null;
  let tokensOk = true;
  const chunks = c.body !== null && c.status !== null && c.status < 400 ? [JSON.parse(c.body) as unknown] : parseEvents(c.events);
  for (const chunk of chunks) {
    const choice = (chunk as { choices?: Array<{ text?: unknown; logprobs?: unknown; finish_reason?: unknown }> }).choices?.[0];
    if (!choice) continue;
    if (typeof choice.text === 'string') text += choice.text;
    const t = tokensFromLogprobs(choice.logprobs, 'logprobs');
    if (Array.isArray(t)) tokens.push(...t);
    else tokensOk = false;
    if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
  }
  const { prompt: _prompt, ...params } = body;
  const record: TraceRecord = {
    toolscope: 1,
    id: replayId(original.id, options.guided, 'completions'),
    request: redact(request),
    prompt,
    completion: { text, ...(tokensOk && tokens.length ? { tokens } : {}), finish_reason: finish },
    meta: {
      ...baseMeta(original, options, c),
      template: template?.label ?? 'toolscope-kimi-k2-default',
      completionsRequest: redact(params),
    },
  };
  // Servers echo credentials in their errors ("Incorrect API key provided: sk-…").
  if (c.error) record.error = redactString(c.error.message);
  return { record, error: c.error };
}
