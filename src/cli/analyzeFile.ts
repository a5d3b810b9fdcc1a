/**
 * One trace file (or standard input) through the analysis, record by record as it is read, into sinks: the output
 * lines (JSON Lines or the readable report), the CI outputs and the error stream. `analyze` calls it for each file on
 * its own thread, or in worker threads for many files (parallelAnalyze.ts); both write the same bytes.
 */
import type { Analyzer } from '../core/analysis.ts';
import { SEVERITY_RANK } from '../core/diagnostics/diagnostic.ts';
import { readTraceItems } from '../io/trace/traceIndex.ts';
import { readTraceRange, windowRanges, type ByteWindow, type TraceRange } from '../io/trace/traceRanges.ts';
import { MAX_RANGE_BYTES } from './traceJobs.ts';
import { fileSize } from './fileSize.ts';
import type { Shard } from './shard.ts';
import type { TraceItem } from '../core/trace/importers/importResult.ts';
import { startupMark } from '../core/util/startupMarks.ts';
import { errorJson, recordJson } from './analyzeJson.ts';
import { STDIN_NAME, spoolInput } from './stdinTrace.ts';
import type { HumanReport } from '../host/report/humanReport.ts';
import type { AnalyzeCiOutputs } from './analyzeCiOutputs.ts';
import type { AnalysisOptions } from '../core/analysis.ts';
import { escapedJson, terminalText } from '../host/report/terminalText.ts';
import type { Severity } from '../core/diagnostics/diagnostic.ts';
import type { TableBuilder } from '../core/tables/findingTables.ts';

export interface AnalyzeCommandOptions extends AnalysisOptions {
  json?: boolean;
  failOn?: Severity;
  verbose?: boolean;
  /** `--junit FILE`: one test case per record. */
  junit?: string;
  /** `--sarif FILE`: SARIF 2.1.0, one result per finding. */
  sarif?: string;
  toolVersion?: string;
  /** `--jobs N`: worker threads for several files or a big one (default: one per core; 1: this thread only). */
  jobs?: number;
  /** `--parquet DIR`: also write the finding tables as DIR/records.parquet and DIR/findings.parquet. */
  parquet?: string;
  /** `--shard I/N`: only this machine's share of the input (shard.ts). */
  shard?: Shard;
  /** Files this big or bigger are shared by their bytes under `--shard` (SHARD_SPLIT_BYTES; tests set less). */
  shardSplitBytes?: number;
}

/** Where one file's results go: the output lines, the readable report, the CI outputs, the error stream. */
export interface FileSinks {
  write: (line: string) => void;
  report: HumanReport | null;
  ci: AnalyzeCiOutputs | null;
  /** `--parquet`: the rows of the finding tables. */
  tables?: TableBuilder | null;
  errors: { write(text: string): unknown };
  /** Called after each record (progress). */
  onRecord?: () => void;
}

/** What one file gave the exit status: its worst severity (SEVERITY_RANK) and whether it could be read at all. */
export interface FileResult {
  worst: number;
  unreadable: boolean;
  records: number;
}

/** Analyses one file (or standard input; or under `--shard`, the records in a window of its bytes) into `sinks`, record by record as they are read. */
export async function analyzeFile(
  file: string,
  analyzer: Analyzer,
  options: AnalyzeCommandOptions,
  sinks: FileSinks,
  input: NodeJS.ReadableStream,
  window?: ByteWindow,
): Promise<FileResult> {
  sinks.report?.file(file);
  sinks.ci?.file(file);
  return analyzeItems(file, window ? windowItems(file, window) : fileItems(file, input), analyzer, options, sinks);
}

/** The records and errors that start in `window` of the file's bytes (`--shard`), in file order. */
async function* windowItems(file: string, window: ByteWindow): AsyncGenerator<TraceItem> {
  for await (const range of windowRanges(file, await fileSize(file), MAX_RANGE_BYTES, window)) yield* readTraceRange(range);
}

/** A file's records and errors; standard input is copied to a temporary file first (and removed at the end). */
async function* fileItems(file: string, input: NodeJS.ReadableStream): AsyncGenerator<TraceItem> {
  const spooled = file === STDIN_NAME ? await spoolInput(input) : null;
  try {
    yield* readTraceItems(spooled?.path ?? file);
  } finally {
    await spooled?.dispose();
  }
}

/**
 * Analyses one range of a big file's records (traceRanges.ts) into `sinks`, as `analyzeFile` does the whole file:
 * the ranges of a file, written one after another, are what `analyzeFile` writes. Only the first names the file.
 */
export function analyzeRange(
  range: TraceRange,
  first: boolean,
  analyzer: Analyzer,
  options: AnalyzeCommandOptions,
  sinks: FileSinks,
): Promise<FileResult> {
  if (first) sinks.report?.file(range.path);
  return analyzeItems(range.path, readTraceRange(range), analyzer, options, sinks);
}

async function analyzeItems(
  file: string,
  items: AsyncIterable<TraceItem>,
  analyzer: Analyzer,
  options: AnalyzeCommandOptions,
  sinks: FileSinks,
): Promise<FileResult> {
  const { write, report, ci } = sinks;
  const result: FileResult = { worst: 0, unreadable: false, records: 0 };
  try {
    for await (const item of items) {
      if (item.kind === 'error') {
        ci?.error(item.error);
        if (report) report.error(item.error);
        else write(escapedJson(errorJson(file, item.error)));
        continue;
      }
      startupMark('first-record-read');
      const outcome = await analyzer.analyzeGuarded(item.loaded, options.guided !== false);
      result.records++;
      sinks.onRecord?.();
      if (outcome.kind === 'error') {
        if (report) report.error(outcome.error);
        else write(escapedJson(errorJson(file, outcome.error)));
        continue;
      }
      const analysed = outcome.analysed;
      ci?.record(analysed);
      sinks.tables?.add(file, item.loaded, analysed);
      for (const d of analysed.diagnostics) result.worst = Math.max(result.worst, SEVERITY_RANK[d.severity]);
      if (report) report.record(analysed);
      else write(escapedJson(recordJson(file, analysed, Boolean(options.ignore?.length))));
      startupMark('first-record-shown');
    }
  } catch (err) {
    // Only reading can fail here (each record's analysis is guarded): say so, and go on with the next file.
    result.unreadable = true;
    sinks.errors.write(cannotRead(file, (err as Error).message));
  }
  return result;
}

/** What `analyze` says of a file it cannot read (at its start or part-way), on the error stream. */
export function cannotRead(file: string, reason: string): string {
  return `toolscope: cannot read ${terminalText(file === STDIN_NAME ? 'standard input' : file)}: ${terminalText(reason)}\n`;
}
