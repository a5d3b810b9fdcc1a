/**
 * `eval compare BASELINE CANDIDATE`: the two runs' figures side by side with deltas, and per sample what
 * changed — the trigger (did it call a tool), K2VV's schema verdict, the request outcome, and Toolscope's
 * findings by kind. Samples are joined on data_index; for a repeated run, its first run is the one compared
 * sample by sample (the figures are the means across runs).
 */
import { Analyzer } from '../../core/analysis.ts';
import { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import type { LoadedRecord } from '../../core/trace/record.ts';
import { FIGURE_NAMES, evalReport, latestPerSample } from './evalFigures.ts';
import { toolCallsValid, type K2vvResult } from './k2vvMetrics.ts';
import { nodeServices } from '../../io/nodeServices.ts';

export interface FigureDelta {
  figure: string;
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
}

export interface SampleSide {
  status: string;
  trigger: boolean;
  /** K2VV's verdict; null when the response called no tool. */
  schemaValid: boolean | null;
  findings: Partial<Record<string, number>>;
}

export interface SampleChange {
  dataIndex: number;
  baseline: SampleSide | null;
  candidate: SampleSide | null;
  /** What differs: `status`, `trigger`, `schema`, `findings`, `missing`. */
  changed: string[];
}

/**
 * Whose answers a side holds: Toolscope's simulator (`toolscope_run.simulated` in every line of a run against the
 * embedded endpoint), a model's, or both mixed in one file (a resume against another endpoint).
 */
export type AnswerSource = 'simulated' | 'model' | 'mixed';

export interface RunSide {
  label: string;
  runs: number;
  requests: number;
  answers: AnswerSource;
}

export interface RunComparison {
  baseline: RunSide;
  candidate: RunSide;
  figures: FigureDelta[];
  /** Only the samples where something changed, by data_index. */
  samples: SampleChange[];
  /** Samples present in both. */
  joined: number;
}

export function answerSource(results: readonly K2vvResult[]): AnswerSource {
  const simulated = results.filter((r) => r.record.meta?.simulated === true).length;
  return simulated === 0 ? 'model' : simulated === results.length ? 'simulated' : 'mixed';
}

/** Why two sides cannot be compared — a simulator's figures beside a model's read as a model's change — or null. */
export function simulationMismatch(baseline: RunSide, candidate: RunSide): string | null {
  for (const [name, s] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const)
    if (s.answers === 'mixed') return `the ${name} ${s.label} mixes simulated answers with a model's`;
  if (baseline.answers !== candidate.answers) {
    const sim = baseline.answers === 'simulated' ? ['baseline', baseline.label] : ['candidate', candidate.label];
    return `the ${sim[0]} ${sim[1]} holds simulated answers (Toolscope's embedded endpoint), the other a model's`;
  }
  return null;
}

function side(r: K2vvResult, analyzer: Analyzer, schemas: ToolSchemas, line: number): SampleSide {
  const findings: SampleSide['findings'] = {};
  const loaded: LoadedRecord = { record: r.record, line, lastLine: line, source: 'k2vv-result' };
  for (const d of analyzer.analyze(loaded).diagnostics) if (d.severity !== 'info') findings[d.kind] = (findings[d.kind] ?? 0) + 1;
  const trigger = r.status === 'success' && r.finishReason === 'tool_calls';
  return { status: r.status, trigger, schemaValid: trigger ? toolCallsValid(r.record, schemas) : null, findings };
}

function sameFindings(a: SampleSide['findings'], b: SampleSide['findings']): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? 0) === (b[k] ?? 0));
}

function firstRun(results: readonly K2vvResult[]): Map<number, K2vvResult> {
  const latest = latestPerSample(results);
  const first = Math.min(...latest.map((r) => r.run));
  return new Map(latest.filter((r) => r.run === first).map((r) => [r.dataIndex, r]));
}

export function compareRuns(
  baseline: { label: string; results: readonly K2vvResult[] },
  candidate: { label: string; results: readonly K2vvResult[] },
  reference: readonly K2vvResult[] | null = null,
): RunComparison {
  const a = evalReport(baseline.results, reference);
  const b = evalReport(candidate.results, reference);
  const figures: FigureDelta[] = [];
  for (const figure of FIGURE_NAMES) {
    const x = a.stats[figure]?.mean ?? null;
    const y = b.stats[figure]?.mean ?? null;
    if (x === null && y === null) continue;
    figures.push({ figure, baseline: x, candidate: y, delta: x !== null && y !== null ? y - x : null });
  }
  const analyzer = new Analyzer({}, nodeServices());
  const schemas = new ToolSchemas();
  const left = firstRun(baseline.results);
  const right = firstRun(candidate.results);
  const indices = [...new Set([...left.keys(), ...right.keys()])].sort((p, q) => p - q);
  const samples: SampleChange[] = [];
  let joined = 0;
  for (const i of indices) {
    const l = left.get(i);
    const r = right.get(i);
    const ls = l ? side(l, analyzer, schemas, i) : null;
    const rs = r ? side(r, analyzer, schemas, i) : null;
    const changed: string[] = [];
    if (!ls || !rs) changed.push('missing');
    else {
      joined++;
      if (ls.status !== rs.status) changed.push('status');
      if (ls.trigger !== rs.trigger) changed.push('trigger');
      if (ls.schemaValid !== rs.schemaValid) changed.push('schema');
      if (!sameFindings(ls.findings, rs.findings)) changed.push('findings');
    }
    if (changed.length) samples.push({ dataIndex: i, baseline: ls, candidate: rs, changed });
  }
  const requests = (r: typeof a) => r.runs.reduce((n, x) => n + (x.figures.requests ?? 0), 0);
  return {
    baseline: { label: baseline.label, runs: a.runs.length, requests: requests(a), answers: answerSource(baseline.results) },
    candidate: { label: candidate.label, runs: b.runs.length, requests: requests(b), answers: answerSource(candidate.results) },
    figures,
    samples,
    joined,
  };
}
