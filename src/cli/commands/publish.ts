/**
 * `toolscope publish`: the command declares itself here, its flags beside its action. The action loads the command's
 * work (src/cli/publishCommand.ts) when it runs, so that the CLI starts without every command's modules.
 */
import { Option, type Command } from 'commander';
import { InputError } from '../inputError.ts';
import type { TargetName } from '../../core/publish/publishTarget.ts';

/** `toolscope publish`: its flags and its action. */
export function registerPublish(program: Command): void {
  program
    .command('publish')
    .description(
      'send findings where traces are browsed: Langfuse scores, Phoenix span annotations or OpenTelemetry gen_ai.evaluation.result events (keys from the environment only; docs/publish.md)',
    )
    .argument('<paths...>', 'trace files or directories of .jsonl files')
    .addOption(new Option('--to <target>', 'where to send them').choices(['langfuse', 'phoenix', 'otlp']).makeOptionMandatory())
    .option('--url <url>', 'the server (default: LANGFUSE_HOST, PHOENIX_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT; docs/publish.md)')
    .option('--dry-run', 'print each request that would be sent (headers by name only) and send nothing')
    .option('--no-guided', 'skip the guided-decoding what-if (its findings are not sent)')
    .option('--retries <n>', 'retries on 429/5xx/connection errors (waits: min(2·2^n, 60) s, Retry-After up to 60 s)', (v) => Number(v), 3)
    .option('--batch-size <n>', 'items per request, at most the target allows (Langfuse 1, Phoenix 100, OTLP 512)', (v) => Number(v))
    .action(
      async (
        paths: string[],
        opts: { to: TargetName; url?: string; dryRun?: boolean; guided: boolean; retries: number; batchSize?: number },
      ) => {
        if (!Number.isInteger(opts.retries) || opts.retries < 0) throw new InputError('--retries takes a whole number, 0 or more');
        if (opts.batchSize !== undefined && !(Number.isInteger(opts.batchSize) && opts.batchSize >= 1))
          throw new InputError('--batch-size takes a whole number, 1 or more');
        const { publishCommand } = await import('../publishCommand.ts');
        const { code } = await publishCommand(
          paths,
          { to: opts.to, url: opts.url, dryRun: opts.dryRun, guided: opts.guided, retries: opts.retries, batchSize: opts.batchSize },
          process.stdout,
          process.stderr,
        );
        process.exitCode = code;
      },
    );
}
