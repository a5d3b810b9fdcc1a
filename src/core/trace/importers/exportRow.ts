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
import {
  importLangfuseObservation,
  isLangfuseObservationShape,
  isLangfuseObservationTable,
  LANGFUSE_OBSERVATION_COLUMNS,
} from './langfuseObservation.ts';
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

/** The keys the shapes tested before Langfuse's are told by (the tests in importExportRow, in its order). */
const EARLIER_SHAPE_KEYS = ['toolscope', 'record', 'previous_hash', 'record_hash', 'context.span_id', 'context', 'run_type'];

/**
 * The columns a table's rows need read, from its column names, or undefined for all of them. A table of Langfuse
 * observations in which no earlier shape's key is a column reaches importLangfuseObservation with every row, and
 * that importer reads only LANGFUSE_OBSERVATION_COLUMNS: the others need not be decoded (a full observations_v2
 * export has 33 columns; the importer reads 12 of them).
 */
export function exportRowColumns(columns: readonly string[]): string[] | undefined {
  const names = new Set(columns);
  if (EARLIER_SHAPE_KEYS.some((k) => names.has(k)) || !isLangfuseObservationTable(names)) return undefined;
  return columns.filter((c) => LANGFUSE_OBSERVATION_COLUMNS.has(c));
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
