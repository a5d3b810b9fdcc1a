/**
 * `toolscope eval <samples.jsonl>`: a K2-Vendor-Verifier style run against an endpoint (the embedded one by
 * default), guided decoding off / on / both, with a progress bar, resumable results in K2VV's line format and
 * the blog's table at the end.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import { runBatch, doneIndices, type EvalSample } from '../core/eval/batchRun.ts';
import { loadK2vvResults } from '../core/eval/loadResults.ts';
import { summarize, triggerScores } from '../core/eval/k2vvMetrics.ts';
import { normalizeBaseUrl, type Endpoint, type Engine } from '../core/replay/endpoint.ts';
import type { StructuralTagBuilder } from '../core/replay/guidedRequest.ts';
import { startServer, type OutputConstraint, type RunningServer } from '../core/server/openAiServer.ts';
import { InputError } from './analyzeCommand.ts';
import type { GuidedChoice } from './replayCommand.ts';
import { loadSamples as loadSampleFile } from '../core/eval/loadSamples.ts';
import { appendProblem } from '../core/trace/traceWriter.ts';

export interface EvalRunOptions {
  endpoint?: string;
  model?: string;
  engine: Engine;
  apiKeyEnv: string;
  guided: GuidedChoice;
  concurrency: number;
  timeoutS: number;
  limit?: number;
  outDir: string;
  resume: boolean;
  reference?: string;
  json?: boolean;
  hallucinate?: number;
  seed?: number;
  /** Largest answer read per request, in MB (decoded). */
  maxAnswerMb?: number;
  buildTag?: StructuralTagBuilder;
  constraint?: OutputConstraint;
}

export async function loadSamples(path: string, limit?: number): Promise<EvalSample[]> {
  let loaded;
  try {
    loaded = await loadSampleFile(path, limit);
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const e of loaded.errors) process.stderr.write(`toolscope: ${path}: ${e.message}\n`);
  if (!loaded.samples.length) throw new InputError(`${path} holds no chat requests to evaluate`);
  return loaded.samples;
}

export async function evalRunCommand(path: string, options: EvalRunOptions, out: NodeJS.WritableStream & { isTTY?: boolean }): Promise<number> {
  if (!(options.concurrency >= 1)) throw new InputError('--concurrency takes a whole number ≥ 1');
  const samples = await loadSamples(path, options.limit);
  const modes = options.guided === 'both' ? [false, true] : [options.guided === 'on'];
  const fileFor = (guided: boolean) => join(options.outDir, `results.guided-${guided ? 'on' : 'off'}.jsonl`);
  // Before any request: a run whose results cannot be written is not started.
  try {
    await mkdir(options.outDir, { recursive: true });
  } catch (err) {
    throw new InputError(`cannot write results to ${options.outDir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const guided of modes) {
    const problem = await appendProblem(fileFor(guided), [path]);
    if (problem) throw new InputError(problem);
  }
  let embedded: RunningServer | null = null;
  let endpoint: Endpoint;
  if (options.endpoint) {
    endpoint = { name: 'cli', baseUrl: normalizeBaseUrl(options.endpoint), model: options.model ?? 'default', engine: options.engine };
  } else {
    embedded = await startServer({ hallucinate: options.hallucinate, seed: options.seed, constraint: options.constraint });
    endpoint = { name: 'embedded', baseUrl: embedded.url, model: options.model ?? 'toolscope-sim-kimi-k2', engine: options.engine };
  }
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const tty = Boolean((process.stderr as { isTTY?: boolean }).isTTY);
  const rows: Array<{ mode: string; file: string }> = [];
  let failedRequests = 0;
  try {
    for (const guided of modes) {
      const file = fileFor(guided);
      const skip = options.resume ? await doneIndices(file) : new Set<number>();
      const todo = samples.filter((s) => !skip.has(s.dataIndex)).length;
      const label = `guided ${guided ? 'on ' : 'off'}`;
      const bar = tty ? new SingleBar({ format: `${label} [{bar}] {value}/{total} · {errors} failed · {eta_formatted} left`, hideCursor: true, stream: process.stderr }) : null;
      bar?.start(todo, 0, { errors: 0 });
      let done = 0;
      let failed = 0;
      if (!tty) process.stderr.write(`${label}: ${todo} requests${skip.size ? ` (${skip.size} already done)` : ''} → ${file}\n`);
      await runBatch(samples, {
        endpoint,
        apiKey: process.env[options.apiKeyEnv] || undefined,
        guided,
        outFile: file,
        concurrency: options.concurrency,
        timeoutMs: options.timeoutS * 1000,
        retries: 5,
        ...(options.maxAnswerMb ? { maxAnswerBytes: Math.floor(options.maxAnswerMb * 1024 * 1024) } : {}),
        buildTag: options.buildTag,
        signal: abort.signal,
        skip,
        onResult: (line) => {
          done++;
          if (line.status === 'failed') {
            failed++;
            failedRequests++;
          }
          bar?.update(done, { errors: failed });
          if (!tty && (done % 25 === 0 || done === todo)) process.stderr.write(`${label}: ${done}/${todo}\n`);
        },
      });
      bar?.stop();
      rows.push({ mode: label.trim(), file });
      if (abort.signal.aborted) {
        process.stderr.write(`toolscope: cancelled; finished results are in ${file} (rerun with --resume to continue)\n`);
        return 130;
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    await embedded?.close();
  }
  const reference = options.reference ? (await loadK2vvResults(options.reference)).results : null;
  const table = [];
  for (const { mode, file } of rows) {
    const { results } = await loadK2vvResults(file);
    const s = summarize(results);
    const f1 = reference ? triggerScores(results, reference).f1 : null;
    table.push({ mode, requests: results.length, ...s, f1, file });
  }
  // Failed requests are in the results (K2VV counts them); the exit code says the run was not clean.
  const status = failedRequests ? 1 : 0;
  if (failedRequests) process.stderr.write(`toolscope: ${failedRequests} request${failedRequests === 1 ? '' : 's'} failed (their "response.error" says why); --resume retries them\n`);
  if (options.json) {
    for (const row of table) out.write(JSON.stringify(row) + '\n');
    return status;
  }
  const header = ['', 'requests', 'stop', 'tool_calls', 'others', 'tool calls ok', 'schema errors', 'schema accuracy', ...(reference ? ['trigger F1'] : [])];
  const lines = table.map((r) => [
    r.mode,
    String(r.requests),
    String(r.finish_stop),
    String(r.finish_tool_calls),
    String(r.finish_others),
    String(r.successful_tool_call_count),
    String(r.schema_validation_error_count),
    r.schema_accuracy === null ? 'n/a' : `${(r.schema_accuracy * 100).toFixed(2)}%`,
    ...(reference ? [r.f1 === null ? 'n/a' : `${(r.f1 * 100).toFixed(2)}%`] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  out.write(fmt(header) + '\n');
  for (const l of lines) out.write(fmt(l) + '\n');
  out.write(`Results: ${rows.map((r) => r.file).join(', ')}\n`);
  return status;
}
