/**
 * `toolscope replay <trace>`: replays records against an endpoint (the embedded one when none is given) with
 * guided decoding off, on, or both, writes each replay as a new record beside the trace, and shows the
 * original and the replays side by side: calls and findings.
 */
import { readFile } from 'node:fs/promises';
import { Analyzer, type AnalyzedRecord } from '../core/analysis.ts';
import { worstSeverity } from '../core/diagnostics/diagnostic.ts';
import { ENGINES, normalizeBaseUrl, type Endpoint, type Engine } from '../net/replay/endpoint.ts';
import { replayRecord, type ReplayMode } from '../net/replay/replay.ts';
import { startServer, type OutputConstraint, type RunningServer } from '../net/server/openAiServer.ts';
import { loadAll } from '../io/trace/loadTrace.ts';
import type { LoadedRecord, TraceRecord } from '../core/trace/record.ts';
import { appendProblem, appendRecords, siblingReplaysPath } from '../io/trace/traceWriter.ts';
import { InputError } from './analyzeCommand.ts';
import { terminalStyle } from '../host/report/terminalStyle.ts';
import { nodeServices } from '../io/nodeServices.ts';

export type GuidedChoice = 'off' | 'on' | 'both';

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
  /** Guided decoding pieces from src/core/guided, when loaded. */
  /** `--tag-shape`. */
  tagShape?: string;
  constraint?: OutputConstraint;
}

function pickRecords(all: LoadedRecord[], ids: string[] | undefined): LoadedRecord[] {
  const replayable = all.filter((r) => Array.isArray(r.record.request?.messages));
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
      if (!replayable.includes(found)) throw new InputError(`record "${id}" has no chat request to replay`);
      return found;
    });
  }
  const first = replayable[0];
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
  const apiKey = process.env[options.apiKeyEnv] || undefined;
  const outPath = options.out ?? siblingReplaysPath(trace);
  // Before any request: a run whose results cannot be written is not started.
  const outProblem = await appendProblem(outPath, [trace]);
  if (outProblem) throw new InputError(outProblem);
  let embedded: RunningServer | null = null;
  let endpoint: Endpoint;
  if (options.endpoint) {
    endpoint = { name: 'cli', baseUrl: normalizeBaseUrl(options.endpoint), model: options.model ?? 'default', engine: options.engine };
  } else {
    // The embedded endpoint answers with the trace's own completions, so a replay reproduces the recording.
    embedded = await startServer({ script: loaded.records.map((r) => r.record), constraint: options.constraint });
    endpoint = { name: 'embedded', baseUrl: embedded.url, model: options.model ?? 'toolscope-sim-kimi-k2', engine: options.engine };
  }
  const style = terminalStyle(out);
  const write = (s: string) => out.write(s + '\n');
  const analyzer = new Analyzer({}, nodeServices());
  const modes: boolean[] = options.guided === 'both' ? [false, true] : [options.guided === 'on'];
  let failures = 0;
  try {
    for (const original of chosen) {
      const written: TraceRecord[] = [];
      const rows: Array<{ label: string; a: AnalyzedRecord }> = [{ label: 'recorded', a: analyzer.analyze(original) }];
      for (const guided of modes) {
        const { record, error } = await replayRecord(original.record, {
          endpoint,
          apiKey,
          mode: options.mode,
          guided,
          template,
          tagShape: options.tagShape,
          timeoutMs: options.timeoutS * 1000,
          retries: options.retries,
          ...(options.maxAnswerMb ? { maxAnswerBytes: Math.floor(options.maxAnswerMb * 1024 * 1024) } : {}),
          onRetry: (n, delay, e) => process.stderr.write(`toolscope: ${e.message}; retry ${n} in ${(delay / 1000).toFixed(1)} s\n`),
          onGuidedProblem: (reason) =>
            process.stderr.write(`toolscope: guided replay of ${original.record.id}: ${reason}; the server will likely refuse it\n`),
        });
        if (error) failures++;
        written.push(record);
        rows.push({ label: `guided ${guided ? 'on' : 'off'}`, a: analyzer.analyze({ record, line: 0, lastLine: 0, source: 'native' }) });
      }
      await appendRecords(outPath, written, [trace]);
      if (options.json) {
        for (const r of written) write(JSON.stringify(r));
        continue;
      }
      write(
        style.bold(`#${original.record.id}`) + style.dim(` replayed on ${endpoint.baseUrl} (${endpoint.engine}, ${options.mode} mode)`),
      );
      for (const { label, a } of rows) {
        const worst = a.error ? 'error' : worstSeverity(a.diagnostics);
        const mark = worst === 'error' ? style.red('✖') : worst === 'warning' ? style.yellow('▲') : style.green('✔');
        write(`  ${mark} ${label.padEnd(11)} ${callsLine(a)}`);
        const kinds = [...new Set(a.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.kind}`))];
        if (kinds.length) write(`                ${style.dim(kinds.join(', '))}`);
      }
    }
    if (!options.json) write(`Replays appended to ${outPath}`);
  } finally {
    await embedded?.close();
  }
  return failures ? 1 : 0;
}

export function parseEngine(value: string): Engine {
  if (!(ENGINES as readonly string[]).includes(value)) throw new InputError(`--engine must be one of ${ENGINES.join(', ')}`);
  return value as Engine;
}
