/**
 * The `toolscope analyze --json` contract: one object per record, one per unreadable line.
 * Later features add fields; none of these is ever renamed.
 */
import type { AnalyzedRecord } from '../core/analysis.ts';
import type { Diagnostic } from '../core/diagnostics/diagnostic.ts';
import type { LineError } from '../core/trace/record.ts';
import type { VllmDeltaEntry, VllmGeneration, VllmGroupingUsed } from '../core/formats/engineRun.ts';

/**
 * `--vllm-profile`: what that vLLM generation would have streamed for the record's raw Kimi K2 completion
 * (null for a record without one). `deltas` has one entry per input delta as vLLM returned it (the DeltaMessage's
 * set fields, or null); generation C adds its end-of-stream flush as a last `{"__finish__": …}` entry.
 */
export interface AnalyzeJsonVllm {
  profile: VllmGeneration;
  /** How the completion's tokens were grouped into deltas. */
  grouping: VllmGroupingUsed;
  content: string | null;
  calls: Array<{ id: string; name: string; arguments: string }>;
  deltas: VllmDeltaEntry[];
}

export interface AnalyzeJsonRecord {
  file: string;
  id: string;
  /** The record's first line in the file. */
  line: number;
  /** Its last line (a stream, a pretty-printed object, a printout span several). */
  lastLine: number;
  format: string;
  content: string | null;
  reasoning: string | null;
  calls: Array<{ id: string; name: string; arguments: string }>;
  diagnostics: Array<
    Pick<Diagnostic, 'code' | 'kind' | 'severity' | 'message' | 'hint' | 'where' | 'tokenStart' | 'tokenEnd' | 'charStart' | 'charEnd'> &
      Partial<Pick<Diagnostic, 'callIndex' | 'path' | 'detail' | 'call'>>
  >;
  /** Only with `--vllm-profile`. */
  vllm?: AnalyzeJsonVllm | null;
  /** Only with `--ignore`: the silenced findings, counted per kind. */
  ignored?: Record<string, number>;
}

export interface AnalyzeJsonError {
  file: string;
  line: number;
  error: string;
}

export function recordJson(file: string, r: AnalyzedRecord, ignoring = false): AnalyzeJsonRecord {
  const out: AnalyzeJsonRecord = {
    file,
    id: r.id,
    line: r.line,
    lastLine: r.lastLine,
    format: r.format,
    content: r.content,
    reasoning: r.reasoning,
    calls: r.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    diagnostics: r.diagnostics.map((d) => {
      const out: AnalyzeJsonRecord['diagnostics'][number] = {
        code: d.code,
        kind: d.kind,
        severity: d.severity,
        message: d.message,
        hint: d.hint,
        where: d.where,
        tokenStart: d.tokenStart,
        tokenEnd: d.tokenEnd,
        charStart: d.charStart,
        charEnd: d.charEnd,
      };
      if (d.callIndex !== undefined) out.callIndex = d.callIndex;
      if (d.path !== undefined) out.path = d.path;
      if (d.detail !== undefined) out.detail = d.detail;
      if (d.call !== undefined) out.call = d.call;
      return out;
    }),
  };
  if (ignoring) out.ignored = { ...r.ignored };
  if (r.vllm !== undefined) {
    out.vllm = r.vllm && {
      profile: r.vllm.profile,
      grouping: r.vllm.grouping,
      content: r.vllm.content,
      calls: r.vllm.calls,
      deltas: r.vllm.deltas,
    };
  }
  return out;
}

export function errorJson(file: string, e: LineError): AnalyzeJsonError {
  return { file, line: e.line, error: e.message };
}
