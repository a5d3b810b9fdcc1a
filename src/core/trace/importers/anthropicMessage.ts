/**
 * Anthropic Messages API responses (`{"type": "message", "role": "assistant", "content": [blocks…]}`), as a
 * `chat.completion`: `text` blocks joined into `content`, `thinking` blocks into `reasoning_content`, each
 * `tool_use` block a call with its `id` and `name` as given and its `input` object serialised canonically (keys
 * sorted) into `arguments`. `stop_reason` becomes `finish_reason` (`tool_use` → `tool_calls`); the message's id,
 * stop reason, stop sequence and usage are kept in `meta`. An API error body (`{"type": "error", "error": …}`)
 * becomes a record whose `error` is the message.
 */
import { assistantCompletion } from './assistantCompletion.ts';
import { canonicalJson } from '../../util/canonicalJson.ts';
import type { ChatToolCall, RecordMeta } from '../record.ts';
import { describeJson, isNonEmptyString, isObject, type UnknownObject } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

export function isAnthropicMessageShape(value: UnknownObject): boolean {
  return value.type === 'message' && Array.isArray(value.content);
}

export function isAnthropicErrorShape(value: UnknownObject): boolean {
  return value.type === 'error' && isObject(value.error);
}

/** Anthropic's stop reasons in OpenAI's terms; an unknown one is kept as given. */
export function anthropicFinishReason(stopReason: unknown): string | null {
  if (typeof stopReason !== 'string') return null;
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return stopReason;
  }
}

/** A tool_use block's `input` as the arguments string: canonical JSON of the object (a string input as given). */
export function anthropicArguments(input: unknown): string {
  if (typeof input === 'string') return input;
  return canonicalJson(input ?? {});
}

/** `type: message` fields worth keeping beside the record. */
export function anthropicMeta(message: UnknownObject): RecordMeta {
  const meta: RecordMeta = { source: 'anthropic', endpoint: '/v1/messages' };
  if (typeof message.model === 'string') meta.model = message.model;
  if (typeof message.id === 'string') meta.message_id = message.id;
  if (message.stop_reason !== undefined) meta.stop_reason = message.stop_reason;
  if (message.stop_sequence !== undefined) meta.stop_sequence = message.stop_sequence;
  if (message.usage !== undefined) meta.usage = message.usage;
  return meta;
}

/** An Anthropic error object as text, its type first: "overloaded_error: Overloaded". */
export function anthropicErrorText(error: unknown): string {
  if (!isObject(error)) return typeof error === 'string' ? error : JSON.stringify(error);
  const message = typeof error.message === 'string' ? error.message : JSON.stringify(error);
  return typeof error.type === 'string' ? `${error.type}: ${message}` : message;
}

export function importAnthropicMessage(value: UnknownObject, line: number): ImportResult {
  const blocks = value.content as unknown[];
  let text: string | null = null;
  let reasoning: string | null = null;
  const calls: ChatToolCall[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block: unknown = blocks[i];
    if (!isObject(block)) return importError(line, `Anthropic message: content[${i}] must be an object, got ${describeJson(block)}`);
    if (block.type === 'text') {
      if (typeof block.text !== 'string')
        return importError(line, `Anthropic message: content[${i}].text must be a string, got ${describeJson(block.text)}`);
      text = (text ?? '') + block.text;
    } else if (block.type === 'thinking') {
      if (typeof block.thinking !== 'string')
        return importError(line, `Anthropic message: content[${i}].thinking must be a string, got ${describeJson(block.thinking)}`);
      reasoning = (reasoning ?? '') + block.thinking;
    } else if (block.type === 'tool_use') {
      if (typeof block.name !== 'string')
        return importError(line, `Anthropic message: content[${i}].name must be a string, got ${describeJson(block.name)}`);
      if (block.input !== undefined && !isObject(block.input) && typeof block.input !== 'string') {
        return importError(line, `Anthropic message: content[${i}].input must be an object, got ${describeJson(block.input)}`);
      }
      const call: ChatToolCall = { type: 'function', function: { name: block.name, arguments: anthropicArguments(block.input) } };
      if (typeof block.id === 'string') call.id = block.id;
      calls.push(call);
    }
    // Other blocks (redacted_thinking, server tools' results, …) carry nothing a tool-call check reads.
  }
  const id = isNonEmptyString(value.id) ? value.id : `line-${line}`;
  const response = assistantCompletion({
    id,
    model: value.model,
    content: text,
    reasoning,
    calls,
    finishReason: anthropicFinishReason(value.stop_reason),
    usage: value.usage,
  });
  return importedRecord({ record: { toolscope: 1, id, response, meta: anthropicMeta(value) }, line, lastLine: line, source: 'anthropic' });
}

export function importAnthropicError(value: UnknownObject, line: number): ImportResult {
  const meta: RecordMeta = { source: 'anthropic', endpoint: '/v1/messages' };
  if (isObject(value.error) && typeof value.error.type === 'string') meta.error_type = value.error.type;
  if (typeof value.request_id === 'string') meta.request_id = value.request_id;
  return importedRecord({
    record: { toolscope: 1, id: `line-${line}`, error: anthropicErrorText(value.error), meta },
    line,
    lastLine: line,
    source: 'anthropic',
  });
}
