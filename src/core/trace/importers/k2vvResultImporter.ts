/**
 * K2-Vendor-Verifier result lines: `data_index`, `request`, `response`, `status`, `finish_reason`,
 * `tool_calls_valid`, `last_run_at`, `duration_ms`, `hash`. A failed request's `{error}` body becomes
 * `record.error`; K2VV's own verdicts are kept in `meta` so our figures can be compared with its.
 */
import type { ChatCompletion, ChatRequest, RecordMeta, TraceRecord } from '../record.ts';
import { chatCompletionProblem, isChatCompletionShape } from './chatCompletionImporter.ts';
import { requestProblem } from './chatShapes.ts';
import { describeJson, isObject, type UnknownObject } from './jsonGuards.ts';
import { importError, importedRecord, type ImportResult } from './importResult.ts';

export function isK2vvResultShape(value: UnknownObject): boolean {
  return 'data_index' in value && 'request' in value && ('response' in value || 'status' in value);
}

// `run` is Toolscope's own (eval run --repeat): which repetition the line belongs to.
const META_FIELDS = ['status', 'finish_reason', 'tool_calls_valid', 'duration_ms', 'hash', 'last_run_at', 'run'] as const;

/**
 * MiniMax-Provider-Verifier writes K2VV's result line (verify.py's `process_request`) plus its validators' verdicts
 * (github.com/MiniMax-AI/MiniMax-Provider-Verifier at 2850fb25e96d249e9328db19696306e961e4a426: verify.py,
 * validator/*.py); `error_only_reasoning_checked` is on every line it writes.
 */
const MINIMAX_FIELDS = [
  'provider',
  'error_only_reasoning_checked',
  'error_only_reasoning',
  'tool_calls_finish_reason',
  'tool_calls_count',
  'language_following_checked',
  'language_following_valid',
  'error_repeating_checked',
  'error_repeating_valid',
] as const;

export function isMinimaxResultShape(value: UnknownObject): boolean {
  return 'error_only_reasoning_checked' in value || 'tool_calls_finish_reason' in value;
}

function errorText(error: unknown): string {
  return typeof error === 'string' ? error : JSON.stringify(error);
}

export function importK2vvResult(value: UnknownObject, line: number): ImportResult {
  const index = value.data_index;
  if (typeof index !== 'number' || !Number.isInteger(index)) {
    return importError(line, `K2VV result: "data_index" must be an integer, got ${describeJson(index)}`);
  }
  const request = value.request;
  if (!isObject(request)) return importError(line, `K2VV result: "request" must be an object, got ${describeJson(request)}`);
  if (!Array.isArray(request.messages)) return importError(line, `K2VV result: "request.messages" must be an array`);
  const requestIssue = requestProblem(request, 'request');
  if (requestIssue !== null) return importError(line, `K2VV result: ${requestIssue}`);

  const minimax = isMinimaxResultShape(value);
  const meta: RecordMeta = { source: minimax ? 'minimax-verifier' : 'k2vv', endpoint: '/v1/chat/completions' };
  for (const field of META_FIELDS) if (field in value) meta[field] = value[field];
  if (minimax) for (const field of MINIMAX_FIELDS) if (field in value) meta[field] = value[field];
  if (typeof value.last_run_at === 'string') meta.created = value.last_run_at;
  // Toolscope's own lines keep the stream's timings in their native record: the latency figures read them.
  const own = value.toolscope_record;
  if (isObject(own) && isObject(own.meta) && isObject(own.meta.timings)) meta.timings = own.meta.timings;
  // Answers from Toolscope's simulator (eval against the embedded endpoint), not a model: kept apart wherever shown.
  const run = value.toolscope_run;
  if (isObject(run) && run.simulated === true) meta.simulated = true;

  const record: TraceRecord = { toolscope: 1, id: String(index), request: request as ChatRequest };
  const response = value.response;
  if (isObject(response) && isChatCompletionShape(response)) {
    const problem = chatCompletionProblem(response);
    if (problem !== null) return importError(line, `K2VV result: response: ${problem}`);
    record.response = response as ChatCompletion;
  } else if (isObject(response) && 'error' in response) {
    record.error = errorText(response.error);
  } else if (response !== undefined && response !== null) {
    // Neither a completion nor an error body: say so on the record rather than drop the request.
    record.error = `K2VV response is neither a chat completion nor an error: ${JSON.stringify(response).slice(0, 200)}`;
  }
  if (record.error === undefined && value.status === 'failed') record.error = 'K2VV status "failed" without an error body';
  record.meta = meta;
  return importedRecord({ record, line, lastLine: line, source: minimax ? 'minimax-result' : 'k2vv-result' });
}
