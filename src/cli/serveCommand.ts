/** `toolscope serve`: the embedded OpenAI-compatible endpoint, as a process (a simulator, not a model). */
import { loadAll } from '../io/trace/loadTrace.ts';
import { startServer } from '../net/server/openAiServer.ts';
import type { TraceRecord } from '../core/trace/record.ts';
import { InputError } from './analyzeCommand.ts';
import { getFormat } from '../core/formats/registry.ts';
import type { VllmGeneration } from '../core/formats/engineRun.ts';

export interface ServeOptions {
  port: number;
  host: string;
  script?: string;
  hallucinate?: number;
  seed?: number;
  model?: string;
  tokenDelayMs?: number;
  /** Parse tool calls as this vLLM generation does (bugs included) instead of with the reference parser. */
  vllmProfile?: VllmGeneration;
  /** The tool-call format the simulated model writes (Kimi K2 by default). */
  format?: string;
}

export async function loadScript(path: string): Promise<TraceRecord[]> {
  try {
    const { records } = await loadAll(path);
    return records.map((r) => r.record);
  } catch (err) {
    throw new InputError(`cannot read the script ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export async function serveCommand(options: ServeOptions, out: NodeJS.WritableStream): Promise<void> {
  if (options.hallucinate !== undefined && !(options.hallucinate >= 0 && options.hallucinate <= 1))
    throw new InputError('--hallucinate takes a rate between 0 and 1');
  if (options.host !== '127.0.0.1' && options.host !== 'localhost' && options.host !== '::1') {
    process.stderr.write(`toolscope: warning: listening on ${options.host} exposes the simulator beyond this machine\n`);
  }
  const script = options.script ? await loadScript(options.script) : [];
  if (options.vllmProfile && options.format && !getFormat(options.format).engineProfiles)
    throw new InputError(`--vllm-profile replays Kimi K2's vLLM parser generations; the ${options.format} format has none`);
  const server = await startServer({
    ...(options.format ? { format: options.format } : {}),
    port: options.port,
    host: options.host,
    script,
    hallucinate: options.hallucinate,
    seed: options.seed,
    model: options.model,
    tokenDelayMs: options.tokenDelayMs,
    vllmProfile: options.vllmProfile,
  });
  out.write(`Listening on ${server.url}\n`);
  out.write(
    `(Toolscope's embedded endpoint: a scripted simulator, not a model — "${server.model}". ${script.length} script records. Ctrl+C stops it.)\n`,
  );
  if (options.vllmProfile)
    out.write(`(Tool calls are parsed the way vLLM generation ${options.vllmProfile}'s Kimi K2 parser does, its bugs included.)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      void server.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
