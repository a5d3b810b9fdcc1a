/**
 * `toolscope tokens`: the command declares itself here, its flags beside its action. The action loads the command's work
 * (src/cli/*Command.ts) when it runs, so that the CLI starts without every command's modules.
 */
import { Option, type Command } from 'commander';
import { formatNames } from '../../core/formats/registry.ts';
import { TOKENIZER_HELP, tokenizerPaths } from '../analysisFlags.ts';

/** `toolscope tokens`: its flags and its action. */
export function registerTokens(program: Command): void {
  program
    .command('tokens')
    .description(
      "print each record's completion tokens with their ids, and where the ids come from (recorded, re-encoded by the model's tokenizer, approximate)",
    )
    .argument('<paths...>', 'trace files or directories of .jsonl files')
    .option('--json', 'one JSON object per record: {"id", "line", "tokenizer", "source", "exact", "tokens": [{"text", "id"}]}')
    .option('--tokenizer <path>', TOKENIZER_HELP)
    .addOption(new Option('--format <name>', 'tool-call format (default: detected per record)').choices(formatNames()))
    .action(async (paths: string[], opts: { json?: boolean; tokenizer?: string; format?: string }) => {
      const { tokensCommand } = await import('../tokensCommand.ts');
      process.exitCode = await tokensCommand(
        paths,
        { json: opts.json, format: opts.format, tokenizers: tokenizerPaths(opts.tokenizer) },
        process.stdout,
      );
    });
}
