/**
 * `toolscope replay`: the command declares itself here, its flags beside its action. The action loads the command's work
 * (src/cli/*Command.ts) when it runs, so that the CLI starts without every command's modules.
 */
import { Option, type Command } from 'commander';
import { InputError } from '../inputError.ts';
import type { GuidedChoice } from '../replayCommand.ts';
import type { ReplayMode } from '../../net/replay/replay.ts';
import { tagShapeOption, withEndpointOptions } from '../endpointFlags.ts';

/** `toolscope replay`: its flags (the endpoint group, endpointFlags.ts, and its own) and its action. */
export function registerReplay(program: Command): void {
  const replay = program
    .command('replay')
    .description('replay recorded requests against an endpoint (the embedded one by default), guided decoding off/on/both')
    .argument('<trace>', 'the trace holding the request')
    .option('--record <id...>', 'record id(s) to replay (default: the first record with a request)');
  withEndpointOptions(replay, {
    endpointHelp: 'OpenAI-compatible base URL (default: start the embedded endpoint in-process)',
    guidedDefault: 'off',
  })
    .addOption(
      new Option('--mode <mode>', 'chat (/v1/chat/completions) or completions (raw text via client-side template)')
        .choices(['chat', 'completions'])
        .default('chat'),
    )
    .option('--template <file>', 'chat template (.jinja) for completions mode')
    .addOption(tagShapeOption())
    .option('--out <file>', 'where to append the replays (default: <trace>.replays.jsonl beside it)')
    .option('--json', 'print the written records as JSON Lines')
    .option('--timeout <seconds>', 'per replay, retries and their waits included', (v) => Number(v), 600)
    .option('--retries <n>', 'retries on 429/5xx/connection errors (waits: min(2·2^n, 60) s, Retry-After up to 60 s)', (v) => Number(v), 2)
    .option('--max-answer <MB>', 'largest answer read (decoded); past it the replay fails and keeps what came', (v) => Number(v), 64)
    .action(
      async (
        trace: string,
        opts: {
          record?: string[];
          endpoint?: string;
          model?: string;
          engine: string;
          apiKeyEnv: string;
          guided: GuidedChoice;
          mode: ReplayMode;
          template?: string;
          out?: string;
          json?: boolean;
          timeout: number;
          retries: number;
          maxAnswer: number;
          tagShape?: string;
        },
      ) => {
        if (!(opts.timeout > 0)) throw new InputError('--timeout takes a positive number of seconds');
        if (!(opts.maxAnswer > 0)) throw new InputError('--max-answer takes a positive number of MB');
        const { parseEngine, replayCommand } = await import('../replayCommand.ts');
        process.exitCode = await replayCommand(
          trace,
          {
            records: opts.record,
            endpoint: opts.endpoint,
            model: opts.model,
            engine: parseEngine(opts.engine),
            apiKeyEnv: opts.apiKeyEnv,
            guided: opts.guided,
            mode: opts.mode,
            template: opts.template,
            out: opts.out,
            json: opts.json,
            timeoutS: opts.timeout,
            retries: opts.retries,
            maxAnswerMb: opts.maxAnswer,
            tagShape: opts.tagShape,
          },
          process.stdout,
        );
      },
    );
}
