/**
 * OpenRouter-style tool-call error classes, counted per response next to K2VV's figures: a call whose arguments
 * are not JSON, a call to a tool the request did not offer, and arguments that parse but break the schema. A
 * response counts once in each class one of its calls falls into; K2VV folds all three into one error count.
 */
import type { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import type { ChatCompletion, ChatTool, TraceRecord } from '../../core/trace/record.ts';
import { responseMessage } from '../../core/trace/responseMessage.ts';

export type CallClass = 'valid' | 'invalid_json' | 'unknown_name' | 'schema_mismatch' | 'no_schema';

export interface ErrorClassCounts {
  invalid_json: number;
  unknown_name: number;
  schema_mismatch: number;
}

/** The recorded completion's tool calls (the client's view, as K2VV judges it); a recorded stream's as its deltas join them. */
export function completionCalls(record: TraceRecord): Array<{ name: string; arguments: string }> {
  // K2VV's lines hold a chat.completion; a DeepSeek verifier's streamed attempt holds its chunks.
  if (Array.isArray(record.response))
    return responseMessage(record.response).calls.map((c) => ({ name: c.name ?? '', arguments: c.arguments }));
  const response = record.response as ChatCompletion | undefined;
  const calls = response && !Array.isArray(response) ? (response.choices?.[0]?.message?.tool_calls ?? []) : [];
  return (calls ?? []).map((c) => ({ name: c.function?.name ?? '', arguments: c.function?.arguments ?? '' }));
}

/** How one call fares under K2VV's rules: first tool of that name, JSON arguments, a schema, and passing it. */
export function classifyCall(
  call: { name: string; arguments: string },
  tools: readonly ChatTool[] | undefined,
  schemas: ToolSchemas,
): CallClass {
  const tool = (tools ?? []).find((t) => t?.function?.name === call.name);
  if (!tool) return 'unknown_name';
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return 'invalid_json';
  }
  const result = schemas.check(tool, args);
  if (result.kind === 'no-schema' || result.kind === 'bad-schema') return 'no_schema';
  if (result.kind === 'findings' && result.findings.some((f) => f.severity === 'error')) return 'schema_mismatch';
  return 'valid';
}

export function emptyErrorClasses(): ErrorClassCounts {
  return { invalid_json: 0, unknown_name: 0, schema_mismatch: 0 };
}

/** Adds one response's classes to the counts. */
export function countErrorClasses(counts: ErrorClassCounts, record: TraceRecord, schemas: ToolSchemas): void {
  const classes = new Set(completionCalls(record).map((c) => classifyCall(c, record.request?.tools, schemas)));
  for (const k of ['invalid_json', 'unknown_name', 'schema_mismatch'] as const) if (classes.has(k)) counts[k]++;
}
