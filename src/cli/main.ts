/** The `toolscope` command line: thin glue from arguments to src/core. */
import { Command, CommanderError, Option } from 'commander';
import { formatNames } from '../core/formats/registry.ts';
import { resolve } from 'node:path';
import { analyzeCommand, InputError } from './analyzeCommand.ts';
import { openInBrowser, writeReport } from './reportCommand.ts';

declare const TOOLSCOPE_VERSION: string | undefined;

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('toolscope')
    .description('See exactly what happened inside an LLM tool call.')
    .version(typeof TOOLSCOPE_VERSION === 'string' ? TOOLSCOPE_VERSION : '0.0.0-dev')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('analyze')
    .description('parse every record of .jsonl traces (files or directories) and report tool-call diagnostics')
    .argument('<paths...>', 'trace files or directories of .jsonl files')
    .option('--json', 'print JSON Lines, one object per record (and per unreadable line)')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or worse exists').choices(['error', 'warning']))
    .addOption(new Option('--format <name>', 'tool-call format (default: detected per record)').choices(formatNames()))
    .option('--think-open', 'completions start inside <think> (the template opened it in the prompt)')
    .option('--recover-raw-fallback', 'turn `functions.name:0 {json}` written without special tokens into calls')
    .option('-v, --verbose', 'also list info-level findings')
    .action(async (paths: string[], opts: { json?: boolean; failOn?: 'error' | 'warning'; format?: string; thinkOpen?: boolean; recoverRawFallback?: boolean; verbose?: boolean }) => {
      process.exitCode = await analyzeCommand(
        paths,
        {
          json: opts.json,
          failOn: opts.failOn,
          format: opts.format,
          startInReasoning: opts.thinkOpen,
          recoverRawFallback: opts.recoverRawFallback,
          verbose: opts.verbose,
        },
        process.stdout,
      );
    });
  program
    .command('report')
    .description('write the trace editor for traces (files or directories) as one self-contained HTML file')
    .argument('<paths...>', 'trace files or directories of .jsonl files')
    .requiredOption('-o, --out <file>', 'where to write the HTML report')
    .option('--open', 'open the report in the desktop browser when there is one')
    .option('--think-open', 'completions start inside <think> (the template opened it in the prompt)')
    .action(async (paths: string[], opts: { out: string; open?: boolean; thinkOpen?: boolean }) => {
      const { records, bytes } = await writeReport(paths, opts.out, { startInReasoning: opts.thinkOpen });
      const where = resolve(opts.out);
      process.stdout.write(`Report: ${where} (${records} records, ${(bytes / 1024).toFixed(0)} KB)\n`);
      if (opts.open && openInBrowser(where)) process.stdout.write('Opened in your browser.\n');
    });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error.
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
    }
    if (err instanceof InputError) {
      process.stderr.write(`toolscope: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

if (require.main === module) {
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`toolscope: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 70;
    },
  );
}
