/**
 * A file worker of `report` (parallelReport.ts): it builds the part of the report of each whole file or range of a
 * big file's records it is sent exactly as the main thread would (`embeddedTrace`, `embeddedRange`, with its own
 * grammar-engine worker), one at a time, and sends it back labelled and serialized as the page embeds it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { asFileOfMany, embeddedRange, embeddedTrace, serializedViews } from '../host/view/embeddedTrace.ts';
import type { ReportWorkerData, ReportWorkerJob, ReportWorkerResult } from './reportWorkerProtocol.ts';

export function runReportWorker(): void {
  const { options } = workerData as ReportWorkerData;
  let queue: Promise<void> = Promise.resolve();
  parentPort?.on('message', (job: ReportWorkerJob) => {
    queue = queue.then(async () => {
      let answer: ReportWorkerResult;
      try {
        const built =
          'range' in job
            ? await embeddedRange(job.range, job.range.path, 'report', options, job.first)
            : await embeddedTrace(job.file, job.file, 'report', options);
        const trace = serializedViews(job.asFile ? asFileOfMany(built, job.asFile.index, job.asFile.label) : built);
        answer = { index: job.index, trace };
      } catch (err) {
        answer = { index: job.index, error: err instanceof Error ? err.message : String(err) };
      }
      parentPort?.postMessage(answer);
    });
  });
}
