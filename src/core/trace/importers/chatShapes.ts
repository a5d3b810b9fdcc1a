/**
 * The element types of the OpenAI chat shapes every importer hands on: tools, messages, tool calls, a completion's
 * choices, a stream's chunks. Checked once at import so that a wrong type is an error naming its line, and the
 * analysis, the checks and the views can read the record without guarding every access.
 * Only containers are checked (an array where an array belongs, objects in it): scalars of the wrong type are
 * read as absent further on, so an odd `index` or `name` stays a finding, not a lost record.
 */
import { describeJson, isObject, objectArrayProblem, optionalObjectProblem, type UnknownObject } from './jsonGuards.ts';

// Each `…Problem` first asks its `…Ok` twin, which checks the same without writing a path: the paths of a stream's
// chunks and a request's messages, written for every one of them, were most of an import's time beside JSON.parse.

/** What toolsProblem checks, without a message. */
function toolsOk(tools: unknown): boolean {
  if (!Array.isArray(tools)) return false;
  for (const t of tools as unknown[]) {
    if (!isObject(t)) return false;
    if ('function' in t && t.function !== undefined && !isObject(t.function)) return false;
  }
  return true;
}

/** What messageProblem checks, without a message. */
function messageOk(message: unknown): boolean {
  return isObject(message) && (message.tool_calls === undefined || message.tool_calls === null || toolsOk(message.tool_calls));
}

/** What chatChunkProblem checks, without a message. */
function chunkOk(chunk: UnknownObject): boolean {
  if (!Array.isArray(chunk.choices)) return false;
  for (const choice of chunk.choices as unknown[]) if (!isObject(choice) || !messageOk(choice.delta)) return false;
  return true;
}

/** `tools`: an array of objects, each `function` (when there is one) an object. */
export function toolsProblem(tools: unknown, path: string): string | null {
  if (toolsOk(tools)) return null;
  const problem = objectArrayProblem(tools, path);
  if (problem !== null) return problem;
  const list = tools as UnknownObject[];
  for (let i = 0; i < list.length; i++) {
    const fn = optionalObjectProblem(list[i] as UnknownObject, 'function', `${path}[${i}]`);
    if (fn !== null) return fn;
  }
  return null;
}

/** `tool_calls` of a message or a delta: an array of objects, each `function` (when there is one) an object. */
export function toolCallsProblem(calls: unknown, path: string): string | null {
  return toolsProblem(calls, path);
}

/** A message (request history or a response's `message`): an object whose `tool_calls`, when present, are calls. */
export function messageProblem(message: unknown, path: string): string | null {
  if (messageOk(message)) return null;
  if (!isObject(message)) return `${path} must be an object, got ${describeJson(message)}`;
  if (message.tool_calls !== undefined && message.tool_calls !== null) return toolCallsProblem(message.tool_calls, `${path}.tool_calls`);
  return null;
}

/** A request's `messages` (each `{role: string, …}`) and `tools`. */
export function requestProblem(request: UnknownObject, path = ''): string | null {
  const at = (s: string) => (path ? `${path}.${s}` : s);
  if ('messages' in request) {
    const messages = request.messages;
    if (!Array.isArray(messages)) return `"${at('messages')}" must be an array, got ${describeJson(messages)}`;
    const problem = messagesProblem(messages, at('messages'));
    if (problem !== null) return problem;
  }
  if ('tools' in request && request.tools !== undefined && request.tools !== null) return toolsProblem(request.tools, at('tools'));
  return null;
}

/** The first message that is not `{role: string, …}` with well-typed `tool_calls`, as a message, or null. */
export function messagesProblem(messages: unknown[], path: string): string | null {
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (isObject(m) && typeof m.role === 'string' && messageOk(m)) continue;
    if (!isObject(m)) return `${path}[${i}] must be a message object, got ${describeJson(m)}`;
    if (typeof m.role !== 'string') return `${path}[${i}].role must be a string, got ${describeJson(m.role)}`;
    const problem = messageProblem(m, `${path}[${i}]`);
    if (problem !== null) return problem;
  }
  return null;
}

/** A chat.completion: `choices` an array of objects, each with a `message` object. */
export function chatCompletionProblem(value: UnknownObject, path = ''): string | null {
  const at = (s: string) => (path ? `${path}.${s}` : s);
  if (!Array.isArray(value.choices)) return `"${at('choices')}" must be an array, got ${describeJson(value.choices)}`;
  for (let i = 0; i < value.choices.length; i++) {
    const choice: unknown = value.choices[i];
    if (isObject(choice) && messageOk(choice.message)) continue;
    if (!isObject(choice)) return `${at('choices')}[${i}] must be an object, got ${describeJson(choice)}`;
    const problem = messageProblem(choice.message, `${at('choices')}[${i}].message`);
    if (problem !== null) return problem;
  }
  return null;
}

/** A chat.completion.chunk: `choices` an array of objects, each with a `delta` object. */
export function chatChunkProblem(value: UnknownObject, path = ''): string | null {
  if (chunkOk(value)) return null;
  const at = (s: string) => (path ? `${path}.${s}` : s);
  if (!Array.isArray(value.choices)) return `"${at('choices')}" must be an array, got ${describeJson(value.choices)}`;
  for (let i = 0; i < value.choices.length; i++) {
    const choice: unknown = value.choices[i];
    if (!isObject(choice)) return `${at('choices')}[${i}] must be an object, got ${describeJson(choice)}`;
    const problem = messageProblem(choice.delta, `${at('choices')}[${i}].delta`);
    if (problem !== null) return problem;
  }
  return null;
}

/** A recorded response: a chat.completion object, or a stream's chunks (an array of chunk objects). */
export function responseProblem(response: unknown, path: string): string | null {
  // An object without choices (an error body, a usage record) reads as a response without a message.
  if (isObject(response)) return 'choices' in response ? chatCompletionProblem(response, path) : null;
  if (!Array.isArray(response)) return `"${path}" must be a chat.completion object or an array of chunks, got ${describeJson(response)}`;
  for (let i = 0; i < response.length; i++) {
    const chunk: unknown = response[i];
    if (isObject(chunk) && chunkOk(chunk)) continue;
    if (!isObject(chunk)) return `${path}[${i}] must be a chunk object, got ${describeJson(chunk)}`;
    const problem = chatChunkProblem(chunk, `${path}[${i}]`);
    if (problem !== null) return problem;
  }
  return null;
}
