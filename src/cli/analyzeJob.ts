/**
 * One job of a file worker of `analyze` (analyzeWorker.ts): a whole file (analyzeFile.ts) or a range of a big file's
 * records (analyzeRange), analysed exactly as the main thread would, with its output lines gathered into one block
 * of UTF-8. One block instead of a list of lines: the main thread then writes it with one call, and the block's
 * memory moves between the threads instead of every line being copied.
 */
import type { Analyzer } from '../core/analysis.ts';
import { analyzeFile, analyzeRange, type AnalyzeCommandOptions, type FileSinks } from './analyzeFile.ts';
import { HumanReport } from '../host/report/humanReport.ts';
import type { Style } from '../host/report/terminalStyle.ts';
import { TableBuilder } from '../core/tables/findingTables.ts';
import type { AnalyzeWorkerJob, AnalyzeWorkerResult } from './analyzeWorkerProtocol.ts';

const utf8 = new TextEncoder();

export async function runAnalyzeJob(
  job: AnalyzeWorkerJob,
  analyzer: Analyzer,
  options: AnalyzeCommandOptions,
  style: Style,
): Promise<AnalyzeWorkerResult> {
  const lines: string[] = [];
  const stderr: string[] = [];
  const write = (line: string) => lines.push(line);
  const report = options.json ? null : new HumanReport(write, style, Boolean(options.verbose));
  const tables = options.parquet ? new TableBuilder() : null;
  const sinks: FileSinks = { write, report, ci: null, tables, errors: { write: (text: string) => stderr.push(text) } };
  const r =
    'range' in job
      ? await analyzeRange(job.range, job.first, analyzer, options, sinks)
      : await analyzeFile(job.file, analyzer, options, sinks, process.stdin, job.window);
  lines.push('');
  return {
    index: job.index,
    // TextEncoder gives a buffer of its own (never a slice of a shared pool), so it can be transferred.
    output: lines.length > 1 ? utf8.encode(lines.join('\n')) : new Uint8Array(0),
    stderr,
    report: report?.state() ?? null,
    tables: tables?.take() ?? null,
    worst: r.worst,
    unreadable: r.unreadable,
    records: r.records,
  };
}
