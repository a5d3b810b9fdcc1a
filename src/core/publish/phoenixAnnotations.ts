/**
 * Phoenix span annotations: one per finding kind on the record's span (`meta.trace_id`'s span, `meta.span_id`, as the
 * OpenInference importer and OpenTelemetry spans keep it), `annotator_kind: "CODE"`. The body is Phoenix's
 * `AnnotateSpansRequestBody` (`POST /v1/span_annotations`) as its OpenAPI document describes it
 * (test/fixtures/publish/phoenix-annotate-spans.json names the commit). The `identifier` makes a second publish update
 * the annotation (Phoenix upserts on name, span and identifier).
 */
import { NAME_PREFIX, type PublishTarget } from './publishTarget.ts';
import type { PublishRecord } from './verdicts.ts';

export interface PhoenixSpanAnnotation {
  name: string;
  annotator_kind: 'CODE';
  span_id: string;
  identifier: string;
  result: { label: string; score: number; explanation: string };
  metadata: Record<string, unknown>;
}

export const PHOENIX_IDENTIFIER = 'toolscope';

export function phoenixAnnotations(record: PublishRecord): PhoenixSpanAnnotation[] | null {
  const spanId = record.spanId;
  if (!spanId) return null;
  return record.verdicts.map((v) => ({
    name: NAME_PREFIX + v.kind,
    annotator_kind: 'CODE',
    span_id: spanId,
    identifier: PHOENIX_IDENTIFIER,
    // The label is the severity; the score is how many findings of the kind the record has.
    result: { label: v.severity, score: v.count, explanation: v.explanation },
    metadata: { code: v.code, file: record.file, line: record.line, record_id: record.recordId },
  }));
}

export const PHOENIX_TARGET: PublishTarget<PhoenixSpanAnnotation> = {
  name: 'phoenix',
  needs: 'a span id (meta.span_id)',
  items: phoenixAnnotations,
  batchSize: 100,
  body: (items) => ({ data: items }),
  partialRefusal: () => null,
};
