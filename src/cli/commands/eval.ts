/**
 * `toolscope eval` and its commands: the command declares itself here, its flags beside its action. The action loads the command's work
 * (src/cli/*Command.ts) when it runs, so that the CLI starts without every command's modules.
 */
import { Option, type Command } from 'commander';
import { formatNames, getFormat } from '../../core/formats/registry.ts';
import { InputError } from '../inputError.ts';
import type { GuidedChoice } from '../replayCommand.ts';
import { tagShapeOption, withEndpointOptions } from '../endpointFlags.ts';
import { toolVersion } from '../toolVersion.ts';

/** `toolscope eval`: run (the default), summarize, rescore, compare, verify, in that order. */
export function registerEval(program: Command): void {
  const evalCmd = program
    .command('eval')
    .description('K2-Vendor-Verifier compatible evaluation: run samples (default) or summarize results');
  registerEvalRun(evalCmd);
  registerEvalSummarize(evalCmd);
  registerEvalRescore(evalCmd);
  registerEvalCompare(evalCmd);
  registerEvalVerify(evalCmd);
}

/** `toolscope eval run`, the default: its flags (the endpoint group, endpointFlags.ts, and its own) and its action. */
export function registerEvalRun(evalCmd: Command): void {
  const run = evalCmd
    .command('run', { isDefault: true })
    .description('replay K2VV-style samples against an endpoint with guided decoding off/on/both')
    .argument('<samples>', 'chat requests, one per line (the K2VV sample format)');
  withEndpointOptions(run, {
    endpointHelp: 'OpenAI-compatible base URL (default: the embedded endpoint)',
    guidedDefault: 'both',
  })
    .option('--concurrency <n>', 'requests in flight', (v) => Number(v), 5)
    .option('--timeout <seconds>', 'per request, retries and their waits included', (v) => Number(v), 600)
    .option('--max-answer <MB>', 'largest answer read per request (decoded); past it the request fails', (v) => Number(v), 64)
    .option('--limit <k>', 'only the first k samples', (v) => Number(v))
    .option('--out <dir>', 'where results.guided-off/on.jsonl go', 'toolscope-eval')
    .option('--resume', 'skip samples already done in the output files')
    .option('--reference <results>', 'official results for tool-call trigger F1')
    .option('--hallucinate <rate>', 'embedded endpoint only: share of broken answers', (v) => Number(v))
    .option('--seed <n>', 'embedded endpoint only: seed for --hallucinate', (v) => Number(v), 0)
    .addOption(
      new Option('--format <name>', 'embedded endpoint only: the tool-call format its simulated model writes (default: kimi_k2)').choices(
        formatNames(),
      ),
    )
    .addOption(tagShapeOption())
    .option('--repeat <n>', 'runs per sample, interleaved (figures as mean ± sd, min–max)', (v) => Number(v), 1)
    .option('--rerun-failed', 'only the samples whose latest result failed or had its tool calls rejected')
    .option('--fail-under <bars>', 'exit 1 when a figure is under its bar, e.g. f1=0.8,schema=0.95 (any figure; mean across runs)')
    .option('--junit <file>', 'also write JUnit XML: one test case per sample and run')
    .option('--json', 'print the summary rows as JSON Lines')
    .action(
      async (
        path: string,
        opts: {
          endpoint?: string;
          model?: string;
          engine: string;
          apiKeyEnv: string;
          guided: GuidedChoice;
          concurrency: number;
          timeout: number;
          limit?: number;
          out: string;
          resume?: boolean;
          reference?: string;
          hallucinate?: number;
          seed: number;
          format?: string;
          json?: boolean;
          maxAnswer: number;
          tagShape?: string;
          repeat: number;
          rerunFailed?: boolean;
          failUnder?: string;
          junit?: string;
        },
      ) => {
        if (!(opts.maxAnswer > 0)) throw new InputError('--max-answer takes a positive number of MB');
        if (opts.format && opts.tagShape) {
          if (!getFormat(opts.format).guided?.shapes.includes(opts.tagShape))
            throw new InputError(`--tag-shape ${opts.tagShape} is not a shape of the ${opts.format} format's structural tag`);
        }
        const { parseEngine } = await import('../replayCommand.ts');
        const { evalRunCommand } = await import('../evalRunCommand.ts');
        process.exitCode = await evalRunCommand(
          path,
          {
            endpoint: opts.endpoint,
            model: opts.model,
            engine: parseEngine(opts.engine),
            apiKeyEnv: opts.apiKeyEnv,
            guided: opts.guided,
            concurrency: opts.concurrency,
            timeoutS: opts.timeout,
            limit: opts.limit,
            outDir: opts.out,
            resume: Boolean(opts.resume),
            reference: opts.reference,
            json: opts.json,
            hallucinate: opts.hallucinate,
            seed: opts.seed,
            format: opts.format,
            maxAnswerMb: opts.maxAnswer,
            tagShape: opts.tagShape,
            repeat: opts.repeat,
            rerunFailed: opts.rerunFailed,
            failUnder: opts.failUnder,
            junit: opts.junit,
            toolVersion: toolVersion(),
          },
          process.stdout,
        );
      },
    );
}

