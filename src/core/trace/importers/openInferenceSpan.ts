/**
 * OpenInference LLM spans (Arize Phoenix's conventions, https://github.com/Arize-ai/openinference/blob/main/spec/semantic_conventions.md):
 * `openinference.span.kind = "LLM"`, the messages flattened as `llm.input_messages.N.message.role` / `.content` /
 * `.tool_calls.M.tool_call.function.name` / `.arguments` / `.id`, `llm.output_messages.N.…` likewise, the tools as
 * `llm.tools.N.tool.json_schema` (JSON text), `llm.model_name`, and the exchange as the instrumentation saw it in
 * `input.value` / `output.value`. When `input.value` is the request body (`messages`, `tools`) or `output.value`
 * the provider's response (`choices`), those are kept as they are; otherwise the record is built from the flattened
 * messages and says so in `meta.unchecked`. Read from OTLP JSON exports (otlpSpans.ts) and from Phoenix's span
 * JSON (`{name, context: {trace_id, span_id}, span_kind, attributes: {…}}`, as in spec/llm_spans.md), whose
 * attributes may be flat dotted keys or nested objects and lists: both are flattened to dotted keys first.
 */
import { canonicalJson } from '../../util/canonicalJson.ts';
import { deeperThan, MAX_JSON_DEPTH } from '../../util/jsonDepth.ts';
import type { ChatMessage, ChatRequest, ChatToolCall, LoadedRecord, RecordMeta, TraceRecord } from '../record.ts';
import { chatTools, ExportShapeProblem, jsonColumn, PARSED_ONLY_NOTE, parsedCompletion, rawCompletion } from './exportMessages.ts';
import { messagesProblem } from './chatShapes.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';
import type { ReadResult } from './importResult.ts';

/** Nested attribute objects and lists as dotted keys (`{llm: {input_messages: [{message: {role}}]}}` → `llm.input_messages.0.message.role`). */
export function flattenAttributes(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) flattenAttributes(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (Array.isArray(value) && value.some((v) => isObject(v) || Array.isArray(v))) {
    value.forEach((v, i) => flattenAttributes(v, `${prefix}.${i}`, out));
  } else if (prefix) out.set(prefix, value);
  return out;
}

export function isOpenInferenceLlm(attrs: Map<string, unknown>): boolean {
  if (attrs.get('openinference.span.kind') === 'LLM') return true;
  for (const key of attrs.keys()) if (key.startsWith('llm.input_messages.') || key.startsWith('llm.output_messages.')) return true;
  return false;
}

function indices(attrs: Map<string, unknown>, prefix: string): number[] {
  const found = new Set<number>();
  for (const key of attrs.keys()) {
    if (!key.startsWith(prefix)) continue;
    const m = /^(\d+)\./u.exec(key.slice(prefix.length));
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b);
}

function str(attrs: Map<string, unknown>, key: string): string | undefined {
  const v = attrs.get(key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ExportShapeProblem(`${key} must be text`);
  return v;
}

function flatMessage(attrs: Map<string, unknown>, base: string): ChatMessage {
  const role = str(attrs, `${base}.message.role`) ?? 'assistant';
  let content: string | null = str(attrs, `${base}.message.content`) ?? null;
  if (content === null) {
    // Multimodal messages keep their text in message.contents.K.message_content.text.
    const parts = indices(attrs, `${base}.message.contents.`).map(
      (k) => str(attrs, `${base}.message.contents.${k}.message_content.text`) ?? '',
    );
    if (parts.length > 0) content = parts.join('');
  }
  const message: ChatMessage = { role, content };
  const calls: ChatToolCall[] = [];
  for (const j of indices(attrs, `${base}.message.tool_calls.`)) {
    const at = `${base}.message.tool_calls.${j}.tool_call`;
    const name = str(attrs, `${at}.function.name`);
    if (name === undefined) throw new ExportShapeProblem(`${at}.function.name is missing`);
    const args = attrs.get(`${at}.function.arguments`);
    const call: ChatToolCall = {
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : canonicalJson(args ?? {}) },
    };
    const id = str(attrs, `${at}.id`);
    if (id !== undefined) call.id = id;
    calls.push(call);
  }
  if (calls.length > 0) message.tool_calls = calls;
  const callId = str(attrs, `${base}.message.tool_call_id`);
  if (callId !== undefined) message.tool_call_id = callId;
  const name = str(attrs, `${base}.message.name`);
  if (name !== undefined) message.name = name;
  return message;
}

