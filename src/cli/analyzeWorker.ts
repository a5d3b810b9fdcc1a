/**
 * A file worker of `analyze` over many files (parallelAnalyze.ts): it analyses the files it is sent, one at a time,
 * exactly as the main thread would (analyzeFile.ts), and answers each with its output lines and summary.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Analyzer } from '../core/analysis.ts';
import { analyzeFile } from './analyzeFile.ts';
import { HumanReport } from '../host/report/humanReport.ts';
import { terminalStyle } from '../host/report/terminalStyle.ts';
import { ANALYZE_WORKER, type AnalyzeWorkerData, type AnalyzeWorkerResult } from './analyzeWorkerProtocol.ts';
import { nodeServices } from '../io/nodeServices.ts';

/** This thread was started as a file worker of `analyze`. */
export function isAnalyzeWorker(): boolean {
  return !isMainThread && (workerData as Partial<AnalyzeWorkerData> | null)?.kind === ANALYZE_WORKER;
}

export function runAnalyzeWorker(): void {
  const { options, isTTY } = workerData as AnalyzeWorkerData;
  const analyzer = new Analyzer(options, nodeServices());
  const style = terminalStyle({ isTTY });
  let queue: Promise<void> = Promise.resolve();
  parentPort?.on('message', ({ index, file }: { index: number; file: string }) => {
    queue = queue.then(async () => {
      const lines: string[] = [];
      const stderr: string[] = [];
      const write = (line: string) => lines.push(line);
      const report = options.json ? null : new HumanReport(write, style, Boolean(options.verbose));
      const r = await analyzeFile(
        file,
        analyzer,
        options,
        { write, report, ci: null, errors: { write: (text: string) => stderr.push(text) } },
        process.stdin,
      );
      const answer: AnalyzeWorkerResult = {
        index,
        lines,
        stderr,
        report: report?.state() ?? null,
        worst: r.worst,
        unreadable: r.unreadable,
        records: r.records,
      };
      parentPort?.postMessage(answer);
    });
  });
}
