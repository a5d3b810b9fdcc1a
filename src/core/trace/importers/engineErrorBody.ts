/**
 * The body a serving engine answers with when the request fails — most often because its tool parser failed on what
 * the model wrote: Ollama's HTTP 500 `{"error": "error parsing tool call: raw='…', err=…"}`, llama-server's
 * `{"error": {"code": 500, "message": "Failed to parse input at pos N: <markup>", "type": "server_error"}}`, the
 * OpenAI-style `{"error": {"message", "type", "param", "code"}}` of vLLM and gateways. A line that is exactly such a
 * body (with at most the HTTP status captured beside it, `status` or `status_code`) is a failed record: its error is
 * the message, `meta.errorBody` says where it came from, and stream-error reports it (detail `error-body`). Any other
 * JSON with an `error` key is left to the importers it already matches.
 */
import type { RecordMeta } from '../record.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';
import { importedRecord, type ImportResult } from './importResult.ts';

const STATUS_KEYS = ['status', 'status_code'] as const;

function httpStatus(value: UnknownObject): number | null {
  for (const key of STATUS_KEYS) {
    const v = value[key];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 599) return v;
  }
  return null;
}

/** The line's top level is an engine error body: `error` and at most one captured HTTP status. */
export function isEngineErrorBodyShape(value: UnknownObject): boolean {
  const keys = Object.keys(value);
  const others = keys.filter((k) => k !== 'error');
  if (keys.length === others.length || others.length > 1) return false;
  if (others.length === 1 && (!(STATUS_KEYS as readonly string[]).includes(others[0]!) || httpStatus(value) === null)) return false;
  const e = value.error;
  if (typeof e === 'string') return e.trim() !== '';
  return isObject(e) && typeof e.message === 'string' && (e.code !== undefined || typeof e.type === 'string');
}

export function importEngineErrorBody(value: UnknownObject, line: number): ImportResult {
  const e = value.error;
  const message = typeof e === 'string' ? e : String((e as UnknownObject).message);
  const meta: RecordMeta = { source: 'error-body', errorBody: true };
  const status = httpStatus(value);
  if (status !== null) meta.httpStatus = status;
  if (isObject(e)) {
    if (typeof e.type === 'string') meta.error_type = e.type;
    if (typeof e.code === 'number' || typeof e.code === 'string') meta.error_code = e.code;
  }
  return importedRecord({ record: { toolscope: 1, id: `line-${line}`, error: message, meta }, line, lastLine: line, source: 'error-body' });
}
