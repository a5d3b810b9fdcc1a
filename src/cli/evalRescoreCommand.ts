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
import { applyPassBars, figuresTable, formatFigure, textTable } from './evalReportText.ts';
import { parseBars } from './evalRunCommand.ts';
import { writeOutput } from './writeOutput.ts';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  isMinimaxRun,
  minimaxFigures,
  minimaxSummary,
  summaryDifferences,
  type MinimaxFigures,
  type MinimaxSummary,
} from '../host/eval/minimaxFigures.ts';
import { isObject } from '../core/trace/importers/jsonGuards.ts';
import { deepseekFigures, isDeepseekRun } from '../host/eval/deepseekFigures.ts';
import { checkEvidenceChain } from '../io/trace/evidenceChain.ts';
import { loadAll } from '../io/trace/loadTrace.ts';

interface MinimaxRescore {
  summary: MinimaxSummary;
  figures: MinimaxFigures;
  /** The run's summary.json compared, and the keys whose values it does not reproduce. */
  summary_file: string | null;
  differs: string[] | null;
}

/** The run's own summary.json: the one named, or the one verify.py writes beside results.jsonl by default. */
async function minimaxSummaryFile(
  resultsPath: string,
  named: string | undefined,
): Promise<{ path: string; value: Record<string, unknown> } | null> {
  const path = named ?? join(dirname(resultsPath), 'summary.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (named) throw new InputError(`cannot read ${named}: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isObject(value)) throw new InputError(`${path} is not a summary object`);
  return { path, value };
}

async function minimaxRescore(path: string, results: readonly K2vvResult[], named: string | undefined): Promise<MinimaxRescore | null> {
  if (!isMinimaxRun(results)) return null;
  const file = await minimaxSummaryFile(path, named);
  const allCount = typeof file?.value.all_count === 'number' ? file.value.all_count : null;
  const summary = minimaxSummary(results, allCount);
  return {
    summary,
    figures: minimaxFigures(summary),
    summary_file: file?.path ?? null,
    differs: file ? summaryDifferences(summary, file.value) : null,
  };
}

const MINIMAX_RATES = new Set([
  'query_success_rate',
  'finish_tool_calls_rate',
  'tool_calls_accuracy',
  'response_success_rate_not_only_reasoning',
  'language_following_success_rate',
]);

function minimaxText(m: MinimaxRescore): string {
  const rows = Object.entries(m.figures).map(([k, v]) => [
    k,
    v === null ? 'n/a' : MINIMAX_RATES.has(k) ? `${(v * 100).toFixed(2)}%` : formatFigure(k, v),
  ]);
  const check =
    m.summary_file === null
      ? 'no summary.json beside the results to compare (--summary FILE names one)'
      : m.differs && m.differs.length
        ? `${m.summary_file}: not reproduced in ${m.differs.join(', ')}`
        : `${m.summary_file}: every figure reproduced by the verifier's formula`;
  return `\nMiniMax-Provider-Verifier figures (its README, Evaluation Metrics)\n${textTable(['figure', 'value'], rows)}${check}\n`;
}

export interface RescoreOptions {
  reference?: string;
  /** MiniMax-Provider-Verifier's summary.json for the results (default: summary.json beside them, when there is one). */
  summary?: string;
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

/**
 * The DeepSeek provider verifier's attempts.jsonl: its HTTP and tool figures by its own definitions, and its hash
 * chain checked line by line (exit 1 when it is broken). Null when the file holds no such attempts.
 */
async function deepseekRescore(path: string, options: RescoreOptions, out: NodeJS.WritableStream): Promise<number | null> {
  if (!path.endsWith('.jsonl')) return null;
  const loaded = await loadAll(path);
  if (!isDeepseekRun(loaded.records)) return null;
  const figures = deepseekFigures(loaded.records);
  const chain = await checkEvidenceChain(path);
  if (options.json) out.write(JSON.stringify({ file: path, deepseek: { figures, chain } }) + '\n');
  else {
    const rate = (v: number | null) => (v === null ? 'n/a' : `${(v * 100).toFixed(2)}%`);
    out.write('DeepSeek provider verifier figures (its docs/metrics.md)\n');
    out.write(
      textTable(
        ['figure', 'value'],
        Object.entries(figures).map(([k, v]) => [k, k.endsWith('_rate') || k === 'schema_accuracy' ? rate(v) : String(v)]),
      ),
    );
    out.write(
      chain.broken
        ? `hash chain broken at line ${chain.broken.line}: ${chain.broken.reason}\n`
        : `hash chain intact over ${chain.lines} lines\n`,
    );
  }
  return chain.broken ? 1 : 0;
}

export async function evalRescoreCommand(path: string, options: RescoreOptions, out: NodeJS.WritableStream): Promise<number> {
  const deepseek = await deepseekRescore(path, options, out);
  if (deepseek !== null) return deepseek;
  const bars = parseBars(options.failUnder);
  const results = await loadResultsOrFail(path);
  const reference = options.reference ? await loadResultsOrFail(options.reference) : null;
  const report = evalReport(results, reference);
  const changed = changedVerdicts(results);
  const minimax = await minimaxRescore(path, results, options.summary);
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
        ...(minimax ? { minimax } : {}),
      }) + '\n',
    );
  } else {
    out.write(figuresTable([{ label: 'rescored', report }]));
    out.write(
      changed.length
        ? `${changed.length} verdict(s) differ from the file's tool_calls_valid: ${changed.map((c) => `sample ${c.dataIndex}${c.run > 1 ? ` run ${c.run}` : ''} ${c.recorded} → ${c.today}`).join(', ')}\n`
        : "Every tool_calls_valid verdict in the file agrees with today's checks.\n",
    );
    if (minimax) out.write(minimaxText(minimax));
  }
  if (bars && applyPassBars(bars, [{ label: 'rescored', report }], process.stderr).length) return 1;
  return 0;
}
