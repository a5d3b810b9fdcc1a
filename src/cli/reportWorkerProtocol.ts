/** What `report`'s main thread and its file workers (parallelReport.ts, reportWorker.ts) send each other. */
import { isMainThread, workerData } from 'node:worker_threads';
import type { AnalysisOptions } from '../core/analysis.ts';
import type { PageData } from '../host/view/pageHtml.ts';
import type { TraceJobMessage } from './traceJobs.ts';

export const REPORT_WORKER = 'toolscope-report-files';

export interface ReportWorkerData {
  kind: typeof REPORT_WORKER;
  options: AnalysisOptions;
}

/**
 * One job: a whole file, or one range of a big file's records (traceJobs.ts); `asFile`: the file is one of several
 * in the report, at this position and with this label (its keys and rows are labelled on the worker).
 */
export type ReportWorkerJob = TraceJobMessage & { asFile: { index: number; label: string } | null };

/**
 * One file's or range's part of the report (everything the editor shows for it), its record views already the page's
 * JSON (serializing them is most of a report's work after the analysis), or why it could not be read.
 */
export type ReportWorkerResult = { index: number; trace: PageData } | { index: number; error: string };

/** This thread was started as a file worker of `report`. */
export function isReportWorker(): boolean {
  return !isMainThread && (workerData as Partial<ReportWorkerData> | null)?.kind === REPORT_WORKER;
}
