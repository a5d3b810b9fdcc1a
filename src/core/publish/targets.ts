/** The publish targets by name (the CLI's `--to`). */
import { LANGFUSE_TARGET } from './langfuseScores.ts';
import { otlpTarget } from './otlpEvaluationEvents.ts';
import { PHOENIX_TARGET } from './phoenixAnnotations.ts';
import type { PublishTarget, TargetName } from './publishTarget.ts';

export const TARGET_NAMES: readonly TargetName[] = ['langfuse', 'phoenix', 'otlp'];

export function publishTarget(name: TargetName, run: { timeUnixNano: string; version: string }): PublishTarget {
  if (name === 'langfuse') return LANGFUSE_TARGET as PublishTarget;
  if (name === 'phoenix') return PHOENIX_TARGET as PublishTarget;
  return otlpTarget(run.timeUnixNano, run.version) as PublishTarget;
}
