/**
 * `analyze` over many files on every core: whole files go to worker threads (fileWorkerPool.ts; analyzeWorker.ts:
 * one Analyzer each, with its own grammar-engine worker), and this thread writes their results in file order — byte
 * for byte what one thread writes — and merges their summaries. Used where it pays: two or more files and, unless `--jobs` says how
 * many threads, at least PARALLEL_MIN_BYTES of them (starting a thread costs about as much as a small trace).
 * Standard input, `--junit` and `--sarif` stay on one thread.
 */
import { availableParallelism } from 'node:os';
import { STDIN_NAME } from './stdinTrace.ts';
import type { AnalyzeCommandOptions } from './analyzeFile.ts';
import { ANALYZE_WORKER, type AnalyzeWorkerData, type AnalyzeWorkerResult } from './analyzeWorkerProtocol.ts';
import { inFileOrder } from './fileWorkerPool.ts';
import { fileSize } from './fileSize.ts';

/** Below this much input the files are analysed on this thread. */
export const PARALLEL_MIN_BYTES = 8_000_000;

export interface ParallelFileResult extends AnalyzeWorkerResult {
  bytes: number;
}

/** How many threads to analyse `files` with (1: this one). */
export async function parallelThreads(files: readonly string[], jobs: number | undefined): Promise<number> {
  const wanted = jobs ?? availableParallelism();
  if (wanted <= 1 || files.length < 2 || files.includes(STDIN_NAME)) return 1;
  if (jobs === undefined) {
    const sizes = await Promise.all(files.map(fileSize));
    if (sizes.reduce((a, b) => a + b, 0) < PARALLEL_MIN_BYTES) return 1;
  }
  return Math.min(wanted, files.length);
}

/**
 * Analyses `files` on `threads` worker threads, one file at a time each, and calls `onResult` for every file in
 * file order. A thread that dies (out of memory, a crash) fails the run with the file it was on.
 */
export function analyzeInParallel(
  files: readonly string[],
  options: AnalyzeCommandOptions,
  threads: number,
  isTTY: boolean,
  onResult: (r: ParallelFileResult) => void,
): Promise<void> {
  const data: AnalyzeWorkerData = { kind: ANALYZE_WORKER, options, isTTY };
  return inFileOrder<AnalyzeWorkerResult>(files, data, threads, onResult);
}
