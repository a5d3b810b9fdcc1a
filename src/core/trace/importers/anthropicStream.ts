/**
 * An Anthropic Messages SSE stream, turned into the `chat.completion.chunk` list an OpenAI client would have
 * accumulated. Anthropic events carry no stream id, so a stream runs from `message_start` to `message_stop` (or
 * to an `error` event, which ends it and becomes the record's `error`). Deltas are assembled per content block:
 * `text_delta` → `content`, `thinking_delta` → `reasoning_content`, a `tool_use` block → one call (its `id` and
 * `name` from `content_block_start`, its arguments the `input_json_delta` fragments exactly as sent; a block
 * that got no fragment has its start `input` serialised canonically). `message_delta`'s `stop_reason` is the
 * finish reason; the message id, stop reason and usage (start and final, merged) go to `meta`.
 */
import type { ChatCompletionChunk, ChatCompletionChunkDelta, LoadedRecord, TraceRecord } from '../record.ts';
import { anthropicArguments, anthropicErrorText, anthropicFinishReason, anthropicMeta } from './anthropicMessage.ts';
import { describeJson, isObject, type UnknownObject } from './jsonGuards.ts';

const EVENT_TYPES = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
]);

/** An Anthropic stream event (an `error` event counts when its `error` is an object). */
export function isAnthropicEvent(value: UnknownObject): boolean {
  if (typeof value.type !== 'string') return false;
  return EVENT_TYPES.has(value.type) || (value.type === 'error' && isObject(value.error));
}

interface Block {
  kind: string;
  /** Tool calls only: the call's index among the message's calls. */
  toolIndex: number;
  input: unknown;
  sentArguments: boolean;
}

export class AnthropicStream {
  readonly line: number;
  lastLine: number;
  /** No more events belong to it (message_stop or error seen). */
  done = false;
  private readonly chunks: ChatCompletionChunk[] = [];
  private readonly blocks = new Map<number, Block>();
  private toolCount = 0;
  private id: string;
  private model: string | undefined;
  private message: UnknownObject = {};
  private usage: UnknownObject | undefined;
  private error: string | undefined;
  private errorType: string | undefined;

  constructor(line: number) {
    this.line = line;
    this.lastLine = line;
    this.id = `line-${line}`;
  }

  /** Whether an event of this type starts a new stream rather than continuing this one. */
  startsAfter(value: UnknownObject): boolean {
    return this.done || (value.type === 'message_start' && this.chunks.length > 0);
  }

  /** Adds one event; returns why it cannot be used, or null. */
  add(value: UnknownObject, line: number): string | null {
    const problem = this.apply(value);
    if (problem === null) this.lastLine = line;
    return problem;
  }

  private push(delta: ChatCompletionChunkDelta, finishReason: string | null = null): void {
    this.chunks.push({
      id: this.id,
      object: 'chat.completion.chunk',
      ...(this.model !== undefined ? { model: this.model } : {}),
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  }

  private apply(value: UnknownObject): string | null {
    switch (value.type) {
      case 'message_start': {
        if (!isObject(value.message)) return `message_start: "message" must be an object, got ${describeJson(value.message)}`;
        this.message = value.message;
        if (typeof value.message.id === 'string' && value.message.id !== '') this.id = value.message.id;
        if (typeof value.message.model === 'string') this.model = value.message.model;
        if (isObject(value.message.usage)) this.usage = { ...value.message.usage };
        this.push({ role: 'assistant' });
        return null;
      }
      case 'content_block_start': {
        const block = value.content_block;
        if (typeof value.index !== 'number') return `content_block_start: "index" must be a number, got ${describeJson(value.index)}`;
        if (!isObject(block)) return `content_block_start: "content_block" must be an object, got ${describeJson(block)}`;
        const kind = typeof block.type === 'string' ? block.type : '';
        const entry: Block = { kind, toolIndex: -1, input: block.input, sentArguments: false };
        this.blocks.set(value.index, entry);
        if (kind === 'tool_use') {
          if (typeof block.name !== 'string')
            return `content_block_start: tool_use "name" must be a string, got ${describeJson(block.name)}`;
          entry.toolIndex = this.toolCount++;
          const call = {
            index: entry.toolIndex,
            ...(typeof block.id === 'string' ? { id: block.id } : {}),
            type: 'function',
            function: { name: block.name, arguments: '' },
          };
          this.push({ tool_calls: [call] });
        } else if (kind === 'text' && typeof block.text === 'string' && block.text !== '') this.push({ content: block.text });
        else if (kind === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '')
          this.push({ reasoning_content: block.thinking });
        return null;
      }
      case 'content_block_delta': {
        const delta = value.delta;
        if (!isObject(delta)) return `content_block_delta: "delta" must be an object, got ${describeJson(delta)}`;
        const block = typeof value.index === 'number' ? this.blocks.get(value.index) : undefined;
        if (delta.type === 'text_delta') {
          if (typeof delta.text !== 'string') return `text_delta: "text" must be a string, got ${describeJson(delta.text)}`;
          this.push({ content: delta.text });
        } else if (delta.type === 'thinking_delta') {
          if (typeof delta.thinking !== 'string') return `thinking_delta: "thinking" must be a string, got ${describeJson(delta.thinking)}`;
          this.push({ reasoning_content: delta.thinking });
        } else if (delta.type === 'input_json_delta') {
          if (typeof delta.partial_json !== 'string')
            return `input_json_delta: "partial_json" must be a string, got ${describeJson(delta.partial_json)}`;
          if (block === undefined || block.toolIndex < 0)
            return `input_json_delta for content block ${String(value.index)}, which is not a tool_use block`;
          if (delta.partial_json === '') return null;
          block.sentArguments = true;
          this.push({ tool_calls: [{ index: block.toolIndex, function: { arguments: delta.partial_json } }] });
        }
        // signature_delta, citations_delta: nothing a client accumulates into the message.
        return null;
      }
      case 'content_block_stop': {
        const block = typeof value.index === 'number' ? this.blocks.get(value.index) : undefined;
        if (block !== undefined && block.toolIndex >= 0 && !block.sentArguments) {
          block.sentArguments = true;
          this.push({ tool_calls: [{ index: block.toolIndex, function: { arguments: anthropicArguments(block.input) } }] });
        }
        return null;
      }
      case 'message_delta': {
        const delta = isObject(value.delta) ? value.delta : {};
        if (isObject(value.usage)) this.usage = { ...(this.usage ?? {}), ...value.usage };
        if (delta.stop_reason !== undefined) this.message = { ...this.message, stop_reason: delta.stop_reason };
        if (delta.stop_sequence !== undefined) this.message = { ...this.message, stop_sequence: delta.stop_sequence };
        if (delta.stop_reason !== undefined && delta.stop_reason !== null) this.push({}, anthropicFinishReason(delta.stop_reason));
        return null;
      }
      case 'message_stop':
        this.done = true;
        return null;
      case 'error':
        this.error = anthropicErrorText(value.error);
        if (isObject(value.error) && typeof value.error.type === 'string') this.errorType = value.error.type;
        this.done = true;
        return null;
      default:
        return null; // ping
    }
  }

  record(): LoadedRecord {
    const meta = anthropicMeta({ ...this.message, ...(this.usage !== undefined ? { usage: this.usage } : {}) });
    if (this.errorType !== undefined) meta.error_type = this.errorType;
    meta.stream = true;
    const record: TraceRecord = { toolscope: 1, id: this.id, response: this.chunks, meta };
    if (this.error !== undefined) record.error = this.error;
    return { record, line: this.line, lastLine: this.lastLine, source: 'anthropic-stream' };
  }
}
