/**
 * What the exporters of observability tools (Langfuse, LangSmith, OpenInference/Phoenix) keep of a model call, read
 * as chat shapes: a message list in OpenAI's shape, LangChain's serialised messages (`{lc: 1, type: "constructor",
 * id: [… "AIMessage"], kwargs: {…}}` or `{type: "ai", data: {…}}`), or plain text; a response that is the provider's
 * whole body (`choices`), or only the parsed assistant message. A record built from a parsed message says so in
 * `meta.unchecked`: the record's head shows which checks could not run (no raw completion was kept).
 */
import { canonicalJson } from '../../util/canonicalJson.ts';
import type { ChatCompletion, ChatMessage, ChatTool, ChatToolCall, JsonObject } from '../record.ts';
import { chatCompletionProblem, messagesProblem, toolsProblem } from './chatShapes.ts';
import { isChatCompletionShape } from './chatCompletionImporter.ts';
import { describeJson, isObject, type UnknownObject } from './jsonGuards.ts';

/** A value an export could not make chat shapes of: the row's error names it. */
export class ExportShapeProblem extends Error {}

/** What `meta.unchecked` says on a record built from parsed messages only (the record's head shows it). */
export const PARSED_ONLY_NOTE =
  'the export kept the parsed assistant message only, not the raw completion: what the model wrote around its calls ' +
  '(markup leaked into content, calls the server dropped, stray markers) could not be checked; the calls, their ids ' +
  'and their arguments against the schemas were';

/** A JSON text column (Langfuse and LangSmith write objects as text in CSV and Parquet) as a value; text that is not JSON stays text. */
export function jsonColumn(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trimStart();
  if (!(t.startsWith('{') || t.startsWith('[') || t.startsWith('"'))) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const LANGCHAIN_ROLES: Record<string, string> = {
  HumanMessage: 'user',
  human: 'user',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  ai: 'assistant',
  SystemMessage: 'system',
  system: 'system',
  ToolMessage: 'tool',
  tool: 'tool',
  FunctionMessage: 'function',
  ChatMessage: 'user',
};

function contentOf(value: unknown): ChatMessage['content'] {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || Array.isArray(value)) return value as ChatMessage['content'];
  return canonicalJson(value);
}

/** LangChain's `tool_calls` ({name, args, id}) or OpenAI's ({id, type, function: {name, arguments}}). */
function toolCalls(value: unknown, path: string): ChatToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ExportShapeProblem(`${path} must be an array, got ${describeJson(value)}`);
  return value.map((c, i) => {
    if (!isObject(c)) throw new ExportShapeProblem(`${path}[${i}] must be an object, got ${describeJson(c)}`);
    const fn = isObject(c.function) ? c.function : c;
    const name = fn.name;
    if (typeof name !== 'string') throw new ExportShapeProblem(`${path}[${i}] has no function name`);
    const args = 'arguments' in fn ? fn.arguments : fn.args;
    const call: ChatToolCall = {
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : canonicalJson(args ?? {}) },
    };
    if (typeof c.id === 'string') call.id = c.id;
    return call;
  });
}

