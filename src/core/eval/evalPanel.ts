/**
 * The trace editor's eval summary for a K2-Vendor-Verifier results file: K2VV's figures for it and, for a
 * `results.guided-off.jsonl` / `results.guided-on.jsonl` pair written by `toolscope eval`, for both side by side,
 * with the error kinds Toolscope finds in each run (what the bar chart shows).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Analyzer } from '../analysis.ts';
import type { EvalPanelView, EvalRunView } from '../../shared/protocol.ts';
import { ToolSchemas } from '../schema/toolSchemas.ts';
import { readTraceItems } from '../trace/jsonlIndex.ts';
import { resultFromRecord, summarize, type K2vvResult } from './k2vvMetrics.ts';


const PAIR = /^results\.guided-(off|on)\.jsonl$/;

async function run(path: string, label: string): Promise<EvalRunView | null> {
  const results: K2vvResult[] = [];
  const findings: EvalRunView['findings'] = {};
  const analyzer = new Analyzer();
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'error') continue;
    const r = resultFromRecord(item.loaded.record);
    // Not a results file (its first record is something else): stop before reading a big trace through.
    if (!r && results.length === 0) return null;
    if (!r) continue;
    results.push(r);
    for (const d of analyzer.analyze(item.loaded).diagnostics) {
      if (d.severity !== 'info') findings[d.kind] = (findings[d.kind] ?? 0) + 1;
    }
  }
  if (results.length === 0) return null;
  return { label, fileName: basename(path), summary: summarize(results, new ToolSchemas()), findings };
}

/** The panel for a trace file, or null when it holds no K2VV result lines. */
export async function evalPanelFor(path: string): Promise<EvalPanelView | null> {
  const name = basename(path);
  if (!PAIR.test(name)) {
    const one = await run(path, name);
    return one ? { runs: [one] } : null;
  }
  const runs: EvalRunView[] = [];
  for (const mode of ['off', 'on'] as const) {
    const file = join(dirname(path), `results.guided-${mode}.jsonl`);
    if (file !== path && !existsSync(file)) continue;
    const r = await run(file, `guided ${mode}`);
    if (r) runs.push(r);
  }
  return runs.length ? { runs } : null;
}
