/**
 * The file names traces come in: JSON Lines, whole JSON files (pretty-printed responses, OTLP exports), NDJSON
 * streams, SSE dumps, logs or text files that bug reports and agents leave, Inspect's `.eval` logs, and the tables
 * observability tools export (Parquet, CSV). A directory given to the CLI is
 * searched for these; the trace editor is offered for them.
 */

export const TRACE_EXTENSIONS = ['.jsonl', '.json', '.ndjson', '.sse', '.log', '.txt', '.eval', '.parquet', '.csv'] as const;

export function isTraceFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
