/**
 * OpenAI Responses API `response` objects (`"object": "response"`, an `output` list), as a `chat.completion`:
 * `message` items' `output_text` parts joined into `content`, `reasoning` items' `reasoning_text` parts (else
 * their `summary` texts) into `reasoning_content`, each `function_call` item a call with its `call_id`, `name`
 * and `arguments` string as given. The finish reason follows `status`: `completed` with a function call →
 * `tool_calls`, else `stop`; `incomplete` for `max_output_tokens` → `length`, for `content_filter` →
 * `content_filter`; `failed` → none, and `error` becomes the record's error. Tools declared in the response's
 * flat `{type, name, parameters}` shape become the request's tools. The response's id, status, usage and times go
 * to `meta`.
 */
import { assistantCompletion } from './assistantCompletion.ts';
import type { ChatRequest, ChatTool, ChatToolCall, JsonObject, RecordMeta, ToolChoice, TraceRecord } from '../record.ts';
import { describeJson, isNonEmptyString, isObject, type UnknownObject } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

/** The largest time a JavaScript Date holds, in milliseconds either side of 1970. */
const MAX_DATE_MS = 8.64e15;

export function isResponsesObjectShape(value: UnknownObject): boolean {
  return value.object === 'response' && Array.isArray(value.output);
}

/** The finish reason a chat client would have seen for a response in this state. */
export function responsesFinishReason(response: UnknownObject, hasCalls: boolean): string | null {
  if (response.status === 'incomplete') {
    const reason = isObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    if (reason === 'max_output_tokens') return 'length';
    if (reason === 'content_filter') return 'content_filter';
    return typeof reason === 'string' ? reason : 'length';
  }
  if (response.status === 'failed' || response.status === 'cancelled') return null;
  return hasCalls ? 'tool_calls' : 'stop';
}

/** An error object (`{code, message}`) or event as text, its code first. */
export function responsesErrorText(error: unknown): string {
  if (!isObject(error)) return typeof error === 'string' ? error : JSON.stringify(error);
  const message = typeof error.message === 'string' ? error.message : JSON.stringify(error);
  const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : null;
  return code !== null && !message.startsWith(code) ? `${code}: ${message}` : message;
}

export function responsesMeta(response: UnknownObject): RecordMeta {
  const meta: RecordMeta = { source: 'openai-responses', endpoint: '/v1/responses' };
  if (typeof response.model === 'string') meta.model = response.model;
  if (typeof response.id === 'string') meta.response_id = response.id;
  if (typeof response.status === 'string') meta.status = response.status;
  if (response.incomplete_details !== undefined && response.incomplete_details !== null)
    meta.incomplete_details = response.incomplete_details;
  if (response.usage !== undefined && response.usage !== null) meta.usage = response.usage;
  if (typeof response.created_at === 'number') {
    meta.created_at = response.created_at;
    // A time outside what a Date holds (±8.64e15 ms) is kept as the number it is, with no date beside it.
    const ms = response.created_at * 1000;
    if (Math.abs(ms) <= MAX_DATE_MS) meta.created = new Date(ms).toISOString();
  }
  if (typeof response.completed_at === 'number') meta.completed_at = response.completed_at;
  return meta;
}

/** The response's declared function tools as a chat request (model, tools, tool_choice), or undefined. */
export function responsesRequest(response: UnknownObject): ChatRequest | undefined {
  const tools: ChatTool[] = [];
  for (const t of Array.isArray(response.tools) ? response.tools : []) {
    if (!isObject(t) || t.type !== 'function' || typeof t.name !== 'string') continue;
    tools.push({
      type: 'function',
      function: {
        name: t.name,
        ...(typeof t.description === 'string' ? { description: t.description } : {}),
        ...(isObject(t.parameters) ? { parameters: t.parameters as JsonObject } : {}),
        ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
      },
    });
  }
  if (tools.length === 0) return undefined;
  const request: ChatRequest = { ...(typeof response.model === 'string' ? { model: response.model } : {}), tools };
  const choice = response.tool_choice;
  if (choice === 'auto' || choice === 'none' || choice === 'required') request.tool_choice = choice;
  else if (isObject(choice) && choice.type === 'function' && typeof choice.name === 'string')
    request.tool_choice = { type: 'function', function: { name: choice.name } } satisfies ToolChoice;
  return request;
}

/** A reasoning item's text: its `reasoning_text` parts, else its summary texts. */
export function reasoningItemText(item: UnknownObject): string {
  const parts = (list: unknown, type: string) =>
    (Array.isArray(list) ? list : [])
      .filter((p): p is UnknownObject => isObject(p) && p.type === type && typeof p.text === 'string')
      .map((p) => p.text as string);
  const full = parts(item.content, 'reasoning_text');
  return (full.length > 0 ? full : parts(item.summary, 'summary_text')).join('');
}

export function importResponsesObject(value: UnknownObject, line: number): ImportResult {
  const output = value.output as unknown[];
  let text: string | null = null;
  let reasoning: string | null = null;
  const calls: ChatToolCall[] = [];
  for (let i = 0; i < output.length; i++) {
    const item: unknown = output[i];
    if (!isObject(item)) return importError(line, `Responses output[${i}] must be an object, got ${describeJson(item)}`);
    if (item.type === 'message') {
      for (const part of Array.isArray(item.content) ? item.content : []) {
        if (isObject(part) && part.type === 'output_text' && typeof part.text === 'string') text = (text ?? '') + part.text;
      }
    } else if (item.type === 'reasoning') {
      const r = reasoningItemText(item);
      if (r !== '') reasoning = (reasoning ?? '') + r;
    } else if (item.type === 'function_call') {
      if (typeof item.name !== 'string')
        return importError(line, `Responses output[${i}].name must be a string, got ${describeJson(item.name)}`);
      if (typeof item.arguments !== 'string')
        return importError(line, `Responses output[${i}].arguments must be a string, got ${describeJson(item.arguments)}`);
      const call: ChatToolCall = { type: 'function', function: { name: item.name, arguments: item.arguments } };
      if (typeof item.call_id === 'string') call.id = item.call_id;
      calls.push(call);
    }
  }
  const id = isNonEmptyString(value.id) ? value.id : `line-${line}`;
  const response = assistantCompletion({
    id,
    model: value.model,
    content: text,
    reasoning,
    calls,
    finishReason: responsesFinishReason(value, calls.length > 0),
    usage: value.usage ?? undefined,
  });
  const record: TraceRecord = { toolscope: 1, id, response, meta: responsesMeta(value) };
  const request = responsesRequest(value);
  if (request !== undefined) record.request = request;
  if (value.error !== undefined && value.error !== null) record.error = responsesErrorText(value.error);
  return importedRecord({ record, line, lastLine: line, source: 'openai-responses' });
}