/** One message of any of the shapes above as an OpenAI chat message. */
export function chatMessage(value: unknown, path: string): ChatMessage {
  if (typeof value === 'string') return { role: 'user', content: value };
  if (!isObject(value)) throw new ExportShapeProblem(`${path} must be a message, got ${describeJson(value)}`);
  // LangChain's serialised forms: {lc, type: "constructor", id: [..., "AIMessage"], kwargs} and {type: "ai", data}.
  let body: UnknownObject = value;
  let role: string | undefined = typeof value.role === 'string' ? value.role : undefined;
  if (value.lc !== undefined && Array.isArray(value.id) && isObject(value.kwargs)) {
    body = value.kwargs;
    role = LANGCHAIN_ROLES[String(value.id[value.id.length - 1])] ?? 'user';
  } else if (typeof value.type === 'string' && isObject(value.data) && role === undefined) {
    body = value.data;
    role = LANGCHAIN_ROLES[value.type] ?? value.type;
  } else if (role === undefined && typeof value.type === 'string' && LANGCHAIN_ROLES[value.type]) {
    role = LANGCHAIN_ROLES[value.type];
  }
  if (role === undefined) throw new ExportShapeProblem(`${path} has no role`);
  const message: ChatMessage = { role, content: contentOf(body.content) };
  const extra = isObject(body.additional_kwargs) ? body.additional_kwargs : {};
  // The provider's own calls (additional_kwargs.tool_calls: OpenAI's shape, ids and argument text as sent) over
  // LangChain's parsed ones.
  const calls = toolCalls(extra.tool_calls ?? body.tool_calls, `${path}.tool_calls`);
  if (calls !== undefined && calls.length > 0) message.tool_calls = calls;
  const reasoning = body.reasoning_content ?? extra.reasoning_content;
  if (typeof reasoning === 'string') message.reasoning_content = reasoning;
  if (typeof body.tool_call_id === 'string') message.tool_call_id = body.tool_call_id;
  if (typeof body.name === 'string') message.name = body.name;
  return message;
}

/** A message list; LangChain's batched `[[…]]` (one prompt of a batch) reads as its first prompt. */
export function chatMessages(value: unknown, path: string): ChatMessage[] {
  if (typeof value === 'string') return [{ role: 'user', content: value }];
  if (!Array.isArray(value)) throw new ExportShapeProblem(`${path} must be a message list, got ${describeJson(value)}`);
  const list = value.length > 0 && value.every((v) => Array.isArray(v)) ? (value[0] as unknown[]) : value;
  const messages = list.map((m, i) => chatMessage(m, `${path}[${i}]`));
  const problem = messagesProblem(messages, path);
  if (problem !== null) throw new ExportShapeProblem(problem);
  return messages;
}

/** Tool definitions: OpenAI's `{type, function: {…}}`, a flat `{name, parameters}`, or a map of name → definition. */
export function chatTools(value: unknown, path: string): ChatTool[] | undefined {
  const v = jsonColumn(value);
  if (v === undefined || v === null) return undefined;
  const list: unknown[] = Array.isArray(v)
    ? v
    : isObject(v)
      ? Object.entries(v).map(([name, d]) => {
          const def = jsonColumn(d);
          return isObject(def) ? (isObject(def.function) || typeof def.name === 'string' ? def : { name, parameters: def }) : { name };
        })
      : [];
  if (list.length === 0) return undefined;
  const tools = list.map((t, i): ChatTool => {
    const d = jsonColumn(t);
    if (!isObject(d)) throw new ExportShapeProblem(`${path}[${i}] must be a tool definition, got ${describeJson(d)}`);
    const fn = isObject(d.function) ? d.function : d;
    if (typeof fn.name !== 'string') throw new ExportShapeProblem(`${path}[${i}] has no name`);
    return {
      type: 'function',
      function: {
        name: fn.name,
        ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
        ...(isObject(fn.parameters) ? { parameters: fn.parameters as JsonObject } : {}),
      },
    };
  });
  const problem = toolsProblem(tools, path);
  if (problem !== null) throw new ExportShapeProblem(problem);
  return tools;
}

/** A provider's whole response body, when that is what the export kept. */
export function rawCompletion(value: unknown, path: string): ChatCompletion | undefined {
  if (!isObject(value) || !isChatCompletionShape(value)) return undefined;
  const problem = chatCompletionProblem(value, path);
  if (problem !== null) throw new ExportShapeProblem(problem);
  return value as ChatCompletion;
}

/** A chat.completion around one parsed assistant message (the record then carries PARSED_ONLY_NOTE). */
export function parsedCompletion(id: string, message: ChatMessage, finishReason: string | null, model?: string): ChatCompletion {
  const finish = finishReason ?? (message.tool_calls?.length ? 'tool_calls' : 'stop');
  return {
    id,
    object: 'chat.completion',
    ...(model ? { model } : {}),
    choices: [{ index: 0, message: { ...message, role: 'assistant' }, finish_reason: finish }],
  };
}
