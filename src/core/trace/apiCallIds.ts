/**
 * Records read from APIs that issue their own tool-call ids (Anthropic's `toolu_…`, OpenAI Responses' `call_…`):
 * the ids there are the API's, not what the model wrote, so a format's id convention (Kimi's
 * `functions.name:idx`) is not held against them.
 */
import type { TraceRecord } from './record.ts';

const API_ID_SOURCES = new Set(['anthropic', 'openai-responses']);

export function apiIssuesCallIds(record: TraceRecord): boolean {
  const source = record.meta?.source;
  return typeof source === 'string' && API_ID_SOURCES.has(source);
}
