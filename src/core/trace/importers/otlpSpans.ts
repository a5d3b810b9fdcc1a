/**
 * OpenTelemetry OTLP JSON exports (`{"resourceSpans": [{"scopeSpans": [{"spans": […]}]}]}`) with the GenAI
 * semantic conventions: one export holds many spans, and every LLM span becomes a record of its own (all with the
 * export's first line as `line`; the editor keys them by their position in the entry). A span is an LLM span when
 * it carries `gen_ai.input.messages` / `gen_ai.output.messages` (current conventions: JSON strings of messages
 * with `parts`), or the older flattened `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` attributes (OpenLLMetry),
 * or `gen_ai.request.model`; other spans (workflows, tools, HTTP) are skipped. Tools come from
 * `gen_ai.tool.definitions` or OpenLLMetry's `llm.request.functions.N.*`. Attribute values are OTLP `AnyValue`
 * objects; text is kept exactly as recorded, object arguments are serialised canonically. A span that cannot be
 * read is an error on the export's line; the other spans still load.
 */
import { canonicalJson } from '../../util/canonicalJson.ts';
import { deeperThan, MAX_JSON_DEPTH } from '../../util/jsonDepth.ts';
import type {
  ChatCompletion,
  ChatMessage,
  ChatTool,
  ChatToolCall,
  JsonObject,
  LineError,
  LoadedRecord,
  RecordMeta,
  TraceRecord,
} from '../record.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';
import type { ReadResult } from './importResult.ts';
import { ExportShapeProblem } from './exportMessages.ts';
import { isOpenInferenceLlm, openInferenceRecord } from './openInferenceSpan.ts';

export function isOtlpExportShape(value: unknown): value is UnknownObject {
  return isObject(value) && Array.isArray(value.resourceSpans);
}

/** An OTLP `AnyValue` as plain JSON (`intValue` is a string in OTLP JSON: read as a number when it is safe). */
function anyValue(value: unknown): unknown {
  if (!isObject(value)) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) {
    const n = Number(value.intValue);
    return Number.isSafeInteger(n) ? n : value.intValue;
  }
  if ('doubleValue' in value) return value.doubleValue;
  if ('bytesValue' in value) return value.bytesValue;
  if ('arrayValue' in value) {
    const values = isObject(value.arrayValue) && Array.isArray(value.arrayValue.values) ? value.arrayValue.values : [];
    return values.map(anyValue);
  }
  if ('kvlistValue' in value) return Object.fromEntries(attributeMap(isObject(value.kvlistValue) ? value.kvlistValue.values : []));
  return undefined;
}

function attributeMap(list: unknown): Map<string, unknown> {
  const map = new Map<string, unknown>();
  if (!Array.isArray(list)) return map;
  for (const kv of list) if (isObject(kv) && typeof kv.key === 'string') map.set(kv.key, anyValue(kv.value));
  return map;
}

class SpanProblem extends Error {}

function text(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SpanProblem(`${key} must be a string`);
  return value;
}

