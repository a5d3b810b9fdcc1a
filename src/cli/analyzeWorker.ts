/**
 * A file worker of `analyze` over many files or a big one (parallelAnalyze.ts): it analyses the files and ranges of
 * records it is sent, one at a time, exactly as the main thread would (analyzeJob.ts), and answers each with its
 * output and summary.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Analyzer } from '../core/analysis.ts';
import { runAnalyzeJob } from './analyzeJob.ts';
import { terminalStyle } from '../host/report/terminalStyle.ts';
import { ANALYZE_WORKER, type AnalyzeWorkerData, type AnalyzeWorkerJob } from './analyzeWorkerProtocol.ts';
import { nodeServices } from '../io/nodeServices.ts';
import { transferList } from '../core/tables/findingTables.ts';

/** This thread was started as a file worker of `analyze`. */
export function isAnalyzeWorker(): boolean {
  return !isMainThread && (workerData as Partial<AnalyzeWorkerData> | null)?.kind === ANALYZE_WORKER;
}

export function runAnalyzeWorker(): void {
  const { options, isTTY } = workerData as AnalyzeWorkerData;
  const analyzer = new Analyzer(options, nodeServices());
  const style = terminalStyle({ isTTY });
  let queue: Promise<void> = Promise.resolve();
  parentPort?.on('message', (job: AnalyzeWorkerJob) => {
    queue = queue.then(async () => {
      const answer = await runAnalyzeJob(job, analyzer, options, style);
      parentPort?.postMessage(answer, [answer.output.buffer, ...(answer.tables ? transferList(answer.tables) : [])]);
    });
  });
}
