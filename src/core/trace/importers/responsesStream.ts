/**
 * An OpenAI Responses API stream (`response.*` events, with or without `event:` lines), turned into the
 * `chat.completion.chunk` list a chat client would have accumulated. Events carry no stream id of their own
 * (only the `response` objects of `response.created` / `.completed` do), so a stream runs from
 * `response.created` to `response.completed`, `.incomplete` or `.failed`. `response.output_text.delta` →
 * `content`; `response.reasoning_text.delta` and `response.reasoning_summary_text.delta` → `reasoning_content`;
 * a `function_call` item (`response.output_item.added`) → a call with its `call_id` and `name`, its arguments the
 * `response.function_call_arguments.delta` fragments exactly as sent (an item that got none sends its
 * `arguments` at `response.output_item.done`). An `error` event or `response.failed` becomes the record's
 * `error`. The final response's tools become the request's, its id, status and usage `meta`.
 */
import type { ChatCompletionChunk, ChatCompletionChunkDelta, LoadedRecord, RecordMeta, TraceRecord } from '../record.ts';
import { describeJson, isObject, type UnknownObject } from './jsonGuards.ts';
import { responsesErrorText, responsesFinishReason, responsesMeta, responsesRequest } from './responsesObject.ts';

/** A Responses stream event (its `type` starts with `response.`). */
export function isResponsesEvent(value: UnknownObject): boolean {
  return typeof value.type === 'string' && value.type.startsWith('response.');
}

interface CallItem {
  toolIndex: number;
  sentArguments: boolean;
}

export class ResponsesStream {
  readonly line: number;
  lastLine: number;
  done = false;
  private readonly chunks: ChatCompletionChunk[] = [];
  /** Function-call items by item id and by output index (delta events name both). */
  private readonly calls = new Map<string, CallItem>();
  private toolCount = 0;
  private id: string;
  private model: string | undefined;
  private response: UnknownObject = {};
  private error: string | undefined;
  private finished = false;

  constructor(line: number) {
    this.line = line;
    this.lastLine = line;
    this.id = `line-${line}`;
  }

  startsAfter(value: UnknownObject): boolean {
    return this.done || (value.type === 'response.created' && this.chunks.length > 0);
  }

  add(value: UnknownObject, line: number): string | null {
    const problem = this.apply(value);
    if (problem === null) this.lastLine = line;
    return problem;
  }

  /** An `error` event: the stream's error (it ends at `response.failed`, or where the block ends). */
  fail(value: UnknownObject, line: number): void {
    this.error ??= responsesErrorText(isObject(value.error) ? value.error : value);
    this.lastLine = line;
  }

  private push(delta: ChatCompletionChunkDelta, finishReason: string | null = null): void {
    this.chunks.push({
      id: this.id,
      object: 'chat.completion.chunk',
      ...(this.model !== undefined ? { model: this.model } : {}),
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  }

  private takeResponse(value: UnknownObject): string | null {
    if (!isObject(value.response)) return `${String(value.type)}: "response" must be an object, got ${describeJson(value.response)}`;
    this.response = value.response;
    if (typeof value.response.id === 'string' && value.response.id !== '') this.id = value.response.id;
    if (typeof value.response.model === 'string') this.model = value.response.model;
    return null;
  }

  private callOf(value: UnknownObject): CallItem | undefined {
    if (typeof value.item_id === 'string') {
      const byId = this.calls.get(`id:${value.item_id}`);
      if (byId !== undefined) return byId;
    }
    return typeof value.output_index === 'number' ? this.calls.get(`at:${value.output_index}`) : undefined;
  }

  private apply(value: UnknownObject): string | null {
    switch (value.type) {
      case 'response.created': {
        const problem = this.takeResponse(value);
        if (problem === null) this.push({ role: 'assistant' });
        return problem;
      }
      case 'response.in_progress':
        return this.takeResponse(value);
      case 'response.output_item.added': {
        const item = value.item;
        if (!isObject(item)) return `response.output_item.added: "item" must be an object, got ${describeJson(item)}`;
        if (item.type !== 'function_call') return null;
        if (typeof item.name !== 'string')
          return `response.output_item.added: function_call "name" must be a string, got ${describeJson(item.name)}`;
        const call: CallItem = { toolIndex: this.toolCount++, sentArguments: false };
        if (typeof item.id === 'string') this.calls.set(`id:${item.id}`, call);
        if (typeof value.output_index === 'number') this.calls.set(`at:${value.output_index}`, call);
        const args = typeof item.arguments === 'string' ? item.arguments : '';
        if (args !== '') call.sentArguments = true;
        this.push({
          tool_calls: [
            {
              index: call.toolIndex,
              ...(typeof item.call_id === 'string' ? { id: item.call_id } : {}),
              type: 'function',
              function: { name: item.name, arguments: args },
            },
          ],
        });
        return null;
      }
      case 'response.function_call_arguments.delta': {
        if (typeof value.delta !== 'string')
          return `response.function_call_arguments.delta: "delta" must be a string, got ${describeJson(value.delta)}`;
        const call = this.callOf(value);
        if (call === undefined)
          return `response.function_call_arguments.delta for item ${String(value.item_id ?? value.output_index)}, which is not a function_call item of this stream`;
        if (value.delta === '') return null;
        call.sentArguments = true;
        this.push({ tool_calls: [{ index: call.toolIndex, function: { arguments: value.delta } }] });
        return null;
      }
      case 'response.output_item.done': {
        const item = value.item;
        if (!isObject(item) || item.type !== 'function_call') return null;
        const call = this.callOf({ item_id: item.id, output_index: value.output_index });
        if (call !== undefined && !call.sentArguments && typeof item.arguments === 'string' && item.arguments !== '') {
          call.sentArguments = true;
          this.push({ tool_calls: [{ index: call.toolIndex, function: { arguments: item.arguments } }] });
        }
        return null;
      }
      case 'response.output_text.delta':
        if (typeof value.delta !== 'string')
          return `response.output_text.delta: "delta" must be a string, got ${describeJson(value.delta)}`;
        this.push({ content: value.delta });
        return null;
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_text.delta':
        if (typeof value.delta !== 'string') return `${value.type}: "delta" must be a string, got ${describeJson(value.delta)}`;
        this.push({ reasoning_content: value.delta });
        return null;
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': {
        const problem = this.takeResponse(value);
        if (problem !== null) return problem;
        this.done = true;
        if (value.type === 'response.failed') {
          if (this.response.error !== undefined && this.response.error !== null) this.error ??= responsesErrorText(this.response.error);
          else this.error ??= 'the response failed';
          return null;
        }
        if (!this.finished) {
          this.finished = true;
          this.push({}, responsesFinishReason(this.response, this.toolCount > 0));
        }
        return null;
      }
      default:
        // *.done events repeat what the deltas carried; content_part, refusal, annotation events add nothing here.
        return null;
    }
  }

  record(): LoadedRecord {
    const meta: RecordMeta = { ...responsesMeta(this.response), stream: true };
    const record: TraceRecord = { toolscope: 1, id: this.id, response: this.chunks, meta };
    const request = responsesRequest(this.response);
    if (request !== undefined) record.request = request;
    if (this.error !== undefined) record.error = this.error;
    return { record, line: this.line, lastLine: this.lastLine, source: 'openai-responses-stream' };
  }
}
