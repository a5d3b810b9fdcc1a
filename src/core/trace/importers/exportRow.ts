/**
 * The rows other tools export, one model call (or none) each: Langfuse observations, LangSmith runs, Phoenix spans
 * (the span JSON, or a spans dataframe's flat row with `context.span_id` and `attributes.…` columns), and the DeepSeek
 * provider verifier's evidence envelopes. A JSONL line, a CSV row and a Parquet row come here alike; a row of another
 * kind (a span that is no LLM call, a verdict) yields nothing, an unreadable one an error on its line. Null when the
 * value is none of these shapes (the caller's own importers then read it).
 */
import { importDeepseekEnvelope, isDeepseekEnvelopeShape } from './deepseekEvidence.ts';
import type { ReadResult } from './importResult.ts';
import type { UnknownObject } from './jsonGuards.ts';
import { importLangfuseObservation, isLangfuseObservationShape } from './langfuseObservation.ts';
import { importLangSmithRun, isLangSmithRunShape } from './langsmithRun.ts';
import { importPhoenixSpan, isPhoenixSpanShape } from './openInferenceSpan.ts';

/** A spans dataframe's row (`context.span_id`, `attributes.llm.…` as columns) as Phoenix's span JSON. */
function dataframeSpan(row: UnknownObject): UnknownObject {
  const attributes: UnknownObject = {};
  const span: UnknownObject = { attributes, context: { span_id: row['context.span_id'], trace_id: row['context.trace_id'] } };
  for (const [k, v] of Object.entries(row)) {
    if (k.startsWith('attributes.')) attributes[k.slice('attributes.'.length)] = v;
    else if (!k.startsWith('context.')) span[k] = v;
  }
  return span;
}

/** `lineText`: the line as written, when there is one (the DeepSeek envelope's hash is checked against it). */
export function importExportRow(value: UnknownObject, line: number, lineText?: string): ReadResult | null {
  if ('toolscope' in value) return null;
  if (isDeepseekEnvelopeShape(value)) return importDeepseekEnvelope(value, line, lineText);
  if ('context.span_id' in value) return importPhoenixSpan(dataframeSpan(value), line);
  if (isPhoenixSpanShape(value)) return importPhoenixSpan(value, line);
  if (isLangSmithRunShape(value)) return importLangSmithRun(value, line);
  if (isLangfuseObservationShape(value)) return importLangfuseObservation(value, line);
  return null;
}
