/**
 * `toolscope serve`: the command declares itself here, its flags beside its action. The action loads the command's work
 * (src/cli/*Command.ts) when it runs, so that the CLI starts without every command's modules.
 */
import { Option, type Command } from 'commander';
import { formatNames } from '../../core/formats/registry.ts';
import { engineGenerations } from '../../core/formats/engineGenerations.ts';
import type { VllmGeneration } from '../../core/formats/engineRun.ts';

/** `toolscope serve`: its flags and its action. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the embedded OpenAI-compatible endpoint (a scripted simulator, not a model)')
    .option('--port <n>', 'port (0 picks a free one)', (v) => Number(v), 0)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--script <trace>', 'answer requests with the completions of matching records in this trace')
    .option('--hallucinate <rate>', 'share of requests answered with an undeclared tool or a schema break', (v) => Number(v))
    .option('--seed <n>', 'seed for --hallucinate', (v) => Number(v), 0)
    .option('--model <name>', 'model name to report')
    .option('--token-delay <ms>', 'delay between streamed tokens', (v) => Number(v), 0)
    .addOption(
      new Option('--format <name>', 'the tool-call format the simulated model writes and the server parses (default: kimi_k2)').choices(
        formatNames(),
      ),
    )
    .addOption(
      new Option(
        '--vllm-profile <generation>',
        "parse tool calls the way this vLLM generation's Kimi K2 parser does (its bugs included) instead of Toolscope's reference parser",
      ).choices(engineGenerations()),
    )
    .action(
      async (opts: {
        port: number;
        host: string;
        script?: string;
        hallucinate?: number;
        seed: number;
        model?: string;
        tokenDelay: number;
        vllmProfile?: VllmGeneration;
        format?: string;
      }) => {
        const { serveCommand } = await import('../serveCommand.ts');
        await serveCommand(
          {
            port: opts.port,
            host: opts.host,
            script: opts.script,
            hallucinate: opts.hallucinate,
            seed: opts.seed,
            model: opts.model,
            tokenDelayMs: opts.tokenDelay,
            vllmProfile: opts.vllmProfile,
            format: opts.format,
          },
          process.stdout,
        );
      },
    );
}
