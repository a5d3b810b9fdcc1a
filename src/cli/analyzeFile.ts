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
import type { AnalysisOptions, AnalysisOutcome } from '../core/analysis.ts';
import type { LineError, LoadedRecord } from '../core/trace/record.ts';
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

/**
 * Records analysed ahead of the one written next: their what-ifs go to the grammar engine's thread together, so it
 * works while this thread parses and checks the records behind (awaited one by one, each record waited a round trip).
 * Bounded in records and in completion characters, so a trace of huge completions holds about one at a time.
 */
const AHEAD = 64;
const AHEAD_CHARS = 2_000_000;

/** A line of a file on its way out, in file order: a read error, or a record (its what-if maybe still under way). */
type Ahead =
  | { kind: 'error'; error: LineError }
  | { kind: 'record'; loaded: LoadedRecord; chars: number; outcome: Promise<AnalysisOutcome>; done: boolean };

async function analyzeItems(
  file: string,
  items: AsyncIterable<TraceItem>,
  analyzer: Analyzer,
  options: AnalyzeCommandOptions,
  sinks: FileSinks,
): Promise<FileResult> {
  const { write, report, ci } = sinks;
  const result: FileResult = { worst: 0, unreadable: false, records: 0 };
  const ahead: Ahead[] = [];
  const emit = async (next: Ahead): Promise<void> => {
    if (next.kind === 'error') {
      ci?.error(next.error);
      if (report) report.error(next.error);
      else write(escapedJson(errorJson(file, next.error)));
      return;
    }
    const outcome = await next.outcome;
    result.records++;
    sinks.onRecord?.();
    if (outcome.kind === 'error') {
      if (report) report.error(outcome.error);
      else write(escapedJson(errorJson(file, outcome.error)));
      return;
    }
    const analysed = outcome.analysed;
    ci?.record(analysed);
    sinks.tables?.add(file, next.loaded, analysed);
    for (const d of analysed.diagnostics) result.worst = Math.max(result.worst, SEVERITY_RANK[d.severity]);
    if (report) report.record(analysed);
    else write(escapedJson(recordJson(file, analysed, Boolean(options.ignore?.length))));
    startupMark('first-record-shown');
  };
  // Lines whose turn it is and that are ready go out at once; a full window waits for its first line.
  let aheadChars = 0;
  const full = (all: boolean) => all || ahead.length > AHEAD || aheadChars > AHEAD_CHARS;
  const drain = async (all: boolean): Promise<void> => {
    for (let head = ahead[0]; head && (head.kind === 'error' || head.done || full(all)); head = ahead[0]) {
      ahead.shift();
      if (head.kind === 'record') aheadChars -= head.chars;
      await emit(head);
    }
  };
  try {
    for await (const item of items) {
      if (item.kind === 'error') {
        ahead.push(item);
      } else {
        startupMark('first-record-read');
        const line = started(analyzer, item.loaded, options.guided !== false);
        aheadChars += line.chars;
        ahead.push(line);
      }
      await drain(false);
    }
    await drain(true);
  } catch (err) {
    // Only reading can fail here (each record's analysis is guarded): say so, and go on with the next file, after the
    // records read before.
    result.unreadable = true;
    await drain(true);
    sinks.errors.write(cannotRead(file, (err as Error).message));
  }
  return result;
}

/** A record's analysis started: checked now, its what-if under way on the grammar engine's thread. */
function started(analyzer: Analyzer, loaded: LoadedRecord, guided: boolean): Extract<Ahead, { kind: 'record' }> {
  const stepped = analyzer.analyzeGuardedInSteps(loaded, guided);
  const outcome: Promise<AnalysisOutcome> =
    stepped.kind === 'error'
      ? Promise.resolve(stepped)
      : (stepped.guided ?? Promise.resolve(stepped.analysed)).then((analysed) => ({ kind: 'record', analysed }));
  const text = loaded.record.completion?.text;
  const line: Extract<Ahead, { kind: 'record' }> = {
    kind: 'record',
    loaded,
    chars: typeof text === 'string' ? text.length : 0,
    outcome,
    done: false,
  };
  void outcome.then(() => (line.done = true));
  return line;
}

/** What `analyze` says of a file it cannot read (at its start or part-way), on the error stream. */
export function cannotRead(file: string, reason: string): string {
  return `toolscope: cannot read ${terminalText(file === STDIN_NAME ? 'standard input' : file)}: ${terminalText(reason)}\n`;
}
