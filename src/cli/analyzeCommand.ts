/** `toolscope analyze <file|dir>…`: analyse traces and print a summary, or JSON Lines with --json. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Analyzer } from '../core/analysis.ts';
import { SEVERITY_RANK } from '../core/diagnostics/diagnostic.ts';
import { TRACE_EXTENSIONS, isTraceFileName } from '../core/trace/traceFileNames.ts';
import { STDIN_NAME } from './stdinTrace.ts';
import { HumanReport } from '../host/report/humanReport.ts';
import { terminalStyle } from '../host/report/terminalStyle.ts';
import { AnalyzeCiOutputs } from './analyzeCiOutputs.ts';
import { writeOutput } from './writeOutput.ts';
import { startupMark } from '../core/util/startupMarks.ts';
import { analyzeInParallel } from './parallelAnalyze.ts';
import { traceThreads } from './traceJobs.ts';
import { fileSize } from './fileSize.ts';
import { analyzeFile, type AnalyzeCommandOptions } from './analyzeFile.ts';
import { AnalyzeProgress } from './analyzeProgress.ts';
import { shareOf } from './shard.ts';

export type { AnalyzeCommandOptions };

import { InputError } from './inputError.ts';
import { nodeServices } from '../io/nodeServices.ts';
import { discardPrestartedGuidedWorker } from '../io/guided/guidedWorkerStart.ts';
import { ParquetTables } from '../io/tables/parquetTables.ts';
import { TableBuilder } from '../core/tables/findingTables.ts';

export { InputError };

/**
 * Files named on the command line, with directories expanded to their trace files (sorted, recursive);
 * `-` (standard input) is kept as it is.
 */
export async function expandInputs(inputs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    if (input === STDIN_NAME) {
      files.push(input);
      continue;
    }
    let info;
    try {
      info = await stat(input);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new InputError(code === 'ENOENT' ? `no such file or directory: ${input}` : `cannot read ${input}: ${(err as Error).message}`);
    }
    if (info.isDirectory()) {
      const found = await traceFilesIn(input);
      if (found.length === 0) throw new InputError(`no trace files (${TRACE_EXTENSIONS.join(' ')}) in ${input}`);
      files.push(...found);
    } else {
      files.push(input);
    }
  }
  return files;
}

async function traceFilesIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await traceFilesIn(path)));
    else if (isTraceFileName(e.name)) out.push(path);
  }
  return out;
}

/** Rows the one-thread run holds before handing them to the Parquet writer. */
const ROWS_HELD = 4096;

/** The Parquet tables of `--parquet DIR`, or a usage error saying why the folder cannot take them. */
async function openTables(dir: string, toolVersion = '0.0.0-dev'): Promise<ParquetTables> {
  try {
    return await ParquetTables.create(dir, toolVersion);
  } catch (err) {
    throw new InputError(`--parquet: cannot write to ${dir}: ${(err as Error).message}`);
  }
}

/** Runs the analysis; returns the exit status. `input` is what `-` reads (standard input). */
export async function analyzeCommand(
  inputs: string[],
  options: AnalyzeCommandOptions,
  out: NodeJS.WritableStream & { isTTY?: boolean },
  input: NodeJS.ReadableStream = process.stdin,
  errors: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
): Promise<number> {
  const named = await expandInputs(inputs);
  if (named.filter((f) => f === STDIN_NAME).length > 1) throw new InputError('standard input (-) can be read only once');
  // `--shard I/N`: this machine's share, whole files and windows of big files' bytes.
  const share = options.shard ? await shareOf(named, options.shard, options.shardSplitBytes) : null;
  const files = share ? share.map((s) => s.file) : named;
  const windows = new Map(share?.flatMap((s) => (s.window ? [[s.file, s.window] as const] : [])));
  const write = (line: string) => out.write(line + '\n');
  const color = terminalStyle(out);
  const report = options.json ? null : new HumanReport(write, color, Boolean(options.verbose));
  const ci = options.junit || options.sarif ? new AnalyzeCiOutputs(options.failOn) : null;
  const threads = ci ? 1 : await traceThreads(files, options.jobs);
  const progress = await AnalyzeProgress.forRun(files, errors, threads);
  const tables = options.parquet ? await openTables(options.parquet, options.toolVersion) : null;
  let worst = 0;
  let unreadable = 0;
  if (threads > 1) {
    // Each file thread starts its own grammar engine: the one the launcher started for this thread is not needed.
    void discardPrestartedGuidedWorker();
    // Whole files, or ranges of a big file's records, to worker threads; written in order, as one thread writes them.
    ({ worst, unreadable } = await analyzeInParallel(
      files,
      options,
      threads,
      Boolean(out.isTTY),
      {
        out,
        errors,
        report,
        progress,
        tables,
      },
      windows,
    ));
  } else {
    // xgrammar's worker loads its WASM module while the first file is read.
    const services = nodeServices();
    if (options.guided !== false) services.grammarEngine.warmUp();
    const analyzer = new Analyzer(options, services);
    const rows = tables ? new TableBuilder() : null;
    const onRecord = () => {
      progress?.record();
      // A row group's worth at most is held here: the writer takes the rows as they come.
      if (rows && rows.records >= ROWS_HELD) tables?.append(rows.take());
    };
    for (const file of files) {
      const r = await analyzeFile(file, analyzer, options, { write, report, ci, errors, tables: rows, onRecord }, input, windows.get(file));
      if (rows) tables?.append(rows.take());
      worst = Math.max(worst, r.worst);
      if (r.unreadable) unreadable++;
      if (progress) progress.fileDone(await fileSize(file), 0);
    }
  }
  progress?.end();
  startupMark('files-done');
  report?.summary();
  const written = tables ? await tables.close() : null;
  // For the bench: the main thread's time on the tables (handing rows over, waiting for the last row groups) and the
  // encoding thread's (rows are made where records are analysed).
  if (written) {
    const { mainMs, waitMs, encodeMs, encodeCpuMs } = written;
    startupMark('parquet-written', { mainMs, waitMs, encodeMs, ...(encodeCpuMs === null ? {} : { encodeCpuMs }) });
  }
  if (written && report)
    write(
      `Parquet: ${written.records} records, ${written.findings} findings in ${join(written.dir, 'records.parquet')} and findings.parquet`,
    );
  if (ci && options.junit) await writeOutput(options.junit, ci.junit());
  if (ci && options.sarif) await writeOutput(options.sarif, ci.sarif(options.toolVersion ?? '0.0.0-dev'));
  // Content problems never make a usage error: 2 only for paths that could not be read.
  if (unreadable > 0) return 2;
  if (options.failOn && worst >= SEVERITY_RANK[options.failOn]) return 1;
  return 0;
}
