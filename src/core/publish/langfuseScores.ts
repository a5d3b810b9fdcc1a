/**
 * Langfuse scores: one categorical score per finding kind, on the observation the record came from (`traceId` +
 * `observationId`, which the Langfuse importer keeps as `meta.trace_id` / `meta.observation_id`). The body is
 * Langfuse's `CreateScoreRequest` (`POST /api/public/scores`, one score a request), as its OpenAPI document describes
 * it (test/fixtures/publish/langfuse-create-score.json names the commit). The score's id is derived from the ids and
 * the kind, so publishing the same trace again updates its scores instead of adding copies.
 */
import { NAME_PREFIX, type PublishTarget } from './publishTarget.ts';
import type { PublishRecord } from './verdicts.ts';

/** The fields of Langfuse's CreateScoreRequest this command writes. */
export interface LangfuseScore {
  id: string;
  traceId: string;
  observationId: string;
  name: string;
  value: string;
  dataType: 'CATEGORICAL';
  comment: string;
  metadata: Record<string, unknown>;
}

export function langfuseScores(record: PublishRecord): LangfuseScore[] | null {
  const { traceId, observationId } = record;
  if (!traceId || !observationId) return null;
  return record.verdicts.map((v) => ({
    id: `toolscope-${observationId}-${v.kind}`,
    traceId,
    observationId,
    name: NAME_PREFIX + v.kind,
    // The category is the severity: error, warning or info.
    value: v.severity,
    dataType: 'CATEGORICAL',
    comment: v.explanation,
    metadata: { code: v.code, count: v.count, file: record.file, line: record.line, record_id: record.recordId },
  }));
}

export const LANGFUSE_TARGET: PublishTarget<LangfuseScore> = {
  name: 'langfuse',
  needs: 'a Langfuse trace id and observation id (meta.trace_id, meta.observation_id)',
  items: langfuseScores,
  batchSize: 1,
  body: (items) => items[0],
  partialRefusal: () => null,
};
