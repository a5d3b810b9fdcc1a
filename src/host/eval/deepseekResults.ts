/**
 * The DeepSeek provider verifier's attempts as K2VV-style results, so that `eval compare` can put a Toolscope run
 * beside the verifier's. One result per logical request (endpoint, case, step: docs/metrics.md, as
 * deepseekFigures.ts counts them), numbered by the line of its initial attempt — the data_index `eval run` gives
 * the same request when it takes the attempts file as its samples (loadSamples.ts keeps initial attempts only). The
 * result is the eventual outcome: the first attempt that got a 2xx, else the last attempt.
 */
import type { LoadedRecord } from '../../core/trace/record.ts';
import { responseMessage } from '../../core/trace/responseMessage.ts';
import type { K2vvResult } from './k2vvMetrics.ts';

/** The verifier's logical request an attempt belongs to, or null when the record is no verifier attempt. */
export function deepseekLogicalRequest(loaded: LoadedRecord): string | null {
  const m = loaded.record.meta ?? {};
  if (loaded.source !== 'deepseek-verifier') return null;
  return JSON.stringify([m.endpoint_name ?? null, m.case_id ?? null, m.step ?? 0]);
}

const ok = (status: unknown) => typeof status === 'number' && status >= 200 && status < 300;

export function deepseekResults(records: readonly LoadedRecord[]): K2vvResult[] {
  const groups = new Map<string, LoadedRecord[]>();
  for (const r of records) {
    const key = deepseekLogicalRequest(r);
    if (key === null) continue;
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  const out: K2vvResult[] = [];
  for (const list of groups.values()) {
    const byAttempt = [...list].sort((a, b) => Number(a.record.meta?.attempt_number ?? 0) - Number(b.record.meta?.attempt_number ?? 0));
    const initial = byAttempt[0] as LoadedRecord;
    const final = byAttempt.find((a) => ok(a.record.meta?.status_code)) ?? (byAttempt[byAttempt.length - 1] as LoadedRecord);
    const success = ok(final.record.meta?.status_code) && !final.record.error && final.record.response !== undefined;
    out.push({
      dataIndex: Math.min(...list.map((a) => a.line), initial.line),
      status: success ? 'success' : 'failed',
      finishReason: success && final.record.response ? responseMessage(final.record.response).finishReason : null,
      run: 1,
      record: final.record,
    });
  }
  return out.sort((a, b) => a.dataIndex - b.dataIndex);
}
