/**
 * `report` over many files on every core: each file's part of the report is built on a worker thread
 * (fileWorkerPool.ts, reportWorker.ts) and the parts are gathered in file order, so the report is byte for byte the
 * one a single thread writes. Used for two or more files and at least 8 MB of them, unless `--jobs` says how many
 * threads (parallelAnalyze.ts `parallelThreads`).
 */
import type { AnalysisOptions } from '../core/analysis.ts';
import { EmbeddedTraces } from '../host/view/embeddedTrace.ts';
import type { EmbeddedTrace } from '../host/view/pageHtml.ts';
import { inFileOrder } from './fileWorkerPool.ts';
import { REPORT_WORKER, type ReportWorkerData, type ReportWorkerResult } from './reportWorkerProtocol.ts';

/** `embeddedTraces` of `files` (each its own label) on `threads` worker threads; fails with the first unreadable file's error. */
export async function embeddedTracesInParallel(
  files: readonly string[],
  title: string,
  options: AnalysisOptions,
  threads: number,
): Promise<EmbeddedTrace> {
  const out = new EmbeddedTraces(title, 'report', options);
  const data: ReportWorkerData = { kind: REPORT_WORKER, options };
  await inFileOrder<ReportWorkerResult>(files, data, threads, (r) => {
    // The first file in order that could not be read stops the report, as on one thread.
    if ('error' in r) throw new Error(r.error);
    out.add(r.trace, files[r.index] as string);
  });
  return out.trace;
}
