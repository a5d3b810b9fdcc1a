/**
 * `analyze` on every core: whole files, and ranges of a big file's records, go to worker threads (traceJobs.ts,
 * fileWorkerPool.ts; analyzeWorker.ts: one Analyzer each, with its own grammar-engine worker), and this thread
 * writes their output in order — byte for byte what one thread writes — and merges their summaries. Standard input,
 * `--junit` and `--sarif` stay on one thread.
 */
import { cannotRead, type AnalyzeCommandOptions } from './analyzeFile.ts';
import { ANALYZE_WORKER, type AnalyzeWorkerData, type AnalyzeWorkerResult } from './analyzeWorkerProtocol.ts';
import { inJobOrder } from './fileWorkerPool.ts';
import { traceJobs, type TraceJob } from './traceJobs.ts';
import type { ByteWindow } from '../io/trace/traceRanges.ts';
import type { HumanReport } from '../host/report/humanReport.ts';
import type { AnalyzeProgress } from './analyzeProgress.ts';
import type { ParquetTables } from '../io/tables/parquetTables.ts';

/** Where the results go: the output, the error stream, the readable report's summary, the progress line. */
export interface ParallelSinks {
  out: NodeJS.WritableStream;
  errors: NodeJS.WritableStream;
  report: HumanReport | null;
  progress: AnalyzeProgress | null;
  /** `--parquet`: where the jobs' rows are written, in job order (the rows one thread would write). */
  tables: ParquetTables | null;
}

/** What the exit status needs: the worst severity found (SEVERITY_RANK) and how many files could not be read. */
export interface ParallelOutcome {
  worst: number;
  unreadable: number;
}

/**
 * Analyses `files` on `threads` worker threads and writes everything in order. A thread that dies (out of memory,
 * a crash) fails the run with the file (and lines) it was on.
 */
export async function analyzeInParallel(
  files: readonly string[],
  options: AnalyzeCommandOptions,
  threads: number,
  isTTY: boolean,
  { out, errors, report, progress, tables }: ParallelSinks,
  windows: ReadonlyMap<string, ByteWindow> = new Map(),
): Promise<ParallelOutcome> {
  const data: AnalyzeWorkerData = { kind: ANALYZE_WORKER, options, isTTY };
  const outcome: ParallelOutcome = { worst: 0, unreadable: 0 };
  // A file that failed to read part-way is not read on (one thread stops at the failure): its later ranges are dropped.
  let failedFile: string | null = null;
  await inJobOrder<TraceJob, AnalyzeWorkerResult>(traceJobs(files, threads, windows), data, threads, async (r, job) => {
    const file = 'range' in job.message ? job.message.range.path : job.message.file;
    if (failedFile === file && !('range' in job.message && job.message.first)) return;
    failedFile = null;
    if (r.output.length > 0 && !out.write(r.output)) await drained(out);
    for (const text of r.stderr) errors.write(text);
    if (report && r.report) report.merge(r.report);
    if (tables && r.tables) tables.append(r.tables);
    outcome.worst = Math.max(outcome.worst, r.worst);
    // Reading failed while the file was being indexed, after this range: the file ends here, as a worker's failure ends it.
    if (job.readError !== undefined && !r.unreadable) errors.write(cannotRead(file, job.readError));
    if (r.unreadable || job.readError !== undefined) {
      outcome.unreadable++;
      failedFile = file;
    }
    if (job.endsFile) progress?.fileDone(job.bytes, r.records);
    else progress?.rangeDone(job.bytes, r.records);
  });
  return outcome;
}

/** Waits until a stream that asked to (its `write` returned false) takes more, or can take nothing more. */
function drained(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('error', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('error', done);
    out.once('close', done);
  });
}
