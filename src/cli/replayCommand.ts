/**
 * `toolscope replay <trace>`: replays records against an endpoint (the embedded one when none is given) with
 * guided decoding off, on, or both, writes each replay as a new record beside the trace, and shows the
 * original and the replays side by side: calls and findings.
 */
import { readFile } from 'node:fs/promises';
import type { AnalyzedRecord } from '../core/analysis.ts';
import { worstSeverity } from '../core/diagnostics/diagnostic.ts';
import { ENGINES, normalizeBaseUrl, type Endpoint, type Engine } from '../net/replay/endpoint.ts';
import type { ReplayMode } from '../net/replay/replay.ts';
import { isReplayable, runReplay, RunSetupError, type GuidedChoice, type ReplayedRecord, type RunTarget } from '../net/replay/replayRun.ts';
import type { OutputConstraint } from '../net/server/openAiServer.ts';
import { loadAll } from '../io/trace/loadTrace.ts';
import type { LoadedRecord } from '../core/trace/record.ts';
import { InputError } from './analyzeCommand.ts';
import { terminalStyle } from '../host/report/terminalStyle.ts';

export type { GuidedChoice };

export interface ReplayCommandOptions {
  records?: string[];
  endpoint?: string;
  model?: string;
  engine: Engine;
  apiKeyEnv: string;
  guided: GuidedChoice;
  mode: ReplayMode;
  template?: string;
  out?: string;
  json?: boolean;
  timeoutS: number;
  retries: number;
  /** Largest answer read, in MB (decoded). */
  maxAnswerMb?: number;
  /** `--tag-shape`. */
  tagShape?: string;
  /** The embedded endpoint's guided decoding (tests). */
  constraint?: OutputConstraint;
}

function pickRecords(all: LoadedRecord[], ids: string[] | undefined): LoadedRecord[] {
  if (ids?.length) {
    return ids.map((id) => {
      const found = all.find((r) => r.record.id === id);
      if (!found)
        throw new InputError(
          `no record with id "${id}" (ids here: ${all
            .slice(0, 8)
            .map((r) => r.record.id)
            .join(', ')}${all.length > 8 ? ', …' : ''})`,
        );
      if (!isReplayable(found)) throw new InputError(`record "${id}" has no chat request to replay`);
      return found;
    });
  }
  const first = all.find(isReplayable);
  if (!first) throw new InputError('no record in this trace has a chat request to replay');
  return [first];
}

function callsLine(a: AnalyzedRecord): string {
  if (a.error) return `failed: ${a.error.split('\n')[0]}`;
  if (!a.calls.length) return `no calls; content ${JSON.stringify((a.content ?? '').slice(0, 60))}`;
  return a.calls.map((c) => `${c.name}(${c.arguments.length > 60 ? c.arguments.slice(0, 57) + '...' : c.arguments})`).join(', ');
}

export async function replayCommand(
  trace: string,
  options: ReplayCommandOptions,
  out: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<number> {
  let loaded;
  try {
    loaded = await loadAll(trace);
  } catch (err) {
    throw new InputError(`cannot read ${trace}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const chosen = pickRecords(loaded.records, options.records);
  const template = options.template
    ? {
        source: await readFile(options.template, 'utf8').catch(() => {
          throw new InputError(`cannot read the template ${options.template}`);
        }),
        label: options.template,
      }
    : undefined;
  const target: RunTarget = options.endpoint
    ? {
        endpoint: { name: 'cli', baseUrl: normalizeBaseUrl(options.endpoint), model: options.model ?? 'default', engine: options.engine },
        apiKey: process.env[options.apiKeyEnv] || undefined,
      }
    : { embedded: { engine: options.engine, model: options.model, constraint: options.constraint } };
  const style = terminalStyle(out);
  const write = (s: string) => out.write(s + '\n');
  const print = ({ original, rows, written }: ReplayedRecord, endpoint: Endpoint): void => {
    if (options.json) {
      for (const r of written) write(JSON.stringify(r));
      return;
    }
    write(style.bold(`#${original.record.id}`) + style.dim(` replayed on ${endpoint.baseUrl} (${endpoint.engine}, ${options.mode} mode)`));
    for (const { label, analyzed: a } of rows) {
      const worst = a.error ? 'error' : worstSeverity(a.diagnostics);
      const mark = worst === 'error' ? style.red('✖') : worst === 'warning' ? style.yellow('▲') : style.green('✔');
      write(`  ${mark} ${label.padEnd(11)} ${callsLine(a)}`);
      const kinds = [...new Set(a.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.kind}`))];
      if (kinds.length) write(`                ${style.dim(kinds.join(', '))}`);
    }
  };
  let run;
  try {
    run = await runReplay({
      trace,
      records: loaded.records,
      chosen,
      target,
      guided: options.guided,
      mode: options.mode,
      template,
      tagShape: options.tagShape,
      timeoutMs: options.timeoutS * 1000,
      retries: options.retries,
      ...(options.maxAnswerMb ? { maxAnswerBytes: Math.floor(options.maxAnswerMb * 1024 * 1024) } : {}),
      out: options.out,
      onRecordDone: print,
      onRetry: (n, delay, e) => process.stderr.write(`toolscope: ${e.message}; retry ${n} in ${(delay / 1000).toFixed(1)} s\n`),
      onGuidedProblem: (id, reason) =>
        process.stderr.write(`toolscope: guided replay of ${id}: ${reason}; the server will likely refuse it\n`),
    });
  } catch (err) {
    if (err instanceof RunSetupError) throw new InputError(err.message);
    throw err;
  }
  if (!options.json) write(`Replays appended to ${run.outPath}`);
  return run.failures ? 1 : 0;
}

export function parseEngine(value: string): Engine {
  if (!(ENGINES as readonly string[]).includes(value)) throw new InputError(`--engine must be one of ${ENGINES.join(', ')}`);
  return value as Engine;
}
