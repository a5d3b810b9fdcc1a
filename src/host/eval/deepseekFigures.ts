/**
 * The DeepSeek provider verifier's HTTP and tool figures, recomputed from its attempts.jsonl as Toolscope imports
 * it, by the definitions of its docs/metrics.md (github.com/smg-project/deepseek-provider-verifier at
 * 1233f85c8cf980e66f3cec128d138464037e3adb):
 * - a logical HTTP request is (endpoint, trial, step); its initial attempt the lowest retained attempt number;
 * - `first_http_2xx_rate`: logical requests whose initial attempt got a 2xx, over logical requests;
 * - `eventual_http_2xx_rate`: logical requests any of whose attempts got a 2xx, over the same;
 * - `http_attempts`, `http_retry_attempts`: attempt records, and those that are not a request's initial attempt;
 * - `schema_accuracy`: emitted calls whose arguments are valid for their declared schema, over emitted calls with a
 *   declared schema (malformed JSON counts zero; calls to no declared tool are unscored), null when none is scored.
 * Trial verdicts (`end_to_end_success`, `task_success`) come from results.jsonl's assertions, which Toolscope does
 * not re-judge.
 */
import { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import type { LoadedRecord } from '../../core/trace/record.ts';
import { responseMessage } from '../../core/trace/responseMessage.ts';
import { classifyCall } from './errorClasses.ts';

export interface DeepseekFigures {
  logical_requests: number;
  http_attempts: number;
  http_retry_attempts: number;
  first_http_2xx_rate: number | null;
  eventual_http_2xx_rate: number | null;
  scored_calls: number;
  unscored_calls: number;
  schema_accuracy: number | null;
}

export function isDeepseekRun(records: readonly LoadedRecord[]): boolean {
  return records.length > 0 && records.every((r) => r.source === 'deepseek-verifier');
}

const ok = (status: unknown) => typeof status === 'number' && status >= 200 && status < 300;

export function deepseekFigures(records: readonly LoadedRecord[], schemas = new ToolSchemas()): DeepseekFigures {
  const requests = new Map<string, Array<{ n: number; status: unknown }>>();
  let scored = 0;
  let valid = 0;
  let unscored = 0;
  for (const { record } of records) {
    const m = record.meta ?? {};
    const key = `${String(m.endpoint_name)}\u0000${String(m.case_id)}\u0000${String(m.step ?? 0)}`;
    const list = requests.get(key) ?? [];
    list.push({ n: Number(m.attempt_number ?? 0), status: m.status_code });
    requests.set(key, list);
    if (!record.response) continue;
    for (const c of responseMessage(record.response).calls) {
      const cls = classifyCall({ name: c.name ?? '', arguments: c.arguments }, record.request?.tools, schemas);
      if (cls === 'unknown_name' || cls === 'no_schema') unscored++;
      else {
        scored++;
        if (cls === 'valid') valid++;
      }
    }
  }
  let first = 0;
  let eventual = 0;
  for (const list of requests.values()) {
    const initial = list.reduce((a, b) => (b.n < a.n ? b : a));
    if (ok(initial.status)) first++;
    if (list.some((a) => ok(a.status))) eventual++;
  }
  const n = requests.size;
  return {
    logical_requests: n,
    http_attempts: records.length,
    http_retry_attempts: records.length - n,
    first_http_2xx_rate: n ? first / n : null,
    eventual_http_2xx_rate: n ? eventual / n : null,
    scored_calls: scored,
    unscored_calls: unscored,
    schema_accuracy: scored ? valid / scored : null,
  };
}
