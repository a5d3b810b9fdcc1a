/** What `report`'s main thread and its file workers (parallelReport.ts, reportWorker.ts) send each other. */
import { isMainThread, workerData } from 'node:worker_threads';
import type { AnalysisOptions } from '../core/analysis.ts';
import type { EmbeddedTrace } from '../host/view/pageHtml.ts';
import type { TraceJobMessage } from './traceJobs.ts';

export const REPORT_WORKER = 'toolscope-report-files';

export interface ReportWorkerData {
  kind: typeof REPORT_WORKER;
  options: AnalysisOptions;
}

/** One job: a whole file, or one range of a big file's records (traceJobs.ts). */
export type ReportWorkerJob = TraceJobMessage;

/** One file's or range's part of the report (everything the editor shows for it), or why it could not be read. */
export type ReportWorkerResult = { index: number; trace: EmbeddedTrace } | { index: number; error: string };

/** This thread was started as a file worker of `report`. */
export function isReportWorker(): boolean {
  return !isMainThread && (workerData as Partial<ReportWorkerData> | null)?.kind === REPORT_WORKER;
}
