/**
 * A file worker of `report` over many files (parallelReport.ts): it builds each file's part of the report exactly
 * as the main thread would (`embeddedTrace`, with its own grammar-engine worker), one file at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { embeddedTrace } from '../host/view/embeddedTrace.ts';
import type { FileJob } from './fileWorkerPool.ts';
import type { ReportWorkerData, ReportWorkerResult } from './reportWorkerProtocol.ts';

export function runReportWorker(): void {
  const { options } = workerData as ReportWorkerData;
  let queue: Promise<void> = Promise.resolve();
  parentPort?.on('message', ({ index, file }: FileJob) => {
    queue = queue.then(async () => {
      let answer: ReportWorkerResult;
      try {
        answer = { index, trace: await embeddedTrace(file, file, 'report', options) };
      } catch (err) {
        answer = { index, error: err instanceof Error ? err.message : String(err) };
      }
      parentPort?.postMessage(answer);
    });
  });
}
