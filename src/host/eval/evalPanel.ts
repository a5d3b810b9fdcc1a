/**
 * The trace editor's eval summary for a K2-Vendor-Verifier results file: K2VV's figures for it and, for a
 * `results.guided-off.jsonl` / `results.guided-on.jsonl` pair written by `toolscope eval`, for both side by side,
 * with the error kinds Toolscope finds in each run (what the bar chart shows) and the pair compared (figures with
 * deltas, the samples that changed).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Analyzer } from '../../core/analysis.ts';
import type { EvalPanelView, EvalRunView } from '../../shared/protocol.ts';
import { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import { readTraceItems } from '../../io/trace/traceIndex.ts';
import { resultFromRecord, summarize, type K2vvResult } from './k2vvMetrics.ts';
import { compareRuns } from './compareRuns.ts';
import { nodeServices } from '../../io/nodeServices.ts';

const PAIR = /^results\.guided-(off|on)\.jsonl$/;

/** Bytes read to tell whether a file starts with a results line (a record's line is far shorter). */
const PROBE_BYTES = 1024 * 1024;

async function run(path: string, label: string): Promise<(EvalRunView & { results: K2vvResult[] }) | null> {
  // Its first record tells: a trace's editor opens without indexing the whole file here first (0.76 s of a 200 MB
  // trace's first paint at load 24).
  if (!(await startsWithResult(path))) return null;
  const results: K2vvResult[] = [];
  const findings: EvalRunView['findings'] = {};
  const analyzer = new Analyzer({}, nodeServices());
  let simulated = false;
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'error') continue;
    const r = resultFromRecord(item.loaded.record);
    // Not a results file (its first record is something else): stop before reading a big trace through.
    if (!r && results.length === 0) return null;
    if (!r) continue;
    results.push(r);
    if (item.loaded.record.meta?.simulated === true) simulated = true;
    for (const d of analyzer.analyze(item.loaded).diagnostics) {
      if (d.severity !== 'info') findings[d.kind] = (findings[d.kind] ?? 0) + 1;
    }
  }
  if (results.length === 0) return null;
  return { label, fileName: basename(path), simulated, summary: summarize(results, new ToolSchemas()), findings, results };
}

/** Whether the file's first record is a K2VV result line, read from its first MB only. */
async function startsWithResult(path: string): Promise<boolean> {
  for await (const item of readTraceItems(path, { limit: PROBE_BYTES })) {
    if (item.kind === 'error') continue;
    return resultFromRecord(item.loaded.record) !== null;
  }
  // No record in the first MB (errors only, or one huge line): the whole read decides.
  return true;
}

/** The panel for a trace file, or null when it holds no K2VV result lines. */
export async function evalPanelFor(path: string): Promise<EvalPanelView | null> {
  const name = basename(path);
  if (!PAIR.test(name)) {
    const one = await run(path, name);
    return one ? { runs: [view(one)] } : null;
  }
  const runs: Array<EvalRunView & { results: K2vvResult[] }> = [];
  for (const mode of ['off', 'on'] as const) {
    const file = join(dirname(path), `results.guided-${mode}.jsonl`);
    if (file !== path && !existsSync(file)) continue;
    const r = await run(file, `guided ${mode}`);
    if (r) runs.push(r);
  }
  if (!runs.length) return null;
  const [off, on] = runs;
  const compare = off && on ? compareRuns({ label: off.label, results: off.results }, { label: on.label, results: on.results }) : null;
  return { runs: runs.map(view), compare };
}

/** The run without its results (the webview gets figures, not records). */
function view({ results: _results, ...run }: EvalRunView & { results: K2vvResult[] }): EvalRunView {
  return run;
}
