/**
 * MiniMax-Provider-Verifier's figures, from its results.jsonl as Toolscope imports it (the K2VV line and the
 * validators' verdicts in `meta`), computed as the verifier computes them (github.com/MiniMax-AI/MiniMax-Provider-Verifier
 * at 2850fb25e96d249e9328db19696306e961e4a426):
 * - `summary`: `ValidatorRunner.compute_summary` (verify.py) and the validators' `compute_summary`
 *   (validator/tool_calls.py, russian_characters.py, repeat_ngram.py), key for key — from the verdicts the file
 *   holds, `error_only_reasoning` recomputed from the response as verify.py does (`message.reasoning` set, no content,
 *   no tool calls). `all_count` (every attempt, retries included) is not in the results: it comes from the run's
 *   summary.json when there is one, and `success_rate` (`round(success_count / all_count, 2)`) with it.
 * - `figures`: the README's metrics (§ Evaluation Metrics): Query-Success-Rate = successful / total queries,
 *   Finish-ToolCalls-Rate = finish tool_calls / total queries, ToolCalls-Accuracy = tool_calls_successful_count /
 *   tool_calls_finish_tool_calls, Response-Success-Rate Not Only Reasoning = (checked − only-reasoning) / checked,
 *   Language-Following-Success-Rate = valid / checked; ToolCalls-Trigger Similarity is K2VV's F1 (evalFigures.ts).
 */
import type { TraceRecord } from '../../core/trace/record.ts';
import type { K2vvResult } from './k2vvMetrics.ts';

export type MinimaxSummary = Record<string, unknown>;

export interface MinimaxFigures {
  query_success_rate: number | null;
  finish_tool_calls_rate: number | null;
  tool_calls_accuracy: number | null;
  response_success_rate_not_only_reasoning: number | null;
  language_following_success_rate: number | null;
}

export function isMinimaxRun(results: readonly K2vvResult[]): boolean {
  return results.length > 0 && results.every((r) => r.record.meta?.source === 'minimax-verifier');
}

/** verify.py `_is_error_only_reasoning_response`: reasoning, and neither content nor tool calls. */
export function onlyReasoning(record: TraceRecord): boolean {
  const r = record.response;
  if (!r || Array.isArray(r) || !Array.isArray(r.choices) || r.choices.length === 0) return false;
  const m = (r.choices[0]?.message ?? {}) as Record<string, unknown>;
  const calls = m.tool_calls;
  const hasCalls = Array.isArray(calls) ? calls.length > 0 : Boolean(calls);
  return Boolean(m.reasoning) && !m.content && !hasCalls;
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** Python's round(x, 2) for the values a rate takes (half-even on the decimal the float stands for). */
function round2(x: number): number {
  return Number(x.toFixed(2));
}

export function minimaxSummary(results: readonly K2vvResult[], allCount: number | null): MinimaxSummary {
  const meta = (r: K2vvResult) => r.record.meta ?? {};
  const first = results[0]?.record.request?.model;
  const s: MinimaxSummary = { model: typeof first === 'string' ? first : null, success_count: 0, failure_count: 0, all_count: allCount };
  let success = 0;
  for (const r of results) if (r.status === 'success') success++;
  s.success_count = success;
  s.failure_count = results.length - success;

  if (results.some((r) => 'tool_calls_finish_reason' in meta(r))) {
    const detail: Record<string, number> = {};
    const distribution: Record<string, number> = {};
    let stop = 0;
    let toolCalls = 0;
    let others = 0;
    let invalid = 0;
    let valid = 0;
    let total = 0;
    for (const r of results) {
      const m = meta(r);
      const finish = m.tool_calls_finish_reason;
      const count = typeof m.tool_calls_count === 'number' ? m.tool_calls_count : 0;
      total += count;
      if (finish === 'stop') stop++;
      else if (finish === 'tool_calls') {
        toolCalls++;
        if (m.tool_calls_valid) valid++;
        else invalid++;
        distribution[String(count)] = (distribution[String(count)] ?? 0) + 1;
      } else if (typeof finish === 'string' && finish !== '') {
        others++;
        detail[finish] = (detail[finish] ?? 0) + 1;
      }
    }
    Object.assign(s, {
      tool_calls_finish_stop: stop,
      tool_calls_finish_tool_calls: toolCalls,
      tool_calls_finish_others: others,
      tool_calls_finish_others_detail: detail,
      tool_calls_schema_validation_error_count: invalid,
      tool_calls_successful_count: valid,
      tool_calls_total_count: total,
      tool_calls_count_distribution: distribution,
    });
  }
  for (const [key, prefix] of [
    ['language_following_checked', 'language_following'],
    ['error_repeating_checked', 'error_repeating'],
  ] as const) {
    if (!results.some((r) => key in meta(r))) continue;
    let checked = 0;
    let valid = 0;
    for (const r of results) {
      const m = meta(r);
      if (!m[key]) continue;
      checked++;
      if (m[`${prefix}_valid`]) valid++;
    }
    Object.assign(s, {
      [`${prefix}_checked_count`]: checked,
      [`${prefix}_valid_count`]: valid,
      [`${prefix}_invalid_count`]: checked - valid,
    });
    // The n-gram validator's defaults (validator/repeat_ngram.py), which compute_summary writes beside its counts.
    if (prefix === 'error_repeating') s.error_repeating_config = { n: 3, repeat_count: 4 };
  }
  const reasoningOnly = results.filter((r) => onlyReasoning(r.record)).length;
  s.error_only_reasoning_checked_count = results.length;
  s.error_only_reasoning_count = reasoningOnly;
  s.error_only_reasoning_rate = results.length > 0 ? reasoningOnly / results.length : 0;
  s.success_rate = allCount !== null && allCount > 0 ? round2(success / allCount) : 0;
  return s;
}

export function minimaxFigures(summary: MinimaxSummary): MinimaxFigures {
  const n = (k: string) => (typeof summary[k] === 'number' ? (summary[k] as number) : 0);
  const queries = n('success_count') + n('failure_count');
  return {
    query_success_rate: ratio(n('success_count'), queries),
    finish_tool_calls_rate: ratio(n('tool_calls_finish_tool_calls'), queries),
    tool_calls_accuracy: ratio(n('tool_calls_successful_count'), n('tool_calls_finish_tool_calls')),
    response_success_rate_not_only_reasoning: ratio(
      n('error_only_reasoning_checked_count') - n('error_only_reasoning_count'),
      n('error_only_reasoning_checked_count'),
    ),
    language_following_success_rate: ratio(n('language_following_valid_count'), n('language_following_checked_count')),
  };
}

/** The keys whose values differ between two summaries (a summary.json and ours), compared as JSON. */
export function summaryDifferences(mine: MinimaxSummary, theirs: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(mine), ...Object.keys(theirs)]);
  const canon = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) =>
      x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
    );
  return [...keys].filter((k) => canon(mine[k]) !== canon(theirs[k])).sort();
}
