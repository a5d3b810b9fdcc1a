/**
 * The figures a run is judged by, flat and named: K2VV's summary counts, schema accuracy and success rate,
 * trigger precision/recall/F1 against a reference, the OpenRouter-style error classes, and latency where the
 * stream kept timings. A repeated evaluation gets them per run and as mean ± sd, min and max across runs.
 */
import { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import { countErrorClasses, emptyErrorClasses } from './errorClasses.ts';
import { summarize, triggerScores, type K2vvResult, type K2vvSummary } from './k2vvMetrics.ts';
import { runLatency, type RunLatency } from './runLatency.ts';
import { figureStats, type FigureStats } from './runStats.ts';

/** Every figure by name; null when undefined for the run (schema accuracy without tool calls, F1 without reference). */
export type Figures = Record<string, number | null>;

/** Every figure a run can have, in display order. */
export const FIGURE_NAMES = [
  'requests',
  'success_count',
  'failure_count',
  'success_rate',
  'finish_stop',
  'finish_tool_calls',
  'finish_others',
  'successful_tool_call_count',
  'schema_validation_error_count',
  'schema_accuracy',
  'invalid_json',
  'unknown_name',
  'schema_mismatch',
  'precision',
  'recall',
  'f1',
  'ttft_p50_ms',
  'itl_p50_ms',
  'itl_p90_ms',
  'itl_p99_ms',
  'output_tokens_per_s',
] as const;

/** Figures that are shares (shown as percentages). */
export const RATE_FIGURES: ReadonlySet<string> = new Set(['success_rate', 'schema_accuracy', 'precision', 'recall', 'f1']);

/** The names `--fail-under` accepts besides the figures' own (`schema` for schema_accuracy…). */
export const FIGURE_ALIASES: Record<string, string> = {
  schema: 'schema_accuracy',
  success: 'success_rate',
  tool_calls: 'finish_tool_calls',
  stop: 'finish_stop',
};

export interface RunFigures {
  run: number;
  summary: K2vvSummary;
  figures: Figures;
  latency: RunLatency | null;
}

export interface EvalReport {
  model: string | null;
  runs: RunFigures[];
  /** Across runs (a single run: sd 0, min = max = its value). */
  stats: Record<string, FigureStats | null>;
}

/** Keeps the newest line per (run, data_index): `--rerun-failed` appends, it never rewrites. */
export function latestPerSample(results: readonly K2vvResult[]): K2vvResult[] {
  const byKey = new Map<string, K2vvResult>();
  for (const r of results) {
    const key = `${r.run}:${r.dataIndex}`;
    byKey.delete(key);
    byKey.set(key, r);
  }
  return [...byKey.values()];
}

export function figuresOf(
  results: readonly K2vvResult[],
  reference: readonly K2vvResult[] | null,
  schemas = new ToolSchemas(),
): { summary: K2vvSummary; figures: Figures } {
  const summary = summarize([...results], schemas);
  const classes = emptyErrorClasses();
  for (const r of results) if (r.status === 'success') countErrorClasses(classes, r.record, schemas);
  const requests = summary.success_count + summary.failure_count;
  const figures: Figures = {
    requests,
    success_count: summary.success_count,
    failure_count: summary.failure_count,
    success_rate: requests ? summary.success_count / requests : null,
    finish_stop: summary.finish_stop,
    finish_tool_calls: summary.finish_tool_calls,
    finish_others: summary.finish_others,
    successful_tool_call_count: summary.successful_tool_call_count,
    schema_validation_error_count: summary.schema_validation_error_count,
    schema_accuracy: summary.schema_accuracy,
    ...classes,
  };
  if (reference) {
    const t = triggerScores([...results], [...reference]);
    Object.assign(figures, { precision: t.precision, recall: t.recall, f1: t.f1 });
  }
  return { summary, figures };
}

/** Figures per run and across runs for one results file's lines. */
export function evalReport(results: readonly K2vvResult[], reference: readonly K2vvResult[] | null = null): EvalReport {
  const schemas = new ToolSchemas();
  const latest = latestPerSample(results);
  const runNumbers = [...new Set(latest.map((r) => r.run))].sort((a, b) => a - b);
  const runs = runNumbers.map((run) => {
    const mine = latest.filter((r) => r.run === run);
    const { summary, figures } = figuresOf(mine, reference, schemas);
    const latency = runLatency(mine.map((r) => r.record));
    if (latency)
      Object.assign(figures, {
        ttft_p50_ms: latency.ttftMs.p50,
        itl_p50_ms: latency.interTokenMs.p50,
        itl_p90_ms: latency.interTokenMs.p90,
        itl_p99_ms: latency.interTokenMs.p99,
        output_tokens_per_s: latency.outputTokensPerS,
      });
    return { run, summary, figures, latency };
  });
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.figures)))];
  const stats: EvalReport['stats'] = {};
  for (const name of names) stats[name] = figureStats(runs.map((r) => r.figures[name]));
  return { model: runs.find((r) => r.summary.model)?.summary.model ?? null, runs, stats };
}
