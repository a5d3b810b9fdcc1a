/**
 * The `toolscope` command line: the program, its commands (each declares itself with its flags beside its action, in
 * src/cli/commands/; the flag groups several share are analysisFlags.ts and endpointFlags.ts), the exit status of
 * errors, and the worker threads this file is also loaded as.
 */
import { endQuietlyOnBrokenPipe } from './brokenPipe.ts';
import { Command, CommanderError } from 'commander';
import { InputError } from './inputError.ts';
import { startupMark } from '../core/util/startupMarks.ts';
import { isAnalyzeWorker, runAnalyzeWorker } from './analyzeWorker.ts';
import { isReportWorker } from './reportWorkerProtocol.ts';
import { toolVersion } from './toolVersion.ts';
import { terminalText } from '../host/report/terminalText.ts';
import { registerAnalyze } from './commands/analyze.ts';
import { registerTokens } from './commands/tokens.ts';
import { registerReport } from './commands/report.ts';
import { registerReplay } from './commands/replay.ts';
import { registerEval } from './commands/eval.ts';
import { registerServe } from './commands/serve.ts';
import { registerProxy } from './commands/proxy.ts';
import { registerPublish } from './commands/publish.ts';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('toolscope')
    .description('See exactly what happened inside an LLM tool call.')
    .version(toolVersion())
    .showHelpAfterError()
    .exitOverride();

  registerAnalyze(program);
  registerTokens(program);
  registerReport(program);
  registerReplay(program);
  registerEval(program);
  registerServe(program);
  registerProxy(program);
  registerPublish(program);
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
      process.stderr.write(`toolscope: ${terminalText(err.message)}\n`);
      return 2;
    }
    throw err;
  }
}

/** Runs the command line of this process and sets its exit code (launcher.ts calls it; so does running this file). */
export function runCli(): void {
  endQuietlyOnBrokenPipe(process.stdout);
  main(process.argv).then(
    (code) => {
      startupMark('main-done');
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`toolscope: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 70;
    },
  );
}

if (isAnalyzeWorker()) runAnalyzeWorker();
// Loaded only in a report worker: the report's code stays out of the CLI's start-up.
else if (isReportWorker()) void import('./reportWorker.ts').then((m) => m.runReportWorker());
else if (require.main === module) runCli();
