/**
 * What `toolscope publish` says about one analysed record: one verdict per finding kind (its highest severity, how many
 * findings, their messages), and the ids that tie the record back to where a fleet keeps its traces (the record's own
 * `meta.trace_id` / `meta.span_id`, the Langfuse importer's `meta.observation_id`, the response's own id). Pure: the
 * targets (langfuseScores.ts, phoenixAnnotations.ts, otlpEvaluationEvents.ts) turn these into their payloads.
 */
import type { AnalyzedRecord } from '../analysis.ts';
import type { LoadedRecord } from '../trace/record.ts';
import type { Severity } from '../../shared/diagnostic.ts';

/** One finding kind on one record. */
export interface KindVerdict {
  kind: string;
  code: string;
  /** The highest severity among the record's findings of this kind. */
  severity: Severity;
  count: number;
  /** The findings' messages, one a line, cut at EXPLANATION_MAX characters. */
  explanation: string;
}

/** An analysed record as the targets see it: where it is, its ids (null: the trace has none) and its verdicts. */
export interface PublishRecord {
  file: string;
  line: number;
  recordId: string;
  traceId: string | null;
  spanId: string | null;
  observationId: string | null;
  responseId: string | null;
  verdicts: KindVerdict[];
}

/** Langfuse caps a text score at 500 characters; a comment or explanation this long says enough. */
export const EXPLANATION_MAX = 500;

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function cut(s: string): string {
  return s.length <= EXPLANATION_MAX ? s : `${s.slice(0, EXPLANATION_MAX - 1)}…`;
}

/** The response's own id: a whole completion's, or the first stream chunk's that has one. */
function responseId(loaded: LoadedRecord): string | null {
  const response = loaded.record.response;
  if (!response) return null;
  const parts = Array.isArray(response) ? response : [response];
  return text(parts.find((p) => text(p?.id))?.id);
}

/** The record's verdicts, in the order the kinds were first found, and its ids as the trace recorded them. */
export function publishRecord(file: string, loaded: LoadedRecord, analysed: AnalyzedRecord): PublishRecord {
  const meta = loaded.record.meta ?? {};
  const byKind = new Map<string, KindVerdict & { messages: string[] }>();
  for (const d of analysed.diagnostics) {
    const v = byKind.get(d.kind);
    if (!v) {
      byKind.set(d.kind, { kind: d.kind, code: d.code, severity: d.severity, count: 1, explanation: '', messages: [d.message] });
      continue;
    }
    v.count++;
    v.messages.push(d.message);
    if (RANK[d.severity] > RANK[v.severity]) v.severity = d.severity;
  }
  return {
    file,
    line: analysed.line,
    recordId: analysed.id,
    traceId: text(meta.trace_id),
    spanId: text(meta.span_id),
    observationId: text(meta.observation_id),
    responseId: responseId(loaded),
    verdicts: [...byKind.values()].map(({ messages, ...v }) => ({ ...v, explanation: cut(messages.join('\n')) })),
  };
}