/** `toolscope eval summarize`. */
export function registerEvalSummarize(evalCmd: Command): void {
  evalCmd
    .command('summarize')
    .description("print K2-Vendor-Verifier's summary figures for a results file (and F1 against a reference run)")
    .argument('<results>', 'a K2VV results .jsonl')
    .option('--reference <results>', 'the official results to compute tool-call trigger precision/recall/F1 against')
    .option('--json', 'print the summary as one JSON object')
    .action(async (path: string, opts: { reference?: string; json?: boolean }) => {
      const { evalSummarizeCommand } = await import('../evalCommand.ts');
      process.exitCode = await evalSummarizeCommand(path, opts, process.stdout);
    });
}

/** `toolscope eval rescore`. */
export function registerEvalRescore(evalCmd: Command): void {
  evalCmd
    .command('rescore')
    .description("judge saved results again with today's checks, without a request: K2VV's figures, error classes, changed verdicts")
    .argument('<results>', "a K2VV results .jsonl (K2VV's own or toolscope eval's)")
    .option('--reference <results>', 'official results for tool-call trigger precision/recall/F1')
    .option('--summary <file>', "MiniMax-Provider-Verifier's summary.json to reproduce (default: the one beside the results)")
    .option('--fail-under <bars>', 'exit 1 when a figure is under its bar, e.g. schema=0.95')
    .option('--junit <file>', 'also write JUnit XML: one test case per sample and run')
    .option('--json', 'print one JSON object')
    .action(async (path: string, opts: { reference?: string; summary?: string; failUnder?: string; junit?: string; json?: boolean }) => {
      const { evalRescoreCommand } = await import('../evalRescoreCommand.ts');
      process.exitCode = await evalRescoreCommand(path, opts, process.stdout);
    });
}

/** `toolscope eval compare`. */
export function registerEvalCompare(evalCmd: Command): void {
  evalCmd
    .command('compare')
    .description('two results files side by side: figures with deltas, and per sample what changed (trigger, schema, findings)')
    .argument('<baseline>', 'results .jsonl')
    .argument('<candidate>', 'results .jsonl')
    .option('--reference <results>', 'official results for tool-call trigger F1 of both')
    .option('--json', 'print the comparison as one JSON object')
    .option('--with-simulated', "compare a simulated run with a model's run anyway (each side still says which it is)")
    .action(async (baseline: string, candidate: string, opts: { reference?: string; json?: boolean; withSimulated?: boolean }) => {
      const { evalCompareCommand } = await import('../evalCompareCommand.ts');
      process.exitCode = await evalCompareCommand(baseline, candidate, opts, process.stdout);
    });
}

/** `toolscope eval verify`. */
export function registerEvalVerify(evalCmd: Command): void {
  evalCmd
    .command('verify')
    .description("check a results file's hash chain: exit 1 naming every edited, added or removed line")
    .argument('<results>', 'a results .jsonl written by toolscope eval')
    .option('--json', 'print the check as one JSON object')
    .action(async (path: string, opts: { json?: boolean }) => {
      const { evalVerifyCommand } = await import('../evalVerifyCommand.ts');
      process.exitCode = await evalVerifyCommand(path, opts, process.stdout);
    });
}
