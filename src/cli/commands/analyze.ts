/**
 * `toolscope analyze`: the command declares itself here, its flags beside its action. The action loads the command's work
 * (src/cli/*Command.ts) when it runs, so that the CLI starts without every command's modules.
 */
import type { Command } from 'commander';
import { analysisOptionsFrom, parseJobs, withAnalysisOptions, type AnalysisFlags } from '../analysisFlags.ts';
import { parseShard, type Shard } from '../shard.ts';
import { toolVersion } from '../toolVersion.ts';
import { endWhenDone } from '../processEnd.ts';

/** `toolscope analyze`: its flags (the analysis group, analysisFlags.ts, and its own) and its action. */
export function registerAnalyze(program: Command): void {
  const analyze = program
    .command('analyze')
    .description('parse every record of traces (files, directories, or - for standard input) and report tool-call diagnostics')
    .argument('<paths...>', 'trace files, directories of trace files (.jsonl .json .ndjson .sse .log .txt), or - for standard input')
    .option('--json', 'print JSON Lines, one object per record (and per unreadable line)')
    .option('--junit <file>', 'also write JUnit XML: one test case per record, failing at the --fail-on severity (default error)')
    .option('--sarif <file>', 'also write SARIF 2.1.0: one result per finding, at the trace file and line (GitHub code scanning)')
    .option('--jobs <n>', 'worker threads for many files or a big one (default: one per core for 8 MB or more; 1: one thread)', parseJobs)
    .option('--parquet <dir>', 'also write records.parquet and findings.parquet in this folder (docs/findings-tables.md)')
    .option(
      '--shard <i/n>',
      "analyse only share I of N (1-based): whole files by their path's hash, big files by their records' byte offsets; N runs cover the input once",
      parseShard,
    );
  withAnalysisOptions(analyze).action(
    async (
      paths: string[],
      opts: AnalysisFlags & { jobs?: number; json?: boolean; junit?: string; sarif?: string; parquet?: string; shard?: Shard },
    ) => {
      const { analyzeCommand } = await import('../analyzeCommand.ts');
      process.exitCode = await analyzeCommand(
        paths,
        {
          ...(await analysisOptionsFrom(opts)),
          json: opts.json,
          failOn: opts.failOn,
          verbose: opts.verbose,
          junit: opts.junit,
          sarif: opts.sarif,
          toolVersion: toolVersion(),
          jobs: opts.jobs,
          parquet: opts.parquet,
          shard: opts.shard,
          // Nothing analyze prints comes from the per-token timeline (the report's editor shows it).
          timeline: false,
        },
        process.stdout,
      );
      // Everything it starts has ended or is written by now: the process may end at once (processEnd.ts).
      endWhenDone();
    },
  );
}
