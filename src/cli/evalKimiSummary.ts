/**
 * `toolscope eval summarize` over Kimi Vendor Verifier's files (kimiVerifierFigures.ts): its tool-call schema JSON
 * report (the summary recomputed by the verifier's formula, and whether the file's own is reproduced), or the JUnit
 * XML of its pytest suites (cases by suite and outcome, the schema cases by mode, whether all passed). Null when the
 * file is neither, so that the K2VV reading goes on.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from './inputError.ts';
import { textTable } from './evalReportText.ts';
import { escapedJson, terminalText } from '../host/report/terminalText.ts';
import { JunitReadError, junitCountMismatches, parseJunit } from '../host/eval/junitResults.ts';
import {
  isKimiSchemaReport,
  kimiJunitFigures,
  kimiSchemaResults,
  kimiSchemaSummary,
  sameSummary,
  type KimiSchemaSummary,
} from '../host/eval/kimiVerifierFigures.ts';

const counts = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${terminalText(k)} ${v}`)
    .join(', ') || '—';

function modeRows(byMode: Record<string, Record<string, number>>): string[][] {
  return Object.entries(byMode).map(([mode, s]) => {
    const total = Object.values(s).reduce((a, b) => a + b, 0);
    return [terminalText(mode), counts(s), total ? `${(((s.passed ?? 0) / total) * 100).toFixed(2)}%` : 'n/a'];
  });
}

function reportText(path: string, summary: KimiSchemaSummary, reproduced: boolean | null, problems: string[]): string {
  let text = `Kimi Vendor Verifier tool-call schema report (tests/tool_call_json_schema/conftest.py _summarize)\n`;
  text += `total ${summary.total}: ${counts(summary.by_status)}\nby selection reason: ${counts(summary.by_selection_reason)}\n`;
  text += textTable(['mode', 'by status', 'passed'], modeRows(summary.by_mode));
  for (const p of problems) text += `skipped: ${p}\n`;
  const file = terminalText(path);
  text +=
    reproduced === null
      ? 'the report holds no summary to compare\n'
      : reproduced
        ? `${file}: its summary is reproduced by the verifier's formula\n`
        : `${file}: its summary is NOT reproduced by the verifier's formula over its results\n`;
  return text;
}

export async function kimiSummarize(path: string, options: { json?: boolean }, out: NodeJS.WritableStream): Promise<number | null> {
  const isXml = /\.xml$/i.test(path);
  if (!isXml && !/\.json$/i.test(path)) return null;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (isXml) {
    let report;
    try {
      report = parseJunit(text);
    } catch (err) {
      if (err instanceof JunitReadError) throw new InputError(`${path}: not a JUnit report: ${err.message}`);
      throw err;
    }
    const figures = kimiJunitFigures(report);
    const mismatches = junitCountMismatches(report);
    if (options.json) out.write(escapedJson({ file: path, kimi_verifier_junit: { ...figures, count_mismatches: mismatches } }) + '\n');
    else {
      let t = `Kimi Vendor Verifier pre-flight (JUnit): ${report.cases.length} test cases\n`;
      t += textTable(
        ['suite', 'tests', 'passed', 'failed', 'error', 'skipped'],
        figures.suites.map((s) => [terminalText(s.suite), ...[s.tests, s.passed, s.failed, s.error, s.skipped].map(String)]),
      );
      if (figures.tool_call_schema_by_mode)
        t += `tool-call schema cases by mode\n${textTable(['mode', 'by outcome', 'passed'], modeRows(figures.tool_call_schema_by_mode))}`;
      for (const c of figures.not_passed)
        t += `${c.outcome}: ${terminalText(`${c.suite} ${c.name}${c.message ? ` — ${c.message}` : ''}`)}\n`;
      for (const m of mismatches) t += `warning: ${terminalText(m)}\n`;
      t += figures.all_passed
        ? 'every pre-flight test passed: the README lets the benchmarks run\n'
        : `${figures.not_passed.length} pre-flight test(s) did not pass: the README asks for all to pass before the benchmarks\n`;
      out.write(t);
    }
    return 0;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isKimiSchemaReport(value)) return null;
  const { results, problems } = kimiSchemaResults(value.results);
  const summary = kimiSchemaSummary(results);
  const reproduced = value.summary === undefined ? null : sameSummary(summary, value.summary);
  if (options.json)
    out.write(
      escapedJson({ file: path, kimi_verifier_tool_call_schema: { summary, reproduced, problems, model: value.model ?? null } }) + '\n',
    );
  else out.write(reportText(path, summary, reproduced, problems));
  return 0;
}