/** A JSON-string attribute (or an already structured one, as some exporters write arrays). */
function jsonAttribute(attrs: Map<string, unknown>, key: string): unknown {
  const value = attrs.get(key);
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new SpanProblem(`${key} is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value ?? {});
}

/** The conventions' finish reasons in OpenAI's terms (`tool_call` → `tool_calls`). */
function finishReason(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return value === 'tool_call' ? 'tool_calls' : value;
}

/** A `gen_ai.*.messages` entry (`{role, parts: [...]}`, parts `text`, `reasoning`, `tool_call`, `tool_call_response`) as chat messages. */
function partsMessage(message: unknown, key: string): ChatMessage[] {
  if (!isObject(message)) throw new SpanProblem(`${key} must hold message objects`);
  const role = typeof message.role === 'string' ? message.role : 'user';
  const parts = Array.isArray(message.parts) ? message.parts : [];
  let content: string | null = null;
  let reasoning: string | null = null;
  const calls: ChatToolCall[] = [];
  const responses: ChatMessage[] = [];
  for (const part of parts) {
    if (!isObject(part)) throw new SpanProblem(`${key}: a part must be an object`);
    if (part.type === 'text') content = (content ?? '') + (text(part.content, `${key} text part`) ?? '');
    else if (part.type === 'reasoning') reasoning = (reasoning ?? '') + (text(part.content, `${key} reasoning part`) ?? '');
    else if (part.type === 'tool_call') {
      const name = text(part.name, `${key} tool_call name`);
      if (name === undefined) throw new SpanProblem(`${key}: a tool_call part has no name`);
      const call: ChatToolCall = { type: 'function', function: { name, arguments: argumentsText(part.arguments) } };
      if (typeof part.id === 'string') call.id = part.id;
      calls.push(call);
    } else if (part.type === 'tool_call_response') {
      const response = part.response;
      responses.push({
        role: 'tool',
        content: typeof response === 'string' ? response : canonicalJson(response ?? null),
        ...(typeof part.id === 'string' ? { tool_call_id: part.id } : {}),
      });
    }
  }
  const out: ChatMessage[] = [];
  if (content !== null || reasoning !== null || calls.length > 0 || responses.length === 0) {
    out.push({
      role,
      content,
      ...(reasoning !== null ? { reasoning_content: reasoning } : {}),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    });
  }
  return [...out, ...responses];
}

/** The indices N of `prefix.N.*` attributes, in order. */
function indices(attrs: Map<string, unknown>, prefix: string): number[] {
  const found = new Set<number>();
  for (const key of attrs.keys()) {
    if (!key.startsWith(prefix)) continue;
    const m = /^(\d+)\./u.exec(key.slice(prefix.length));
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b);
}

/** OpenLLMetry's flattened `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` message. */
function flatMessage(attrs: Map<string, unknown>, base: string): ChatMessage & { finish?: string | null } {
  const role = text(attrs.get(`${base}.role`), `${base}.role`) ?? 'assistant';
  const content = text(attrs.get(`${base}.content`), `${base}.content`) ?? null;
  const calls: ChatToolCall[] = [];
  for (const i of indices(attrs, `${base}.tool_calls.`)) {
    const at = `${base}.tool_calls.${i}`;
    const name = text(attrs.get(`${at}.name`), `${at}.name`);
    if (name === undefined) throw new SpanProblem(`${at} has no name`);
    const call: ChatToolCall = { type: 'function', function: { name, arguments: argumentsText(attrs.get(`${at}.arguments`)) } };
    const id = attrs.get(`${at}.id`);
    if (typeof id === 'string') call.id = id;
    calls.push(call);
  }
  const message: ChatMessage & { finish?: string | null } = { role, content, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  const toolCallId = attrs.get(`${base}.tool_call_id`);
  if (typeof toolCallId === 'string') message.tool_call_id = toolCallId;
  if (attrs.has(`${base}.finish_reason`)) message.finish = finishReason(attrs.get(`${base}.finish_reason`));
  return message;
}

function tools(attrs: Map<string, unknown>): ChatTool[] | undefined {
  const definitions = jsonAttribute(attrs, 'gen_ai.tool.definitions');
  if (definitions !== undefined) {
    if (!Array.isArray(definitions)) throw new SpanProblem('gen_ai.tool.definitions must be an array');
    return definitions.map((d, i) => {
      if (!isObject(d)) throw new SpanProblem(`gen_ai.tool.definitions[${i}] must be an object`);
      const fn = isObject(d.function) ? d.function : d; // flat {type, name, parameters} or OpenAI's nested shape
      const name = text(fn.name, `gen_ai.tool.definitions[${i}].name`);
      if (name === undefined) throw new SpanProblem(`gen_ai.tool.definitions[${i}] has no name`);
      return {
        type: 'function',
        function: {
          name,
          ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
          ...(isObject(fn.parameters) ? { parameters: fn.parameters as JsonObject } : {}),
        },
      };
    });
  }
  const found = indices(attrs, 'llm.request.functions.');
  if (found.length === 0) return undefined;
  return found.map((i) => {
    const at = `llm.request.functions.${i}`;
    const name = text(attrs.get(`${at}.name`), `${at}.name`);
    if (name === undefined) throw new SpanProblem(`${at} has no name`);
    const parameters = jsonAttribute(attrs, `${at}.parameters`);
    const description = attrs.get(`${at}.description`);
    return {
      type: 'function',
      function: {
        name,
        ...(typeof description === 'string' ? { description } : {}),
        ...(isObject(parameters) ? { parameters: parameters as JsonObject } : {}),
      },
    };
  });
}

/** `gen_ai.system_instructions`: a JSON array of parts (its text parts joined), or plain text as given. */
function systemInstructions(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(value);
  } catch {
    return value;
  }
  if (!Array.isArray(parts)) return value;
  return parts.map((p) => (isObject(p) && typeof p.content === 'string' ? p.content : '')).join('');
}

function isLlmSpan(attrs: Map<string, unknown>): boolean {
  if (attrs.has('gen_ai.input.messages') || attrs.has('gen_ai.output.messages') || attrs.has('gen_ai.request.model')) return true;
  for (const key of attrs.keys()) if (key.startsWith('gen_ai.prompt.') || key.startsWith('gen_ai.completion.')) return true;
  return false;
}

function spanRecord(span: UnknownObject, attrs: Map<string, unknown>, fallbackId: string): TraceRecord {
  const messages: ChatMessage[] = [];
  const input = jsonAttribute(attrs, 'gen_ai.input.messages');
  if (input !== undefined) {
    if (!Array.isArray(input)) throw new SpanProblem('gen_ai.input.messages must be an array');
    const system = systemInstructions(attrs.get('gen_ai.system_instructions'));
    if (system !== undefined) messages.push({ role: 'system', content: system });
    for (const m of input) messages.push(...partsMessage(m, 'gen_ai.input.messages'));
  } else {
    for (const i of indices(attrs, 'gen_ai.prompt.')) {
      const { finish: _finish, ...m } = flatMessage(attrs, `gen_ai.prompt.${i}`);
      messages.push(m);
    }
  }

  const choices: ChatCompletion['choices'] = [];
  const output = jsonAttribute(attrs, 'gen_ai.output.messages');
  if (output !== undefined) {
    if (!Array.isArray(output)) throw new SpanProblem('gen_ai.output.messages must be an array');
    output.forEach((m, index) => {
      const [message] = partsMessage(m, 'gen_ai.output.messages');
      if (message) choices.push({ index, message, finish_reason: isObject(m) ? finishReason(m.finish_reason) : null });
    });
  } else {
    for (const i of indices(attrs, 'gen_ai.completion.')) {
      const { finish, ...message } = flatMessage(attrs, `gen_ai.completion.${i}`);
      choices.push({ index: i, message, finish_reason: finish ?? null });
    }
  }

  const model = attrs.get('gen_ai.request.model');
  const responseModel = attrs.get('gen_ai.response.model');
  const spanId = typeof span.spanId === 'string' && span.spanId.length > 0 ? span.spanId : undefined;
  const id = spanId ?? fallbackId;
  const meta: RecordMeta = { source: 'otel' };
  if (typeof model === 'string') meta.model = model;
  if (typeof span.traceId === 'string') meta.trace_id = span.traceId;
  if (spanId !== undefined) meta.span_id = spanId;
  if (typeof span.name === 'string') meta.span_name = span.name;
  for (const [key, as] of [
    ['gen_ai.system', 'system'],
    ['gen_ai.provider.name', 'provider'],
    ['gen_ai.response.id', 'response_id'],
    ['gen_ai.usage.input_tokens', 'input_tokens'],
    ['gen_ai.usage.output_tokens', 'output_tokens'],
    ['gen_ai.usage.prompt_tokens', 'input_tokens'],
    ['gen_ai.usage.completion_tokens', 'output_tokens'],
  ] as const) {
    if (attrs.has(key)) meta[as] = attrs.get(key);
  }
  if (span.startTimeUnixNano !== undefined) meta.start_time_unix_nano = span.startTimeUnixNano;
  if (span.endTimeUnixNano !== undefined) meta.end_time_unix_nano = span.endTimeUnixNano;

  const declared = tools(attrs);
  const record: TraceRecord = { toolscope: 1, id, meta };
  if (messages.length > 0 || declared !== undefined || typeof model === 'string') {
    record.request = { ...(typeof model === 'string' ? { model } : {}), messages, ...(declared !== undefined ? { tools: declared } : {}) };
  }
  if (choices.length > 0) {
    const responseId = attrs.get('gen_ai.response.id');
    record.response = {
      id: typeof responseId === 'string' ? responseId : id,
      object: 'chat.completion',
      ...(typeof responseModel === 'string' ? { model: responseModel } : typeof model === 'string' ? { model } : {}),
      choices,
    };
  }
  const status = isObject(span.status) ? span.status : undefined;
  // STATUS_CODE_ERROR is 2 (JSON exporters write the number or the enum name).
  if (status && (status.code === 2 || status.code === 'STATUS_CODE_ERROR')) {
    record.error = typeof status.message === 'string' && status.message.length > 0 ? status.message : 'span status ERROR';
  }
  return record;
}

function openInferenceSpanRecord(span: UnknownObject, attrs: Map<string, unknown>, fallbackId: string): TraceRecord {
  const spanId = typeof span.spanId === 'string' && span.spanId.length > 0 ? span.spanId : undefined;
  const record = openInferenceRecord(attrs, {
    traceId: typeof span.traceId === 'string' ? span.traceId : undefined,
    spanId,
    name: typeof span.name === 'string' ? span.name : undefined,
    fallbackId,
  });
  const status = isObject(span.status) ? span.status : undefined;
  if (status && (status.code === 2 || status.code === 'STATUS_CODE_ERROR')) {
    record.error = typeof status.message === 'string' && status.message.length > 0 ? status.message : 'span status ERROR';
  }
  return record;
}

/** Every LLM span of one export, each a record on `line`…`lastLine`; a span that cannot be read is an error there. */
export function importOtlpExport(value: UnknownObject, line: number, lastLine: number): ReadResult {
  const out: ReadResult = { records: [], errors: [] };
  const errorAt = (message: string): LineError => ({ line, message: `line ${line}: OTLP export: ${message}` });
  let spans = 0;
  const resourceSpans = value.resourceSpans as unknown[];
  resourceSpans.forEach((rs, r) => {
    const scopeSpans = isObject(rs) && Array.isArray(rs.scopeSpans) ? rs.scopeSpans : [];
    scopeSpans.forEach((ss, s) => {
      const list = isObject(ss) && Array.isArray(ss.spans) ? ss.spans : [];
      list.forEach((span, k) => {
        spans++;
        const where = `resourceSpans[${r}].scopeSpans[${s}].spans[${k}]`;
        if (!isObject(span)) return out.errors.push(errorAt(`${where} is not an object`));
        // AnyValues are read recursively: a span nested deeper than any real one is refused before it is walked.
        if (deeperThan(span.attributes))
          return out.errors.push(errorAt(`${where}: its attributes nest deeper than ${MAX_JSON_DEPTH} levels`));
        const attrs = attributeMap(span.attributes);
        // OpenInference's conventions (Phoenix, OpenLLMetry's openinference mode) before GenAI's: a span may carry both.
        const openInference = isOpenInferenceLlm(attrs);
        if (!openInference && !isLlmSpan(attrs)) return;
        try {
          const record = openInference
            ? openInferenceSpanRecord(span, attrs, `line-${line}-span-${spans}`)
            : spanRecord(span, attrs, `line-${line}-span-${spans}`);
          const loaded: LoadedRecord = { record, line, lastLine, source: openInference ? 'openinference' : 'otel' };
          out.records.push(loaded);
        } catch (err) {
          if (!(err instanceof SpanProblem) && !(err instanceof ExportShapeProblem)) throw err;
          out.errors.push(errorAt(`${where}${typeof span.name === 'string' ? ` ("${span.name}")` : ''}: ${err.message}`));
        }
      });
    });
  });
  if (out.records.length === 0 && out.errors.length === 0) {
    out.errors.push(
      errorAt(
        `none of its ${spans} span(s) is a GenAI or OpenInference LLM span (no gen_ai.request.model, gen_ai.input/output.messages or gen_ai.prompt/completion attributes, no openinference.span.kind LLM or llm.input/output_messages)`,
      ),
    );
  }
  return out;
}