function jsonValue(attrs: Map<string, unknown>, key: string): unknown {
  const mime = attrs.get(key.replace(/\.value$/u, '.mime_type'));
  const value = attrs.get(key);
  if (typeof value === 'string' && mime !== undefined && mime !== 'application/json') return undefined;
  return jsonColumn(value);
}

export interface SpanIds {
  traceId?: string;
  spanId?: string;
  name?: string;
  fallbackId: string;
}

/** One OpenInference LLM span's attributes as a record; throws ExportShapeProblem for what cannot be read. */
export function openInferenceRecord(attrs: Map<string, unknown>, ids: SpanIds): TraceRecord {
  const id = ids.spanId ?? ids.fallbackId;
  const model = str(attrs, 'llm.model_name');
  const meta: RecordMeta = { source: 'openinference' };
  if (model) meta.model = model;
  if (ids.traceId) meta.trace_id = ids.traceId;
  if (ids.spanId) meta.span_id = ids.spanId;
  if (ids.name) meta.span_name = ids.name;
  for (const [key, as] of [
    ['llm.provider', 'provider'],
    ['llm.system', 'system'],
    ['llm.token_count.prompt', 'input_tokens'],
    ['llm.token_count.completion', 'output_tokens'],
  ] as const) {
    if (attrs.has(key)) meta[as] = attrs.get(key);
  }

  const record: TraceRecord = { toolscope: 1, id, meta };
  const input = jsonValue(attrs, 'input.value');
  if (isObject(input) && Array.isArray(input.messages) && messagesProblem(input.messages, 'input.value.messages') === null) {
    record.request = input as ChatRequest;
  } else {
    const messages = indices(attrs, 'llm.input_messages.').map((i) => flatMessage(attrs, `llm.input_messages.${i}`));
    const tools = chatTools(
      indices(attrs, 'llm.tools.').map((i) => jsonColumn(attrs.get(`llm.tools.${i}.tool.json_schema`))),
      'llm.tools',
    );
    const params = jsonColumn(attrs.get('llm.invocation_parameters'));
    if (messages.length > 0 || tools) {
      record.request = {
        ...(isObject(params) ? params : {}),
        ...(model ? { model } : {}),
        messages,
        ...(tools ? { tools } : {}),
      };
    }
  }

  const output = jsonValue(attrs, 'output.value');
  const raw = rawCompletion(output, 'output.value');
  if (raw) record.response = raw;
  else {
    const outputs = indices(attrs, 'llm.output_messages.');
    if (outputs.length > 0) {
      record.response = parsedCompletion(id, flatMessage(attrs, `llm.output_messages.${outputs[0]}`), null, model);
      meta.unchecked = PARSED_ONLY_NOTE;
    }
  }
  return record;
}

export function isPhoenixSpanShape(value: UnknownObject): boolean {
  return isObject(value.context) && 'span_id' in value.context && ('attributes' in value || 'span_kind' in value);
}

/** A Phoenix span (REST API, `spans` JSONL, the spec's examples): a record for an LLM span, nothing for the others. */
export function importPhoenixSpan(span: UnknownObject, line: number): ReadResult {
  const context = span.context as UnknownObject;
  if (deeperThan(span.attributes)) {
    return {
      records: [],
      errors: [{ line, message: `line ${line}: Phoenix span: its attributes nest deeper than ${MAX_JSON_DEPTH} levels` }],
    };
  }
  const attrs = flattenAttributes(span.attributes);
  if (span.span_kind !== 'LLM' && !isOpenInferenceLlm(attrs)) return { records: [], errors: [] };
  const spanId = typeof context.span_id === 'string' ? context.span_id : undefined;
  try {
    const record = openInferenceRecord(attrs, {
      traceId: typeof context.trace_id === 'string' ? context.trace_id : undefined,
      spanId,
      name: typeof span.name === 'string' ? span.name : undefined,
      fallbackId: `line-${line}`,
    });
    if (typeof span.start_time === 'string' && record.meta) record.meta.created = span.start_time;
    if (span.status_code === 'ERROR')
      record.error = typeof span.status_message === 'string' && span.status_message ? span.status_message : 'span status ERROR';
    const loaded: LoadedRecord = { record, line, lastLine: line, source: 'openinference' };
    return { records: [loaded], errors: [] };
  } catch (err) {
    if (!(err instanceof ExportShapeProblem)) throw err;
    return { records: [], errors: [{ line, message: `line ${line}: Phoenix span ${spanId ?? ''}: ${err.message}` }] };
  }
}
