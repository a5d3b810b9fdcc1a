/** `toolscope analyze <file|dir>…`: analyse traces and print a summary, or JSON Lines with --json. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Analyzer, type AnalysisOptions } from '../core/analysis.ts';
import { SEVERITY_RANK, type Severity } from '../core/diagnostics/diagnostic.ts';
import { readTraceItems } from '../core/trace/jsonlIndex.ts';
import { errorJson, recordJson } from './analyzeJson.ts';
import { HumanReport } from './humanReport.ts';
import { terminalStyle } from './terminalStyle.ts';

export interface AnalyzeCommandOptions extends AnalysisOptions {
  /** Run the guided-decoding what-if (default true; `--no-guided` skips it). */
  guided?: boolean;
  json?: boolean;
  failOn?: Severity;
  verbose?: boolean;
}

/** A usage or input problem: exit status 2. */
export class InputError extends Error {}

/** Files named on the command line, with directories expanded to their `.jsonl` files (sorted, recursive). */
export async function expandInputs(inputs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new InputError(code === 'ENOENT' ? `no such file or directory: ${input}` : `cannot read ${input}: ${(err as Error).message}`);
    }
    if (info.isDirectory()) {
      const found = await jsonlFilesIn(input);
      if (found.length === 0) throw new InputError(`no .jsonl files in ${input}`);
      files.push(...found);
    } else {
      files.push(input);
    }
  }
  return files;
}

async function jsonlFilesIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await jsonlFilesIn(path)));
    else if (e.name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

/** Runs the analysis; returns the exit status. */
export async function analyzeCommand(inputs: string[], options: AnalyzeCommandOptions, out: NodeJS.WritableStream & { isTTY?: boolean }): Promise<number> {
  const files = await expandInputs(inputs);
  const analyzer = new Analyzer(options);
  const write = (line: string) => out.write(line + '\n');
  const report = options.json ? null : new HumanReport(write, terminalStyle(out), Boolean(options.verbose));
  let worst = 0;
  for (const file of files) {
    report?.file(file);
    let items;
    try {
      items = readTraceItems(file);
      for await (const item of items) {
        if (item.kind === 'error') {
          if (report) report.error(item.error);
          else write(JSON.stringify(errorJson(file, item.error)));
          continue;
        }
        const analysed = options.guided === false ? analyzer.analyze(item.loaded) : await analyzer.analyzeWithGuided(item.loaded);
        for (const d of analysed.diagnostics) worst = Math.max(worst, SEVERITY_RANK[d.severity]);
        if (report) report.record(analysed);
        else write(JSON.stringify(recordJson(file, analysed)));
      }
    } catch (err) {
      throw new InputError(`cannot read ${file}: ${(err as Error).message}`);
    }
  }
  report?.summary();
  if (options.failOn && worst >= SEVERITY_RANK[options.failOn]) return 1;
  return 0;
}
