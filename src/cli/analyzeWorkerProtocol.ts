/** What `analyze`'s main thread and its file workers (parallelAnalyze.ts, analyzeWorker.ts) send each other. */
import type { AnalyzeCommandOptions } from './analyzeFile.ts';
import type { HumanReportState } from '../host/report/humanReport.ts';
import type { TableChunk } from '../core/tables/findingTables.ts';
import type { TraceJobMessage } from './traceJobs.ts';

export const ANALYZE_WORKER = 'toolscope-analyze-files';

export interface AnalyzeWorkerData {
  kind: typeof ANALYZE_WORKER;
  options: AnalyzeCommandOptions;
  /** The main thread's standard output is a terminal (the readable report is coloured then). */
  isTTY: boolean;
}

/** One job: a whole file, or one range of a big file's records (traceJobs.ts). */
export type AnalyzeWorkerJob = TraceJobMessage;

/** One job's results: its output, and what the summary and the exit status need. */
export interface AnalyzeWorkerResult {
  index: number;
  /** The output lines, each ended by a newline, as UTF-8: one block, moved (not copied) between the threads. */
  output: Uint8Array<ArrayBuffer>;
  stderr: string[];
  report: HumanReportState | null;
  /** `--parquet`: the job's rows of the finding tables, in order. */
  tables: TableChunk | null;
  worst: number;
  unreadable: boolean;
  records: number;
}
