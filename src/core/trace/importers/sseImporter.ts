/**
 * SSE dumps: `data: {chunk}` lines (with `event:`, `id:`, `retry:` and `:` comment lines tolerated, `data: [DONE]`
 * skipped). A block of consecutive SSE lines may interleave several streams: chunks are grouped by their `id`,
 * one record per stream, in order of each stream's first chunk. Chat chunks become `response` (the chunk list);
 * `text_completion` chunks (a streamed `/v1/completions`) are joined into `completion`. Anthropic Messages
 * events carry no id: they run from `message_start` to `message_stop` (anthropicStream.ts); OpenAI Responses
 * events likewise from `response.created` to `response.completed` / `.incomplete` / `.failed` (responsesStream.ts).
 * An error event (`data: {"error": …}`, Anthropic's `event: error`) belongs to the stream it broke — the one that
 * got the last event before it — and becomes its record's `error`; an error with no stream before it is a record
 * of its own, with no chunks.
 * A bad data line is an error for that line only; the other chunks still load.
 */
import type { ChatCompletionChunk, Completion, LineError, LoadedRecord, RecordedToken, TraceRecord } from '../record.ts';
import { chatChunkProblem } from './chatShapes.ts';
import { AnthropicStream, isAnthropicEvent } from './anthropicStream.ts';
import { ResponsesStream, isResponsesEvent } from './responsesStream.ts';
import { isLlamaCompletionShape, llamaFinishReason, llamaMeta, llamaTokens, withLlamaVerbose } from './llamaCppImporter.ts';
import { tokensFromLogprobs } from './completionsImporter.ts';
import { importLine } from './importLine.ts';
import { describeJson, isNonEmptyString, isObject, type UnknownObject } from './jsonGuards.ts';
import { incompleteLineError, type ReadResult } from './importResult.ts';
import type { TextLine as SseLine } from './importResult.ts';

export type { TextLine as SseLine } from './importResult.ts';

interface Stream {
  /** `llama`: llama.cpp's own /completion chunks (`content`, `stop`). */
  kind: 'chat' | 'text' | 'llama';
  id: string;
  line: number;
  lastLine: number;
  /** Chat streams: the chunks, which are the record's `response`. The other kinds fold theirs as they come. */
  chunks: UnknownObject[];
  /** Chunks taken so far (of any kind). */
  count: number;
  /** llama: the last chunk (its `stop_type`, timings and prompt make the record's). */
  last?: UnknownObject;
  /** Text streams: the joined completion so far. */
  completion?: Completion;
  model?: string;
  error?: string;
  /** llama: the final chunk (`stop: true`) was seen. */
  stopped?: boolean;
}

/** `{field, value}` of an SSE line, or null for a comment. */
export function parseSseField(text: string): { field: string; value: string } | null {
  const body = text.replace(/^[ \t]+/, '');
  if (body.startsWith(':')) return null;
  const colon = body.indexOf(':');
  if (colon < 0) return { field: body, value: '' };
  const value = body.slice(colon + 1);
  return { field: body.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value };
}

function chunkKind(value: UnknownObject): 'chat' | 'text' | null {
  if (value.object === 'chat.completion.chunk') return 'chat';
  if (value.object === 'text_completion') return 'text';
  if (!Array.isArray(value.choices)) return null;
  if (value.choices.some((c) => isObject(c) && isObject(c.delta))) return 'chat';
  if (value.choices.some((c) => isObject(c) && typeof c.text === 'string')) return 'text';
  return null;
}

/** Appends a text_completion chunk's first choice to the stream's completion, or says why it cannot. */
function appendTextChunk(stream: Stream, value: UnknownObject): string | null {
  const choices = value.choices;
  if (!Array.isArray(choices)) return `"choices" must be an array, got ${describeJson(choices)}`;
  const completion = (stream.completion ??= { text: '' });
  const choice: unknown = choices[0];
  if (choice === undefined) return null; // a usage-only chunk
  if (!isObject(choice)) return `choices[0] must be an object, got ${describeJson(choice)}`;
  if (typeof choice.text !== 'string') return `choices[0].text must be a string, got ${describeJson(choice.text)}`;
  const tokens = tokensFromLogprobs(choice.logprobs, 'choices[0].logprobs');
  if (typeof tokens === 'string') return tokens;
  completion.text += choice.text;
  if (tokens !== undefined) {
    const all: RecordedToken[] = (completion.tokens ??= []);
    for (const token of tokens) all.push(token);
  }
  if (typeof choice.finish_reason === 'string') completion.finish_reason = choice.finish_reason;
  else if (choice.finish_reason === null && completion.finish_reason === undefined) completion.finish_reason = null;
  return null;
}

