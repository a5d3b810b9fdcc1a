/**
 * The shape the embedded endpoint needs a request in, checked before anything reads it: a request of the wrong
 * shape (`messages: [null]`, `tools: [null]`, a string where a number goes) is the client's mistake and gets a 400
 * naming the field, the way vLLM's and OpenAI's request validation answers, never a TypeError from deep inside.
 * Only what the simulator reads is checked; unknown fields pass, as they do on real servers.
 */
import { deeperThan, MAX_JSON_DEPTH } from '../../core/util/jsonDepth.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v).slice(0, 40)}`;
}

function optional(body: Json, key: string, ok: (v: unknown) => boolean, want: string): string | null {
  const v = body[key];
  return v === undefined || v === null || ok(v) ? null : `"${key}" must be ${want}, got ${kindOf(v)}`;
}

/** Fields both routes share. */
function commonProblem(body: Json): string | null {
  if (deeperThan(body)) return `the request is nested deeper than ${MAX_JSON_DEPTH} levels`;
  const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  return (
    optional(body, 'stream', (v) => typeof v === 'boolean', 'a boolean') ??
    optional(body, 'model', (v) => typeof v === 'string', 'a string') ??
    optional(body, 'max_tokens', isCount, 'a whole number ≥ 0') ??
    optional(body, 'max_completion_tokens', isCount, 'a whole number ≥ 0') ??
    optional(body, 'stream_options', isObject, 'an object')
  );
}

function contentProblem(content: unknown, at: string): string | null {
  if (content === undefined || content === null || typeof content === 'string') return null;
  if (!Array.isArray(content)) return `"${at}" must be a string, null or a list of parts, got ${kindOf(content)}`;
  for (const [i, part] of content.entries()) {
    if (!isObject(part)) return `"${at}[${i}]" must be an object ({"type": "text", "text": …}), got ${kindOf(part)}`;
    if (typeof part.type !== 'string') return `"${at}[${i}].type" must be a string, got ${kindOf(part.type)}`;
    if (part.text !== undefined && typeof part.text !== 'string') return `"${at}[${i}].text" must be a string, got ${kindOf(part.text)}`;
  }
  return null;
}

function callProblem(call: unknown, at: string): string | null {
  if (!isObject(call)) return `"${at}" must be an object, got ${kindOf(call)}`;
  if (!isObject(call.function)) return `"${at}.function" must be an object, got ${kindOf(call.function)}`;
  if (typeof call.function.name !== 'string') return `"${at}.function.name" must be a string, got ${kindOf(call.function.name)}`;
  const args = call.function.arguments;
  if (args !== undefined && typeof args !== 'string' && !isObject(args))
    return `"${at}.function.arguments" must be a string, got ${kindOf(args)}`;
  return null;
}

function messageProblem(m: unknown, at: string): string | null {
  if (!isObject(m)) return `"${at}" must be a message object, got ${kindOf(m)}`;
  if (typeof m.role !== 'string') return `"${at}.role" must be a string, got ${kindOf(m.role)}`;
  const content = contentProblem(m.content, `${at}.content`);
  if (content) return content;
  if (m.reasoning_content !== undefined && m.reasoning_content !== null && typeof m.reasoning_content !== 'string')
    return `"${at}.reasoning_content" must be a string, got ${kindOf(m.reasoning_content)}`;
  if (m.tool_calls !== undefined && m.tool_calls !== null) {
    if (!Array.isArray(m.tool_calls)) return `"${at}.tool_calls" must be an array, got ${kindOf(m.tool_calls)}`;
    for (const [i, c] of m.tool_calls.entries()) {
      const p = callProblem(c, `${at}.tool_calls[${i}]`);
      if (p) return p;
    }
  }
  for (const key of ['name', 'tool_call_id'])
    if (m[key] !== undefined && m[key] !== null && typeof m[key] !== 'string')
      return `"${at}.${key}" must be a string, got ${kindOf(m[key])}`;
  return null;
}

function toolProblem(t: unknown, at: string): string | null {
  if (!isObject(t)) return `"${at}" must be a tool object ({"type": "function", "function": {…}}), got ${kindOf(t)}`;
  if (!isObject(t.function)) return `"${at}.function" must be an object, got ${kindOf(t.function)}`;
  if (typeof t.function.name !== 'string' || t.function.name === '')
    return `"${at}.function.name" must be a non-empty string, got ${kindOf(t.function.name)}`;
  const p = t.function.parameters;
  if (p !== undefined && p !== null && !isObject(p) && typeof p !== 'boolean')
    return `"${at}.function.parameters" must be a JSON schema object, got ${kindOf(p)}`;
  return null;
}

/** What is wrong with a `/v1/chat/completions` body, or null. */
export function chatRequestProblem(body: Json): string | null {
  const common = commonProblem(body);
  if (common) return common;
  if (!Array.isArray(body.messages)) return `"messages" must be an array, got ${kindOf(body.messages)}`;
  for (const [i, m] of body.messages.entries()) {
    const p = messageProblem(m, `messages[${i}]`);
    if (p) return p;
  }
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools)) return `"tools" must be an array, got ${kindOf(body.tools)}`;
    for (const [i, t] of body.tools.entries()) {
      const p = toolProblem(t, `tools[${i}]`);
      if (p) return p;
    }
  }
  return (
    optional(body, 'tool_choice', (v) => typeof v === 'string' || isObject(v), 'a string or an object') ??
    optional(body, 'logprobs', (v) => typeof v === 'boolean', 'a boolean') ??
    optional(body, 'structured_outputs', isObject, 'an object') ??
    optional(body, 'response_format', isObject, 'an object')
  );
}

/** What is wrong with a `/v1/completions` body, or null. */
export function completionsRequestProblem(body: Json): string | null {
  const common = commonProblem(body);
  if (common) return common;
  if (typeof body.prompt !== 'string') return `"prompt" must be a string (one prompt per request), got ${kindOf(body.prompt)}`;
  return (
    optional(body, 'logprobs', (v) => typeof v === 'boolean' || (typeof v === 'number' && v >= 0), 'a number') ??
    optional(body, 'structured_outputs', isObject, 'an object') ??
    optional(body, 'response_format', isObject, 'an object')
  );
}
