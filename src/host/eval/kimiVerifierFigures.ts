/**
 * Kimi Vendor Verifier's figures (github.com/MoonshotAI/Kimi-Vendor-Verifier at
 * 3dad65a760a8867cda72f6dd8848d876a4e851b4), from the two files its pre-flight checks leave:
 * - the tool-call schema check's JSON report (`--tool-json-report`, default tool-call-schema-report.json, written by
 *   tests/tool_call_json_schema/conftest.py): its `summary` is `_summarize` over `_dedupe_results` of the per-case
 *   `results` — the last record per (suite, line, mode) kept, as pytest-rerunfailures may append several; then
 *   `total`, `by_status` (pytest outcomes), `by_selection_reason` and `by_mode` (per mode, by status), keys sorted.
 *   Toolscope recomputes it from `results` and says whether the file's own summary is reproduced.
 * - the JUnit XML pytest writes for any of its suites (`tests/params/`, `tests/tool_call_json_schema/`,
 *   `tests/k3_features/`, `tests/prompt_tokens/`): per suite folder, the test cases by outcome; the tool-call schema
 *   cases (ids `<suite>:<line>:<mode>`, test_tool_call_json_schema.py `pytest_generate_tests`) also by mode, as the
 *   report counts them.
 * The README's gate is that every pre-flight test passes before benchmarks run ("Run formal benchmarks only after all
 * tests pass"): `all_passed` says whether they did (skips do not fail it, as pytest's exit status does not).
 */
import { isObject } from '../../core/trace/importers/jsonGuards.ts';
import type { JunitCase, JunitOutcome, JunitReport } from './junitResults.ts';

/** conftest.py's TOOL_NAME: what marks a tool-call schema report. */
export const KIMI_SCHEMA_TOOL_NAME = 'kvv_walle_case';

export interface KimiSchemaSummary {
  total: number;
  by_status: Record<string, number>;
  by_selection_reason: Record<string, number>;
  by_mode: Record<string, Record<string, number>>;
}

export interface KimiSchemaResult {
  suite: string;
  line: number;
  mode: string;
  selection_reason: string;
  status: string;
}

export function isKimiSchemaReport(value: unknown): value is Record<string, unknown> & { results: unknown[] } {
  return isObject(value) && value.tool_name === KIMI_SCHEMA_TOOL_NAME && Array.isArray(value.results);
}

/** The report's results as the summary reads them; a result without its keys is named by its index. */
export function kimiSchemaResults(results: readonly unknown[]): { results: KimiSchemaResult[]; problems: string[] } {
  const out: KimiSchemaResult[] = [];
  const problems: string[] = [];
  results.forEach((r, i) => {
    if (
      isObject(r) &&
      typeof r.suite === 'string' &&
      typeof r.line === 'number' &&
      typeof r.mode === 'string' &&
      typeof r.selection_reason === 'string' &&
      typeof r.status === 'string'
    )
      out.push({ suite: r.suite, line: r.line, mode: r.mode, selection_reason: r.selection_reason, status: r.status });
    else problems.push(`results[${i}] lacks suite, line, mode, selection_reason or status`);
  });
  return { results: out, problems };
}

const sorted = <T>(o: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** conftest.py `_dedupe_results` then `_summarize`. */
export function kimiSchemaSummary(results: readonly KimiSchemaResult[]): KimiSchemaSummary {
  const byKey = new Map<string, KimiSchemaResult>();
  for (const r of results) {
    const key = JSON.stringify([r.suite, r.line, r.mode]);
    // Python's dict keeps a key's first position when it is assigned again; the value is the last one.
    byKey.set(key, r);
  }
  const statuses: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  const modes: Record<string, Record<string, number>> = {};
  for (const r of byKey.values()) {
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    reasons[r.selection_reason] = (reasons[r.selection_reason] ?? 0) + 1;
    const m = (modes[r.mode] ??= {});
    m[r.status] = (m[r.status] ?? 0) + 1;
  }
  return {
    total: byKey.size,
    by_status: sorted(statuses),
    by_selection_reason: sorted(reasons),
    by_mode: sorted(Object.fromEntries(Object.entries(modes).map(([k, v]) => [k, sorted(v)]))),
  };
}

/** Whether two summaries are the same, compared as JSON with keys sorted (the file's may be re-indented). */
export function sameSummary(mine: KimiSchemaSummary, theirs: unknown): boolean {
  const canon = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) => (isObject(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
  return canon(mine) === canon(theirs);
}

export interface KimiSuiteFigures {
  /** The verifier's suite folder (`tests/params`), from the cases' classname. */
  suite: string;
  tests: number;
  passed: number;
  failed: number;
  error: number;
  skipped: number;
}

export interface KimiJunitFigures {
  suites: KimiSuiteFigures[];
  /** The tool-call schema cases by mode and outcome (null when the report holds none). */
  tool_call_schema_by_mode: Record<string, Record<string, number>> | null;
  /** Every case passed or was skipped: the README's condition for running the benchmarks. */
  all_passed: boolean;
  /** The cases that failed or errored, by suite and name. */
  not_passed: Array<{ suite: string; name: string; outcome: JunitOutcome; message: string | null }>;
}

/** `tests.params.test_params` → `tests/params`: the folder the README runs as one suite. */
function suiteFolder(c: JunitCase): string {
  const parts = c.classname.split('.');
  return parts.length > 1 ? parts.slice(0, -1).join('/') : c.classname || c.suite;
}

const SCHEMA_CASE = /\[([^\]:]+):(\d+):([^\]:]+)\]$/;

export function kimiJunitFigures(report: JunitReport): KimiJunitFigures {
  const suites = new Map<string, KimiSuiteFigures>();
  const byMode: Record<string, Record<string, number>> = {};
  let schemaCases = 0;
  for (const c of report.cases) {
    const folder = suiteFolder(c);
    let s = suites.get(folder);
    if (!s) suites.set(folder, (s = { suite: folder, tests: 0, passed: 0, failed: 0, error: 0, skipped: 0 }));
    s.tests++;
    s[c.outcome]++;
    const m = folder.endsWith('tool_call_json_schema') ? SCHEMA_CASE.exec(c.name) : null;
    if (m) {
      schemaCases++;
      const mode = (byMode[m[3] as string] ??= {});
      mode[c.outcome] = (mode[c.outcome] ?? 0) + 1;
    }
  }
  const notPassed = report.cases
    .filter((c) => c.outcome === 'failed' || c.outcome === 'error')
    .map((c) => ({ suite: suiteFolder(c), name: c.name, outcome: c.outcome, message: c.message }));
  return {
    suites: [...suites.values()].sort((a, b) => (a.suite < b.suite ? -1 : 1)),
    tool_call_schema_by_mode: schemaCases ? sorted(Object.fromEntries(Object.entries(byMode).map(([k, v]) => [k, sorted(v)]))) : null,
    all_passed: notPassed.length === 0,
    not_passed: notPassed,
  };
}
