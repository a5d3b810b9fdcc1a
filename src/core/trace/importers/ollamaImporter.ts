/**
 * Ollama's native API: `/api/chat` responses (`message` with `content`, `thinking`, `tool_calls` whose
 * `arguments` are objects) and `/api/generate` responses (`response`, `thinking`), one object, or a stream of
 * NDJSON objects ending with `"done": true`. Ollama's lines carry no stream id: consecutive chunk lines are one
 * stream, and a `done: true` line ends it (lineKind.ts groups the lines; a stream is one record).
 * - `/api/chat` becomes a `response`: the chunk list a chat client accumulated (content, `thinking` as
 *   `reasoning_content`, calls with their `arguments` object serialised canonically), or one `chat.completion`
 *   for a single object. `done_reason` is the finish reason, `stop` with calls → `tool_calls`.
 * - `/api/generate` never parses tool calls: its `response` text is what the model wrote, so it becomes the
 *   record's `completion` (raw mode — `raw: true` in the request — or not; the response does not say which), and
 *   `thinking` (split out by Ollama) is kept in `meta.thinking`.
 * The timings and counts (`total_duration`, `load_duration`, `prompt_eval_count`, `prompt_eval_duration`,
 * `eval_count`, `eval_duration`, nanoseconds) and `created_at` go to `meta`.
 */
import { assistantCompletion } from './assistantCompletion.ts';
import { canonicalJson } from '../../util/canonicalJson.ts';
import type {
  ChatCompletionChunk,
  ChatCompletionChunkDelta,
  ChatToolCall,
  LineError,
  LoadedRecord,
  RecordMeta,
  TraceRecord,
} from '../record.ts';
import { describeJson, isObject, type UnknownObject } from './jsonGuards.ts';
import { incompleteLineError, type ReadResult, type TextLine } from './importResult.ts';

const TIMINGS = ['total_duration', 'load_duration', 'prompt_eval_count', 'prompt_eval_duration', 'eval_count', 'eval_duration'] as const;

type Endpoint = 'chat' | 'generate';

/** An Ollama response object or stream chunk (a stream's last chunk may carry only `done` and the timings). */
export function isOllamaShape(value: UnknownObject): boolean {
  return (
    typeof value.model === 'string' &&
    typeof value.created_at === 'string' &&
    typeof value.done === 'boolean' &&
    !('choices' in value) &&
    !('messages' in value)
  );
}

/** Which endpoint a chunk comes from, or null for a last chunk that says neither (it ends the current stream). */
function endpointOf(value: UnknownObject): Endpoint | null {
  if (isObject(value.message)) return 'chat';
  if (typeof value.response === 'string') return 'generate';
  return null;
}

function finishReason(last: UnknownObject, hasCalls: boolean): string | null {
  if (last.done !== true) return null;
  const reason = typeof last.done_reason === 'string' ? last.done_reason : 'stop';
  return reason === 'stop' && hasCalls ? 'tool_calls' : reason;
}

/** The chunk's tool calls in the chat shape, numbered from `first`, or why they cannot be read. */
function toolCalls(message: UnknownObject, first: number): ChatToolCall[] | string {
  if (message.tool_calls === undefined || message.tool_calls === null) return [];
  if (!Array.isArray(message.tool_calls)) return `message.tool_calls must be an array, got ${describeJson(message.tool_calls)}`;
  const out: ChatToolCall[] = [];
  for (let i = 0; i < message.tool_calls.length; i++) {
    const tc: unknown = message.tool_calls[i];
    const fn = isObject(tc) ? tc.function : undefined;
    if (!isObject(fn) || typeof fn.name !== 'string') return `message.tool_calls[${i}].function must have a string "name"`;
    const args = typeof fn.arguments === 'string' ? fn.arguments : canonicalJson(fn.arguments ?? {});
    const call: ChatToolCall = { index: first + i, type: 'function', function: { name: fn.name, arguments: args } };
    if (isObject(tc) && typeof tc.id === 'string') call.id = tc.id;
    out.push(call);
  }
  return out;
}

interface Stream {
  endpoint: Endpoint;
  line: number;
  lastLine: number;
  values: UnknownObject[];
  /** The line of each value. */
  lines: number[];
}

function meta(stream: Stream): RecordMeta {
  const first = stream.values[0] ?? {};
  const last = stream.values[stream.values.length - 1] ?? {};
  const m: RecordMeta = { source: 'ollama', endpoint: stream.endpoint === 'chat' ? '/api/chat' : '/api/generate' };
  if (typeof first.model === 'string') m.model = first.model;
  if (typeof first.created_at === 'string') m.created_at = first.created_at;
  if (typeof last.done_reason === 'string') m.done_reason = last.done_reason;
  for (const key of TIMINGS) if (typeof last[key] === 'number') m[key] = last[key];
  if (stream.values.length > 1) m.stream = true;
  return m;
}