function errorEventText(error: unknown): string {
  if (isObject(error) && typeof error.message === 'string') return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

function streamRecord(stream: Stream): LoadedRecord {
  const record: TraceRecord = { toolscope: 1, id: stream.id };
  if (stream.error !== undefined) record.error = stream.error;
  if (stream.kind === 'llama') {
    const last = stream.last ?? {};
    record.completion = stream.completion ?? { text: '' };
    record.completion.finish_reason = llamaFinishReason(last.stop_type);
    record.meta = { ...llamaMeta(last), stream: true };
    if (typeof last.prompt === 'string') record.prompt = last.prompt;
    return { record, line: stream.line, lastLine: stream.lastLine, source: 'llama.cpp-stream' };
  }
  if (stream.kind === 'chat') {
    // Each chunk was checked by chatChunkProblem.
    record.response = stream.chunks as unknown as ChatCompletionChunk[];
    const model = stream.chunks.find((c) => typeof c.model === 'string')?.model;
    record.meta = { endpoint: '/v1/chat/completions', ...(typeof model === 'string' ? { model } : {}) };
    // llama.cpp puts `__verbose` (the raw completion) and `timings` on a stream's last chunks.
    const verbose = lastField(stream.chunks, '__verbose');
    const timings = lastField(stream.chunks, 'timings');
    if (verbose !== undefined || timings !== undefined) {
      const loaded: LoadedRecord = { record, line: stream.line, lastLine: stream.lastLine, source: 'sse' };
      const withRaw = withLlamaVerbose(loaded, verbose, timings);
      if (typeof withRaw !== 'string') return withRaw;
    }
  } else {
    record.completion = stream.completion ?? { text: '' };
    record.meta = { endpoint: '/v1/completions', ...(stream.model !== undefined ? { model: stream.model } : {}) };
  }
  return { record, line: stream.line, lastLine: stream.lastLine, source: 'sse' };
}

/** Fields every chunk of a stream repeats, usually with the same (long) value. */
const REPEATED_FIELDS = ['id', 'object', 'model', 'system_fingerprint'] as const;

/**
 * Points a chunk's repeated fields at the previous chunk's equal strings: the same values, held once (JSON.parse
 * makes a copy of each string per chunk, 40 bytes or more each, a stream of a million events held 1e6 copies).
 */
function shareRepeatedStrings(chunk: UnknownObject, previous: UnknownObject): void {
  for (const key of REPEATED_FIELDS) {
    const value = chunk[key];
    if (typeof value === 'string' && value === previous[key]) chunk[key] = previous[key];
  }
}

/** The last chunk's value of `key`, of those that have one. */
function lastField(chunks: readonly UnknownObject[], key: string): unknown {
  for (let i = chunks.length - 1; i >= 0; i--) if (chunks[i]?.[key] !== undefined) return chunks[i]?.[key];
  return undefined;
}

/**
 * Imports one SSE block, folding each event into its stream as it is read: `lines` may be a generator decoding
 * them one at a time (a stream of a million events is never held as lines; only a chat stream's chunks are kept,
 * as its record's `response`). `incompleteLine` is the number of a last line still missing its newline: a payload
 * there that does not parse is reported as incomplete rather than as bad JSON.
 */
export function importSseBlock(lines: Iterable<SseLine>, incompleteLine?: number): ReadResult {
  const streams = new Map<string, Stream>();
  const anthropic: AnthropicStream[] = [];
  const responses: ResponsesStream[] = [];
  /** The stream that got the last event: an error event is about it. */
  let lastActive: Stream | AnthropicStream | ResponsesStream | null = null;
  /** The llama.cpp /completion stream still waiting for its `stop: true` chunk. */
  let llamaOpen: Stream | null = null;
  const others: LoadedRecord[] = [];
  const errors: LineError[] = [];
  let idless: string | null = null;
  const fail = (line: number, message: string): void => {
    errors.push({ line, message: `line ${line}: ${message}` });
  };

  // An event's first line: its `event:`/`id:` line when it has one, so a record starts where its first event does.
  let eventStart: number | null = null;
  for (const { line, text } of lines) {
    const field = parseSseField(text);
    if (field === null) continue;
    if (field.field !== 'data') {
      eventStart ??= line;
      continue;
    }
    const startLine = eventStart ?? line;
    eventStart = null;
    if (field.value.trim() === '[DONE]') continue;
    let value: unknown;
    try {
      value = JSON.parse(field.value);
    } catch (err) {
      if (line === incompleteLine) errors.push(incompleteLineError(line));
      else fail(line, `SSE data is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    if (!isObject(value)) {
      fail(line, `SSE data must be a JSON object (a chat.completion.chunk), got ${describeJson(value)}`);
      continue;
    }
    if (isResponsesEvent(value) || (value.type === 'error' && lastActive instanceof ResponsesStream)) {
      let current = responses[responses.length - 1];
      if (value.type === 'error' && current !== undefined) {
        current.fail(value, line);
        continue;
      }
      if (current === undefined || current.startsAfter(value)) {
        current = new ResponsesStream(startLine);
        responses.push(current);
      }
      const problem = current.add(value, line);
      if (problem !== null) fail(line, `Responses ${String(value.type)} event: ${problem}`);
      lastActive = current;
      continue;
    }
    if (isAnthropicEvent(value) && !(value.type === 'error' && lastActive !== null && !(lastActive instanceof AnthropicStream))) {
      let current = anthropic[anthropic.length - 1];
      if (current === undefined || current.startsAfter(value)) {
        current = new AnthropicStream(startLine);
        anthropic.push(current);
      }
      const problem = current.add(value, line);
      if (problem !== null) fail(line, `Anthropic ${String(value.type)} event: ${problem}`);
      lastActive = current;
      continue;
    }
    if (isLlamaCompletionShape(value) && typeof value.stop === 'boolean') {
      // llama.cpp /completion chunks carry no id: consecutive ones are one stream, ended by `stop: true`.
      let stream: Stream | null = llamaOpen;
      if (stream === null) {
        stream = {
          kind: 'llama',
          id: `line-${startLine}`,
          line: startLine,
          lastLine: line,
          chunks: [],
          count: 0,
          completion: { text: '' },
        };
        streams.set(`llama\u0000${startLine}`, stream);
        llamaOpen = stream;
      }
      const tokens = llamaTokens(value);
      if (typeof tokens === 'string') {
        fail(line, `llama.cpp /completion chunk: ${tokens}`);
        continue;
      }
      const completion = (stream.completion ??= { text: '' });
      completion.text += value.content as string;
      if (tokens !== undefined) for (const t of tokens) (completion.tokens ??= []).push(t);
      stream.last = value;
      stream.count++;
      stream.lastLine = line;
      lastActive = stream;
      if (value.stop === true) llamaOpen = null;
      continue;
    }
    const kind = chunkKind(value);
    if (kind === null) {
      if ('error' in value || value.type === 'error') {
        const message = errorEventText('error' in value ? value.error : value);
        if (lastActive instanceof ResponsesStream) {
          lastActive.fail(value, line);
        } else if (lastActive instanceof AnthropicStream) {
          lastActive.add({ type: 'error', error: isObject(value.error) ? value.error : { message } }, line);
        } else if (lastActive !== null && lastActive.error === undefined) {
          lastActive.error = message;
          lastActive.lastLine = line;
        } else {
          // A stream that is only an error (or a second error): a record of its own, with no chunks.
          const id = `line-${line}`;
          const stream: Stream = { kind: 'chat', id, line: startLine, lastLine: line, chunks: [], count: 0, error: message };
          streams.set(`error\u0000${id}`, stream);
          lastActive = stream;
        }
        continue;
      }
      // Not a chunk: some proxies send a whole response or record in one event; import it as a line.
      const result = importLine(value, line);
      if (result.kind === 'record') others.push(result.loaded);
      else errors.push(result.error);
      continue;
    }
    if (kind === 'chat') {
      const problem = chatChunkProblem(value);
      if (problem !== null) {
        fail(line, `chat.completion.chunk: ${problem}`);
        continue;
      }
    }
    // Chunks without an id are one stream, named after the first of them.
    const id = isNonEmptyString(value.id) ? value.id : (idless ??= `line-${line}`);
    const key = `${kind}\u0000${id}`;
    let stream = streams.get(key);
    if (stream === undefined) {
      stream = { kind, id, line: startLine, lastLine: line, chunks: [], count: 0 };
      streams.set(key, stream);
    }
    if (kind === 'text') {
      const problem = appendTextChunk(stream, value);
      if (problem !== null) {
        fail(line, `text_completion chunk: ${problem}`);
        continue;
      }
      if (typeof value.model === 'string') stream.model ??= value.model;
    }
    if (stream.count === 0) stream.line = startLine;
    if (kind === 'chat') {
      const previous = stream.chunks[stream.chunks.length - 1];
      if (previous !== undefined) shareRepeatedStrings(value, previous);
      stream.chunks.push(value);
    }
    stream.count++;
    stream.lastLine = line;
    lastActive = stream;
  }

  const records = [...streams.values()].filter((s) => s.count > 0 || s.error !== undefined).map(streamRecord);
  for (const a of anthropic) records.push(a.record());
  for (const r of responses) records.push(r.record());
  for (const r of others) records.push(r);
  records.sort((a, b) => a.line - b.line);
  return { records, errors };
}
