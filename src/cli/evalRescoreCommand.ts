/**
 * `toolscope eval rescore <results.jsonl>`: K2VV's figures for saved results, judged again with today's checks
 * and no request sent — K2VV's summary, the error classes, and how many of the file's own verdicts
 * (`tool_calls_valid`) today's checks see differently.
 */
import { evalReport } from '../host/eval/evalFigures.ts';
import { loadK2vvResults } from '../host/eval/loadResults.ts';
import { toolCallsValid, type K2vvResult } from '../host/eval/k2vvMetrics.ts';
import { junitXml } from '../host/ci/junitXml.ts';
import { ToolSchemas } from '../core/schema/toolSchemas.ts';
import { InputError } from './analyzeCommand.ts';
import { terminalText } from '../host/report/terminalText.ts';
import { evalJunitSuite } from './evalJunit.ts';
import { applyPassBars, figuresTable } from './evalReportText.ts';
import { parseBars } from './evalRunCommand.ts';
import { writeOutput } from './writeOutput.ts';

export interface RescoreOptions {
  reference?: string;
  json?: boolean;
  failUnder?: string;
  junit?: string;
}

export async function loadResultsOrFail(path: string): Promise<K2vvResult[]> {
  let loaded;
  try {
    loaded = await loadK2vvResults(path);
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Messages name their line already ("line 7: invalid JSON …"), most of them.
  for (const e of loaded.errors)
    process.stderr.write(
      `toolscope: ${terminalText(path)}: ${e.message.startsWith(`line ${e.line}`) ? '' : `line ${e.line}: `}${terminalText(e.message)}\n`,
    );
  if (loaded.results.length === 0) throw new InputError(`${path} holds no K2-Vendor-Verifier result lines`);
  return loaded.results;
}

/** Lines whose recorded verdict differs from today's (K2VV's `tool_calls_valid`, for finish `tool_calls`). */
export function changedVerdicts(
  results: readonly K2vvResult[],
): Array<{ dataIndex: number; run: number; recorded: boolean; today: boolean }> {
  const schemas = new ToolSchemas();
  const changed = [];
  for (const r of results) {
    const recorded = r.record.meta?.tool_calls_valid;
    if (r.status !== 'success' || r.finishReason !== 'tool_calls' || typeof recorded !== 'boolean') continue;
    const today = toolCallsValid(r.record, schemas);
    if (today !== recorded) changed.push({ dataIndex: r.dataIndex, run: r.run, recorded, today });
  }
  return changed;
}

export async function evalRescoreCommand(path: string, options: RescoreOptions, out: NodeJS.WritableStream): Promise<number> {
  const bars = parseBars(options.failUnder);
  const results = await loadResultsOrFail(path);
  const reference = options.reference ? await loadResultsOrFail(options.reference) : null;
  const report = evalReport(results, reference);
  const changed = changedVerdicts(results);
  if (options.junit)
    await writeOutput(options.junit, junitXml([evalJunitSuite('rescore', results, { file: path })], 'toolscope eval rescore'));
  if (options.json) {
    const first = report.runs[0];
    out.write(
      JSON.stringify({
        file: path,
        summary: first?.summary ?? null,
        figures: first?.figures ?? null,
        runs: report.runs.length,
        stats: report.stats,
        changed_verdicts: changed,
      }) + '\n',
    );
  } else {
    out.write(figuresTable([{ label: 'rescored', report }]));
    out.write(
      changed.length
        ? `${changed.length} verdict(s) differ from the file's tool_calls_valid: ${changed.map((c) => `sample ${c.dataIndex}${c.run > 1 ? ` run ${c.run}` : ''} ${c.recorded} → ${c.today}`).join(', ')}\n`
        : "Every tool_calls_valid verdict in the file agrees with today's checks.\n",
    );
  }
  if (bars && applyPassBars(bars, [{ label: 'rescored', report }], process.stderr).length) return 1;
  return 0;
}
