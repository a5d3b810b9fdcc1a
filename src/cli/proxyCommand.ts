/** `toolscope proxy`: the recording proxy as a process. Ctrl+C finishes the exchanges in flight, then stops. */
import { resolve } from 'node:path';
import { ENGINES, normalizeBaseUrl, type Engine } from '../net/replay/endpoint.ts';
import { startRecordingProxy, type ExchangeSummary } from '../net/capture/recordingProxy.ts';
import { InputError } from './analyzeCommand.ts';

export interface ProxyOptions {
  upstream: string;
  port: number;
  host: string;
  out: string;
  captureTokens?: boolean;
  engine: string;
  /** Megabytes (MiB). */
  maxSize?: number;
  timeoutS: number;
  apiKeyEnv?: string;
  quiet?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function summaryLine(s: ExchangeSummary): string {
  const what = s.streamed ? `stream, ${s.events} events` : 'whole';
  const status = s.status === null ? '---' : String(s.status);
  return `${s.id}  ${s.method} ${s.path}  ${status}  ${what}  ${Math.round(s.totalMs)} ms${s.error ? `  ! ${s.error.length > 160 ? `${s.error.slice(0, 160)}…` : s.error}` : ''}`;
}

export async function proxyCommand(
  options: ProxyOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  if (!(ENGINES as readonly string[]).includes(options.engine)) throw new InputError(`--engine takes ${ENGINES.join(', ')}`);
  if (options.maxSize !== undefined && !(options.maxSize > 0)) throw new InputError('--max-size takes a positive number of megabytes');
  if (!(options.timeoutS > 0)) throw new InputError('--timeout takes a positive number of seconds');
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    throw new InputError('--port takes 0 (any free port) to 65535');
  let upstream: string;
  try {
    upstream = normalizeBaseUrl(options.upstream);
  } catch {
    throw new InputError(`--upstream: "${options.upstream}" is not a URL`);
  }
  const parsed = new URL(upstream);
  if (parsed.username || parsed.password)
    throw new InputError('--upstream: put no credentials in the URL; pass the key with --api-key-env');
  let apiKey: string | undefined;
  if (options.apiKeyEnv) {
    apiKey = process.env[options.apiKeyEnv];
    if (!apiKey) throw new InputError(`--api-key-env: the variable ${options.apiKeyEnv} is not set`);
  }
  if (!LOOPBACK.has(options.host)) {
    err.write(
      `toolscope: warning: listening on ${options.host}: anyone who can reach it can send requests to the upstream${apiKey ? ' with your API key' : ''}, and every exchange is recorded\n`,
    );
  }
  const outPath = resolve(options.out);
  const proxy = await startRecordingProxy({
    upstream,
    out: outPath,
    host: options.host,
    port: options.port,
    captureTokens: options.captureTokens,
    engine: options.engine as Engine,
    maxBytes: options.maxSize === undefined ? undefined : Math.round(options.maxSize * 1024 * 1024),
    timeoutMs: options.timeoutS * 1000,
    apiKey,
    onExchange: (s) => {
      if (!options.quiet) out.write(summaryLine(s) + '\n');
    },
    onRotate: (path) => out.write(`Recording to ${path} (rotated at --max-size)\n`),
    onError: (e) => err.write(`toolscope: ${e instanceof Error ? e.message : String(e)}\n`),
  });
  out.write(`Listening on ${proxy.url}\n`);
  out.write(
    `Recording to ${proxy.currentFile}; forwarding to ${proxy.upstream}${options.captureTokens ? `; capturing tokens (${options.engine})` : ''}. Ctrl+C stops.\n`,
  );
  await new Promise<void>((done) => {
    let stopping = false;
    const stop = () => {
      // A second Ctrl+C stops at once: exchanges still in flight are aborted (and recorded as such).
      const graceMs = stopping ? 0 : 5000;
      if (!stopping) err.write('toolscope: stopping; waiting up to 5 s for exchanges in flight (Ctrl+C again to abort them)\n');
      stopping = true;
      void proxy.close({ graceMs }).then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  out.write(`Stopped: ${proxy.recorded} exchange${proxy.recorded === 1 ? '' : 's'} recorded (last file: ${proxy.currentFile})\n`);
  return 0;
}