/** One stream (or single object) as a record, or the first problem in it. */
function streamRecord(stream: Stream): { loaded: LoadedRecord } | { error: LineError } {
  const id = `line-${stream.line}`;
  const last = stream.values[stream.values.length - 1] ?? {};
  const record: TraceRecord = { toolscope: 1, id, meta: meta(stream) };
  const fail = (at: number, message: string) => ({
    error: { line: at, message: `line ${at}: Ollama ${stream.endpoint === 'chat' ? '/api/chat' : '/api/generate'} response: ${message}` },
  });
  if (stream.endpoint === 'generate') {
    let text = '';
    let thinking = '';
    for (const v of stream.values) {
      if (typeof v.response === 'string') text += v.response;
      if (typeof v.thinking === 'string') thinking += v.thinking;
    }
    record.completion = { text, finish_reason: finishReason(last, false) };
    if (thinking !== '') (record.meta as RecordMeta).thinking = thinking;
    return { loaded: { record, line: stream.line, lastLine: stream.lastLine, source: 'ollama' } };
  }
  if (stream.values.length === 1) {
    const message = isObject(last.message) ? last.message : {};
    const calls = toolCalls(message, 0);
    if (typeof calls === 'string') return fail(stream.line, calls);
    if (message.content !== undefined && message.content !== null && typeof message.content !== 'string')
      return fail(stream.line, `message.content must be a string, got ${describeJson(message.content)}`);
    record.response = assistantCompletion({
      id,
      model: last.model,
      role: typeof message.role === 'string' ? message.role : 'assistant',
      content: typeof message.content === 'string' && message.content !== '' ? message.content : null,
      reasoning: typeof message.thinking === 'string' && message.thinking !== '' ? message.thinking : null,
      calls,
      finishReason: finishReason(last, calls.length > 0),
    });
    return { loaded: { record, line: stream.line, lastLine: stream.lastLine, source: 'ollama' } };
  }
  const chunks: ChatCompletionChunk[] = [];
  let callCount = 0;
  const chunk = (delta: ChatCompletionChunkDelta, finish: string | null) =>
    chunks.push({
      id,
      object: 'chat.completion.chunk',
      ...(typeof last.model === 'string' ? { model: last.model } : {}),
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  for (const [k, v] of stream.values.entries()) {
    const message = isObject(v.message) ? v.message : {};
    const at = stream.lines[k] ?? stream.line;
    const calls = toolCalls(message, callCount);
    if (typeof calls === 'string') return fail(at, calls);
    if (message.content !== undefined && message.content !== null && typeof message.content !== 'string')
      return fail(at, `message.content must be a string, got ${describeJson(message.content)}`);
    callCount += calls.length;
    const delta: ChatCompletionChunkDelta = {};
    if (k === 0 && typeof message.role === 'string') delta.role = message.role;
    // Ollama's last chunk carries content "": nothing was sent, so no empty content delta is made up here.
    if (typeof message.content === 'string' && message.content !== '') delta.content = message.content;
    if (typeof message.thinking === 'string' && message.thinking !== '') delta.reasoning_content = message.thinking;
    if (calls.length > 0)
      delta.tool_calls = calls.map((c) => ({
        index: c.index ?? 0,
        ...(c.id !== undefined ? { id: c.id } : {}),
        type: 'function',
        function: c.function,
      }));
    const finish = v.done === true ? finishReason(v, callCount > 0) : null;
    if (Object.keys(delta).length > 0 || finish !== null) chunk(delta, finish);
  }
  record.response = chunks;
  return { loaded: { record, line: stream.line, lastLine: stream.lastLine, source: 'ollama' } };
}

/**
 * Imports a group of Ollama lines (consecutive chunk lines, see lineKind.ts): one record per stream, a stream
 * ending at each `done: true`. A line that is not JSON, or not an Ollama object, is an error for that line.
 */
export function importOllamaLines(lines: readonly TextLine[], incompleteLine?: number): ReadResult {
  const out: ReadResult = { records: [], errors: [] };
  let current: Stream | null = null;
  const flush = (): void => {
    if (current === null) return;
    const r = streamRecord(current);
    if ('loaded' in r) out.records.push(r.loaded);
    else out.errors.push(r.error);
    current = null;
  };
  for (const { line, text } of lines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      out.errors.push(
        line === incompleteLine
          ? incompleteLineError(line)
          : { line, message: `line ${line}: invalid JSON (${err instanceof Error ? err.message : String(err)})` },
      );
      continue;
    }
    if (!isObject(value) || !isOllamaShape(value)) {
      out.errors.push({ line, message: `line ${line}: not an Ollama response object (it follows Ollama stream lines)` });
      continue;
    }
    const endpoint = endpointOf(value);
    if (current !== null && endpoint !== null && (current as Stream).endpoint !== endpoint) flush();
    if (current === null) current = { endpoint: endpoint ?? 'chat', line, lastLine: line, values: [], lines: [] };
    current.values.push(value);
    current.lines.push(line);
    current.lastLine = line;
    if (value.done === true) flush();
  }
  flush();
  return out;
}
