/** `toolscope eval summarize <results.jsonl>`: K2-Vendor-Verifier's summary figures, plus F1 against a reference. */
import { loadK2vvResults } from '../host/eval/loadResults.ts';
import { summarize, triggerScores } from '../host/eval/k2vvMetrics.ts';
import { figuresOf, latestPerSample } from '../host/eval/evalFigures.ts';
import { InputError } from './analyzeCommand.ts';
import { kimiSummarize } from './evalKimiSummary.ts';
import { terminalStyle } from '../host/report/terminalStyle.ts';
import { escapedJson, terminalText } from '../host/report/terminalText.ts';

async function load(path: string) {
  try {
    return await loadK2vvResults(path);
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(2)}%`);

export async function evalSummarizeCommand(
  path: string,
  options: { reference?: string; json?: boolean },
  out: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<number> {
  // Kimi Vendor Verifier's JUnit XML or tool-call schema report: its own figures.
  const kimi = await kimiSummarize(path, options, out);
  if (kimi !== null) return kimi;
  const { results, errors } = await load(path);
  for (const e of errors) process.stderr.write(`toolscope: ${terminalText(path)}: ${terminalText(e.message)}\n`);
  if (results.length === 0) throw new InputError(`${path} holds no K2-Vendor-Verifier result lines`);
  const { figures } = figuresOf(latestPerSample(results), null);
  const classes = { invalid_json: figures.invalid_json, unknown_name: figures.unknown_name, schema_mismatch: figures.schema_mismatch };
  const summary: Record<string, unknown> = { ...summarize(results), ...classes };
  if (options.reference) {
    const ref = await load(options.reference);
    const scores = triggerScores(results, ref.results);
    Object.assign(summary, {
      precision: scores.precision,
      recall: scores.recall,
      f1: scores.f1,
      tp: scores.tp,
      fp: scores.fp,
      fn: scores.fn,
      compared: scores.compared,
    });
  }
  if (options.json) {
    out.write(escapedJson(summary) + '\n');
    return 0;
  }
  const s = terminalStyle(out);
  const sum = summarize(results);
  const rows: Array<[string, string]> = [
    ['model', String(sum.model)],
    ['requests', `${results.length} (${sum.success_count} succeeded, ${sum.failure_count} failed)`],
    [
      'finish_reason',
      `stop ${sum.finish_stop}, tool_calls ${sum.finish_tool_calls}, others ${sum.finish_others}${
        sum.finish_others
          ? ` (${Object.entries(sum.finish_others_detail)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')})`
          : ''
      }`,
    ],
    ['tool calls', `${sum.successful_tool_call_count} valid, ${sum.schema_validation_error_count} schema errors`],
    ['schema accuracy', pct(sum.schema_accuracy)],
    [
      'error classes',
      `invalid_json ${classes.invalid_json}, unknown_name ${classes.unknown_name}, schema_mismatch ${classes.schema_mismatch} (OpenRouter-style)`,
    ],
  ];
  if (options.reference)
    rows.push([
      'trigger F1',
      `${pct(summary.f1 as number)} (precision ${pct(summary.precision as number)}, recall ${pct(summary.recall as number)}, ${String(summary.compared)} requests compared)`,
    ]);
  // The model's name and finish reasons come from the file: escaped (terminalText.ts).
  for (const [k, v] of rows) out.write(`${s.bold(k.padEnd(16))} ${terminalText(v)}\n`);
  return 0;
}
