/**
 * `report` on every core: whole files, and ranges of a big file's records, go to worker threads as `analyze` sends
 * them (traceJobs.ts, fileWorkerPool.ts; reportWorker.ts builds each one's part of the report exactly as the main
 * thread would, labels it with its file's position when there are several, and serializes its record views), and
 * the parts are gathered in order, a file's ranges joined into the file's part — so the report is byte for byte the
 * one a single thread writes, and this thread only joins and writes text. Used when `traceThreads` says so, as
 * `analyze` is.
 */
import type { AnalysisOptions } from '../core/analysis.ts';
import { emptyTrace, joinRange } from '../host/view/embeddedTrace.ts';
import type { PageData } from '../host/view/pageHtml.ts';
import { inJobOrder } from './fileWorkerPool.ts';
import { traceJobs, type TraceJob } from './traceJobs.ts';
import { REPORT_WORKER, type ReportWorkerData, type ReportWorkerJob, type ReportWorkerResult } from './reportWorkerProtocol.ts';

type ReportJob = TraceJob & { message: ReportWorkerJob };

/** The jobs of `traceJobs`, each told which file of several it belongs to (none when there is one file). */
async function* labelledJobs(files: readonly string[], threads: number): AsyncGenerator<ReportJob> {
  let file = 0;
  for await (const job of traceJobs(files, threads)) {
    const label = 'range' in job.message ? job.message.range.path : job.message.file;
    yield { ...job, message: { ...job.message, asFile: files.length > 1 ? { index: file, label } : null } };
    if (job.endsFile) file++;
  }
}

/**
 * `embeddedTraces` of `files` (each its own label; one file: its own trace) on `threads` worker threads, its record
 * views as the page's JSON; fails with the first unreadable file's error.
 */
export async function embeddedTracesInParallel(
  files: readonly string[],
  title: string,
  options: AnalysisOptions,
  threads: number,
): Promise<PageData> {
  const out: PageData = emptyTrace(title, 'report', options);
  const data: ReportWorkerData = { kind: REPORT_WORKER, options };
  // The file whose ranges are being joined, and the whole trace when there is one file.
  let file: PageData | null = null;
  let only: PageData | null = null;
  await inJobOrder<ReportJob, ReportWorkerResult>(labelledJobs(files, threads), data, threads, (r, job) => {
    // The first part in order that could not be read stops the report, as on one thread.
    if ('error' in r) throw new Error(r.error);
    const part = job.message;
    if (file && 'range' in part && !part.first) joinRange(file, r.trace);
    else file = r.trace;
    // Reading failed while the file was being indexed: the report stops as on an unreadable file.
    if (job.readError !== undefined) throw new Error(`${'range' in part ? part.range.path : part.file}: ${job.readError}`);
    if (!job.endsFile) return;
    if (files.length === 1) only = file;
    else joinRange(out, file);
    file = null;
  });
  return only ?? out;
}
