/** `toolscope analyze <file|dir>…`: analyse traces and print a summary, or JSON Lines with --json. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Analyzer, type AnalysisOptions } from '../core/analysis.ts';
import { guidedEngine } from '../core/guided/guidedEngine.ts';
import { SEVERITY_RANK, type Severity } from '../core/diagnostics/diagnostic.ts';
import { readTraceItems } from '../core/trace/jsonlIndex.ts';
import { TRACE_EXTENSIONS, isTraceFileName } from '../core/trace/traceFileNames.ts';
import { errorJson, recordJson } from './analyzeJson.ts';
import { STDIN_NAME, spoolInput, type SpooledInput } from './stdinTrace.ts';
import { HumanReport } from './humanReport.ts';
import { terminalStyle } from './terminalStyle.ts';
import { AnalyzeCiOutputs } from './analyzeCiOutputs.ts';
import { writeOutput } from './writeOutput.ts';
import { startupMark } from '../core/util/startupMarks.ts';

export interface AnalyzeCommandOptions extends AnalysisOptions {
  json?: boolean;
  failOn?: Severity;
  verbose?: boolean;
  /** `--junit FILE`: one test case per record. */
  junit?: string;
  /** `--sarif FILE`: SARIF 2.1.0, one result per finding. */
  sarif?: string;
  toolVersion?: string;
}

import { InputError } from './inputError.ts';

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

/** Runs the analysis; returns the exit status. `input` is what `-` reads (standard input). */
export async function analyzeCommand(
  inputs: string[],
  options: AnalyzeCommandOptions,
  out: NodeJS.WritableStream & { isTTY?: boolean },
  input: NodeJS.ReadableStream = process.stdin,
  errors: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const files = await expandInputs(inputs);
  if (files.filter((f) => f === STDIN_NAME).length > 1) throw new InputError('standard input (-) can be read only once');
  // xgrammar's worker loads its WASM module while the first file is read.
  if (options.guided !== false) guidedEngine().warmUp();
  const unreadable: string[] = [];
  const analyzer = new Analyzer(options);
  const write = (line: string) => out.write(line + '\n');
  const report = options.json ? null : new HumanReport(write, terminalStyle(out), Boolean(options.verbose));
  const ci = options.junit || options.sarif ? new AnalyzeCiOutputs(options.failOn) : null;
  let worst = 0;
  let firstShown = false;
  for (const file of files) {
    report?.file(file);
    ci?.file(file);
    let items;
    let spooled: SpooledInput | null = null;
    try {
      if (file === STDIN_NAME) spooled = await spoolInput(input);
      items = readTraceItems(spooled?.path ?? file);
      for await (const item of items) {
        if (item.kind === 'error') {
          ci?.error(item.error);
          if (report) report.error(item.error);
          else write(JSON.stringify(errorJson(file, item.error)));
          continue;
        }
        if (!firstShown) startupMark('first-record-read');
        const outcome = await analyzer.analyzeGuarded(item.loaded, options.guided !== false);
        if (outcome.kind === 'error') {
          if (report) report.error(outcome.error);
          else write(JSON.stringify(errorJson(file, outcome.error)));
          continue;
        }
        const analysed = outcome.analysed;
        ci?.record(analysed);
        for (const d of analysed.diagnostics) worst = Math.max(worst, SEVERITY_RANK[d.severity]);
        if (report) report.record(analysed);
        else write(JSON.stringify(recordJson(file, analysed, Boolean(options.ignore?.length))));
        if (!firstShown) startupMark('first-record-shown');
        firstShown = true;
      }
    } catch (err) {
      // Only reading can fail here (each record's analysis is guarded): say so, and go on with the next file.
      unreadable.push(file);
      errors.write(`toolscope: cannot read ${file === STDIN_NAME ? 'standard input' : file}: ${(err as Error).message}\n`);
    } finally {
      await spooled?.dispose();
    }
  }
  startupMark('files-done');
  report?.summary();
  if (ci && options.junit) await writeOutput(options.junit, ci.junit());
  if (ci && options.sarif) await writeOutput(options.sarif, ci.sarif(options.toolVersion ?? '0.0.0-dev'));
  // Content problems never make a usage error: 2 only for paths that could not be read.
  if (unreadable.length > 0) return 2;
  if (options.failOn && worst >= SEVERITY_RANK[options.failOn]) return 1;
  return 0;
}
