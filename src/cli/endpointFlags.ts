/**
 * The flags of the commands that send requests to an endpoint (`replay`, `eval run`), declared once: where to, as
 * which model, how guided decoding is asked for, with which key; and the structural tag's shape on the wire.
 */
import { Option, type Command } from 'commander';
import { formatNames, getFormat } from '../core/formats/registry.ts';

/** Toolscope's own tag on the wire in the shape asked for; without one, the engine's default way (guidedRequest.ts). */
/** Every format's structural-tag shapes (Kimi K2: xgrammar-kimi, pr36891; the others: xgrammar's own). */
function tagShapes(): string[] {
  return [...new Set(formatNames().flatMap((name) => getFormat(name).guided?.shapes ?? []))];
}

/** `--tag-shape <shape>`. */
export const tagShapeOption = () =>
  new Option(
    '--tag-shape <shape>',
    "also send the record's format's structural tag in this shape (vLLM: beside strict tools; SGLang and completions mode always send one); a shape of another format leaves the record's default",
  ).choices(tagShapes());

/** `--endpoint`, `--model`, `--engine`, `--api-key-env`, `--guided`: what the endpoint is and how it is asked. */
export function withEndpointOptions(
  command: Command,
  { endpointHelp, guidedDefault }: { endpointHelp: string; guidedDefault: string },
): Command {
  return command
    .option('--endpoint <url>', endpointHelp)
    .option('--model <name>', 'model name to send')
    .addOption(new Option('--engine <engine>', 'how guided decoding is requested').choices(['vllm', 'sglang', 'openai']).default('vllm'))
    .option('--api-key-env <var>', 'environment variable holding the API key', 'TOOLSCOPE_API_KEY')
    .addOption(new Option('--guided <mode>', 'guided decoding').choices(['off', 'on', 'both']).default(guidedDefault));
}
