/**
 * `report` on every core: whole files, and ranges of a big file's records, go to worker threads as `analyze` sends
 * them (traceJobs.ts, fileWorkerPool.ts; reportWorker.ts builds each one's part of the report exactly as the main
 * thread would), and the parts are gathered in order, a file's ranges joined into the file's part — so the report is
 * byte for byte the one a single thread writes. Used when `traceThreads` says so, as `analyze` is.
 */
import type { AnalysisOptions } from '../core/analysis.ts';
import { EmbeddedTraces, joinRange } from '../host/view/embeddedTrace.ts';
import type { EmbeddedTrace } from '../host/view/pageHtml.ts';
import { inJobOrder } from './fileWorkerPool.ts';
import { traceJobs, type TraceJob } from './traceJobs.ts';
import { REPORT_WORKER, type ReportWorkerData, type ReportWorkerResult } from './reportWorkerProtocol.ts';

/**
 * `embeddedTraces` of `files` (each its own label; one file: its own trace) on `threads` worker threads; fails with
 * the first unreadable file's error.
 */
export async function embeddedTracesInParallel(
  files: readonly string[],
  title: string,
  options: AnalysisOptions,
  threads: number,
): Promise<EmbeddedTrace> {
  const out = new EmbeddedTraces(title, 'report', options);
  const data: ReportWorkerData = { kind: REPORT_WORKER, options };
  // The file whose ranges are being joined, and the whole trace when there is one file.
  let file: EmbeddedTrace | null = null;
  let only: EmbeddedTrace | null = null;
  await inJobOrder<TraceJob, ReportWorkerResult>(traceJobs(files, threads), data, threads, (r, job) => {
    // The first part in order that could not be read stops the report, as on one thread.
    if ('error' in r) throw new Error(r.error);
    const part = job.message;
    if (file && 'range' in part && !part.first) joinRange(file, r.trace);
    else file = r.trace;
    // Reading failed while the file was being indexed: the report stops as on an unreadable file.
    if (job.readError !== undefined) throw new Error(`${'range' in part ? part.range.path : part.file}: ${job.readError}`);
    if (!job.endsFile) return;
    if (files.length === 1) only = file;
    else out.add(file, 'range' in part ? part.range.path : part.file);
    file = null;
  });
  return only ?? out.trace;
}
