/** What `analyze`'s main thread and its file workers (parallelAnalyze.ts, analyzeWorker.ts) send each other. */
import type { AnalyzeCommandOptions } from './analyzeFile.ts';
import type { HumanReportState } from '../host/report/humanReport.ts';

export const ANALYZE_WORKER = 'toolscope-analyze-files';

export interface AnalyzeWorkerData {
  kind: typeof ANALYZE_WORKER;
  options: AnalyzeCommandOptions;
  /** The main thread's standard output is a terminal (the readable report is coloured then). */
  isTTY: boolean;
}

/** One file's results: the lines to write, in order, and what the summary and the exit status need. */
export interface AnalyzeWorkerResult {
  index: number;
  lines: string[];
  stderr: string[];
  report: HumanReportState | null;
  worst: number;
  unreadable: boolean;
  records: number;
}
