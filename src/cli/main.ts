/**
 * The `toolscope` command line: the program, its commands (each declares itself with its flags beside its action, in
 * src/cli/commands/; the flag groups several share are analysisFlags.ts and endpointFlags.ts), the exit status of
 * errors, and the worker threads this file is also loaded as.
 */
import { endQuietlyOnBrokenPipe } from './brokenPipe.ts';
import { Command, CommanderError } from 'commander';
import { InputError } from './inputError.ts';
import { startupMark } from '../core/util/startupMarks.ts';
import { endProcess } from './processEnd.ts';
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

/** Each command's name and how it declares itself (its flags and action) on the program. */
const COMMANDS: readonly (readonly [string, (program: Command) => void])[] = [
  ['analyze', registerAnalyze],
  ['tokens', registerTokens],
  ['report', registerReport],
  ['replay', registerReplay],
  ['eval', registerEval],
  ['serve', registerServe],
  ['proxy', registerProxy],
  ['publish', registerPublish],
];

/**
 * The program with its commands. `running`: the first word of the command line; when it names a command, only that
 * command is declared (a run needs no other's flags: building every command's options was ~5 % of a short `analyze`'s
 * main thread). Anything else (help, --version, a typo commander suggests a command for) gets them all.
 */
export function buildProgram(running?: string): Command {
  const program = new Command();
  program
    .name('toolscope')
    .description('See exactly what happened inside an LLM tool call.')
    .version(toolVersion())
    .showHelpAfterError()
    .exitOverride();

  const only = COMMANDS.find(([name]) => name === running);
  for (const [, register] of only ? [only] : COMMANDS) register(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram(argv[2]);
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
      endProcess(code);
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
