/**
 * K2-Vendor-Verifier's figures, re-implemented from its metric definitions (../shared/data/k2vv/README.md):
 * request outcome counts, finish-reason buckets, schema validation of tool calls (latest JSON-schema draft,
 * `format` not asserted), schema accuracy, and tool-call trigger precision/recall/F1 against a reference run.
 */
import { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import type { TraceRecord } from '../../core/trace/record.ts';
import { classifyCall, completionCalls } from './errorClasses.ts';
import type { K2vvSummary } from '../../shared/k2vvSummary.ts';

/** One K2VV result, as Toolscope imports it (`record.id` is the data_index). */
export interface K2vvResult {
  dataIndex: number;
  status: 'success' | 'failed' | string;
  finishReason: string | null;
  /** Which run of a repeated evaluation (`eval run --repeat`); 1 when the line does not say. */
  run: number;
  record: TraceRecord;
}

export type { K2vvSummary } from '../../shared/k2vvSummary.ts';

export interface TriggerScores {
  precision: number;
  recall: number;
  f1: number;
  tp: number;
  fp: number;
  fn: number;
  compared: number;
}

export function resultFromRecord(record: TraceRecord): K2vvResult | null {
  const meta = record.meta ?? {};
  // MiniMax-Provider-Verifier writes K2VV's result line (its own verdicts beside it).
  if (meta.source !== 'k2vv' && meta.source !== 'minimax-verifier') return null;
  const dataIndex = Number(record.id);
  const finish = typeof meta.finish_reason === 'string' ? meta.finish_reason : responseFinish(record);
  const run = typeof meta.run === 'number' && Number.isInteger(meta.run) && meta.run >= 1 ? meta.run : 1;
  return {
    dataIndex,
    status: typeof meta.status === 'string' ? meta.status : record.error ? 'failed' : 'success',
    finishReason: finish,
    run,
    record,
  };
}

function responseFinish(record: TraceRecord): string | null {
  const r = record.response;
  if (!r || Array.isArray(r)) return null;
  return r.choices?.[0]?.finish_reason ?? null;
}

/** K2VV's per-response verdict: every call names an offered tool, parses, has a schema and passes it. */
export function toolCallsValid(record: TraceRecord, schemas: ToolSchemas): boolean {
  const calls = completionCalls(record);
  if (calls.length === 0) return false;
  return calls.every((c) => classifyCall(c, record.request?.tools, schemas) === 'valid');
}

export function summarize(results: K2vvResult[], schemas = new ToolSchemas()): K2vvSummary {
  const s: K2vvSummary = {
    model: null,
    success_count: 0,
    failure_count: 0,
    finish_stop: 0,
    finish_tool_calls: 0,
    finish_others: 0,
    finish_others_detail: {},
    schema_validation_error_count: 0,
    successful_tool_call_count: 0,
    schema_accuracy: null,
  };
  for (const r of results) {
    if (s.model === null && typeof r.record.request?.model === 'string') s.model = r.record.request.model;
    if (r.status !== 'success') {
      s.failure_count++;
      continue;
    }
    s.success_count++;
    const finish = r.finishReason ?? 'stop';
    if (finish === 'stop') s.finish_stop++;
    else if (finish === 'tool_calls') {
      s.finish_tool_calls++;
      if (toolCallsValid(r.record, schemas)) s.successful_tool_call_count++;
      else s.schema_validation_error_count++;
    } else {
      s.finish_others++;
      s.finish_others_detail[finish] = (s.finish_others_detail[finish] ?? 0) + 1;
    }
  }
  s.schema_accuracy = s.finish_tool_calls ? s.successful_tool_call_count / s.finish_tool_calls : null;
  return s;
}

/** Tool-call trigger agreement with a reference run, joined on data_index (indices present in both). */
export function triggerScores(vendor: K2vvResult[], reference: K2vvResult[]): TriggerScores {
  const ref = new Map(reference.map((r) => [r.dataIndex, r.finishReason === 'tool_calls']));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let compared = 0;
  for (const v of vendor) {
    if (!ref.has(v.dataIndex)) continue;
    compared++;
    const mine = v.finishReason === 'tool_calls';
    const theirs = ref.get(v.dataIndex) === true;
    if (mine && theirs) tp++;
    else if (mine) fp++;
    else if (theirs) fn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, tp, fp, fn, compared };
}
