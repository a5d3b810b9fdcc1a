/**
 * Tool-call markup quoted in an error message. When a server's tool parser fails it often answers with an error
 * that quotes what the model wrote ("Failed to parse input at pos 0: <|tool_calls_section_begin|>…", vLLM,
 * llama.cpp): those are calls the client never got. A record with such an error and no raw completion is analysed
 * as if the quoted text, from its first markup on, were the completion — so `dropped-call` names each call the
 * stream lost — and the record says so (`completionQuotedInError`).
 */
import type { Completion, TraceRecord } from '../trace/record.ts';
import { detectFormatIn } from './registry.ts';

/** The completion an error message quotes, or null (no error, a real completion, or no markup in it). */
export function completionQuotedInError(record: TraceRecord): Completion | null {
  if (record.completion !== undefined || typeof record.error !== 'string') return null;
  const format = detectFormatIn(record.error);
  if (format === null) return null;
  let start = -1;
  for (const fragment of format.leakFragments) {
    const at = record.error.indexOf(fragment);
    if (at >= 0 && (start < 0 || at < start)) start = at;
  }
  if (start < 0) return null;
  return { text: record.error.slice(start) };
}
