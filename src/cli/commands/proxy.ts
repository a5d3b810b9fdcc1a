/**
 * `toolscope proxy`: the command declares itself here, its flags beside its action. The action loads the command's work
 * (src/cli/*Command.ts) when it runs, so that the CLI starts without every command's modules.
 */
import { Option, type Command } from 'commander';

/** `toolscope proxy`: its flags and its action. */
export function registerProxy(program: Command): void {
  program
    .command('proxy')
    .description(
      'record every exchange with an OpenAI-compatible endpoint: a pass-through on 127.0.0.1 that appends native records to a trace',
    )
    .requiredOption('--upstream <url>', 'the endpoint to forward to (base URL, e.g. http://127.0.0.1:8000/v1)')
    .option('--port <n>', 'port (0 picks a free one)', (v) => Number(v), 0)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--out <file>', 'trace file the records are appended to', 'traces.jsonl')
    .option(
      '--capture-tokens',
      'ask the upstream for token logprobs/ids and record them; the client still gets exactly what it would have without',
    )
    .addOption(
      new Option('--engine <engine>', 'how --capture-tokens asks for token data').choices(['vllm', 'sglang', 'openai']).default('vllm'),
    )
    .option('--max-size <MB>', 'rotate the trace before a file grows past this size (traces.2.jsonl, traces.3.jsonl, …)', (v) => Number(v))
    .option('--timeout <seconds>', 'fail an exchange when the upstream sends nothing for this long', (v) => Number(v), 600)
    .option('--api-key-env <var>', "send this variable's key upstream instead of the client's credentials")
    .option('-q, --quiet', 'no line per exchange')
    .action(
      async (opts: {
        upstream: string;
        port: number;
        host: string;
        out: string;
        captureTokens?: boolean;
        engine: string;
        maxSize?: number;
        timeout: number;
        apiKeyEnv?: string;
        quiet?: boolean;
      }) => {
        const { proxyCommand } = await import('../proxyCommand.ts');
        process.exitCode = await proxyCommand(
          {
            upstream: opts.upstream,
            port: opts.port,
            host: opts.host,
            out: opts.out,
            captureTokens: opts.captureTokens,
            engine: opts.engine,
            maxSize: opts.maxSize,
            timeoutS: opts.timeout,
            apiKeyEnv: opts.apiKeyEnv,
            quiet: opts.quiet,
          },
          process.stdout,
        );
      },
    );
}
