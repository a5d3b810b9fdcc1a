/**
 * `toolscope report`: the command declares itself here, its flags beside its action. The action loads the command's work
 * (src/cli/*Command.ts) when it runs, so that the CLI starts without every command's modules.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SEVERITY_RANK, type Severity } from '../../core/diagnostics/diagnostic.ts';
import type { RecordSummary } from '../../shared/protocol.ts';
import { analysisOptionsFrom, parseJobs, withAnalysisOptions, type AnalysisFlags } from '../analysisFlags.ts';

/** What a report holds, in a line: findings by severity (info only with -v), and with -v each record that has any. */
function reportFindings(summaries: readonly RecordSummary[], verbose: boolean): string {
  const shown: Severity[] = verbose ? ['error', 'warning', 'info'] : ['error', 'warning'];
  const total = (s: Severity) => summaries.reduce((n, r) => n + r.counts[s], 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  let out = `Findings: ${shown.map((s) => plural(total(s), s === 'info' ? 'info finding' : s)).join(', ')}\n`;
  if (!verbose) return out;
  for (const r of summaries) {
    const counts = shown.filter((s) => r.counts[s] > 0).map((s) => plural(r.counts[s], s === 'info' ? 'info finding' : s));
    if (!counts.length) continue;
    const kinds = Object.keys(r.kinds).join(', ');
    out += `  ${r.file ? `${r.file}:` : 'line '}${r.line} ${r.id}: ${counts.join(', ')} (${kinds})\n`;
  }
  return out;
}

/** `toolscope report`: its flags (the analysis group, analysisFlags.ts, and its own) and its action. */
export function registerReport(program: Command): void {
  const report = program
    .command('report')
    .description('write the trace editor for traces (files or directories) as one self-contained HTML file')
    .argument('<paths...>', 'trace files, directories of trace files (.jsonl .json .ndjson .sse .log .txt), or - for standard input')
    .requiredOption('-o, --out <file>', 'where to write the HTML report')
    .option('--open', 'open the report in the desktop browser when there is one')
    .option('--jobs <n>', 'worker threads for many files (default: one per core for 8 MB or more; 1: one thread)', parseJobs);
  withAnalysisOptions(report).action(async (paths: string[], opts: AnalysisFlags & { out: string; open?: boolean; jobs?: number }) => {
    const { openInBrowser, writeReport } = await import('../reportCommand.ts');
    const { records, bytes, summaries } = await writeReport(paths, opts.out, { ...(await analysisOptionsFrom(opts)), jobs: opts.jobs });
    const where = resolve(opts.out);
    process.stdout.write(`Report: ${where} (${records} records, ${(bytes / 1024).toFixed(0)} KB)\n`);
    process.stdout.write(reportFindings(summaries, opts.verbose ?? false));
    if (opts.open && openInBrowser(where)) process.stdout.write('Opened in your browser.\n');
    if (opts.failOn && summaries.some((r) => r.worst !== null && SEVERITY_RANK[r.worst] >= SEVERITY_RANK[opts.failOn as Severity]))
      process.exitCode = 1;
  });
}
