/**
 * One evaluation run, the same for `toolscope eval` and the editor's Evaluate Samples… (both are thin glue over it):
 * the endpoint (the user's, or the embedded simulator, whose model name the server gives), guided decoding off / on /
 * both, one K2VV results file per setting in the output folder, all samples or — by `run:data_index` keys read from
 * what is there — the missing ones (resume) or the failed ones (rerun), progress per result and cancel.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import { toolCallsValid } from '../../host/eval/k2vvMetrics.ts';
import { latestPerSample } from '../../host/eval/evalFigures.ts';
import { loadK2vvResults } from '../../host/eval/loadResults.ts';
import { appendProblem } from '../../io/trace/traceWriter.ts';
import type { Endpoint, Engine } from '../replay/endpoint.ts';
import { guidedModes, RunSetupError, type GuidedChoice } from '../replay/replayRun.ts';
import { startServer, type OutputConstraint, type RunningServer } from '../server/openAiServer.ts';
import { doneKeys, runBatch, type EvalSample, type K2vvResultLine } from './batchRun.ts';

/** Where requests go: an endpoint (with its key), or the embedded simulator started for the run. */
export type EvalTarget =
  | { endpoint: Endpoint; apiKey?: string }
  | {
      embedded: {
        engine?: Engine;
        model?: string;
        /** Share of broken answers, and the seed that picks them. */
        hallucinate?: number;
        seed?: number;
        /** The tool-call format its simulated model writes (Kimi K2 by default). */
        format?: string;
        constraint?: OutputConstraint;
      };
    };

/** Which samples a run does: all, those without a success in the results file (resume), or those failed or rejected. */
export type EvalRedo = 'all' | 'missing' | 'failed';

export interface EvalRunOptions {
  samples: EvalSample[];
  /** The samples file: never written; its name goes into every result line's run parameters. */
  samplesPath: string;
  target: EvalTarget;
  guided: GuidedChoice;
  outDir: string;
  concurrency: number;
  timeoutMs: number;
  retries: number;
  maxAnswerBytes?: number;
  tagShape?: string;
  /** Runs per sample (default 1). */
  repeat?: number;
  redo?: EvalRedo;
  /** More run parameters for the result lines (`limit`), and the tool's version. */
  runInfo?: Record<string, unknown>;
  toolVersion?: string;
  signal?: AbortSignal;
  /** A setting starts: its results file, how many requests it sends and how many were done before. */
  onStart?: (start: { guided: boolean; file: string; todo: number; done: number }) => void;
  onResult?: (guided: boolean, line: K2vvResultLine) => void;
}

export interface EvalRunResult {
  endpoint: Endpoint;
  /** The settings run, in order, with their results files. */
  runs: Array<{ guided: boolean; label: string; file: string }>;
  failedRequests: number;
  aborted: boolean;
}

/** The results file of one guided setting in a run's folder. */
export function resultsFile(outDir: string, guided: boolean): string {
  return join(outDir, `results.guided-${guided ? 'on' : 'off'}.jsonl`);
}

/** Which (run, data_index) this run does, from the keys in the results file (the one resume reader). */
async function wanted(file: string, redo: EvalRedo): Promise<(run: number, index: number) => boolean> {
  if (redo === 'missing') {
    const done = await doneKeys(file);
    return (run, index) => !done.has(`${run}:${index}`);
  }
  if (redo === 'failed') {
    const failed = new Set<string>();
    if (existsSync(file)) {
      const schemas = new ToolSchemas();
      for (const r of latestPerSample((await loadK2vvResults(file)).results)) {
        const rejected = r.status !== 'success' || (r.finishReason === 'tool_calls' && !toolCallsValid(r.record, schemas));
        if (rejected) failed.add(`${r.run}:${r.dataIndex}`);
      }
    }
    return (run, index) => failed.has(`${run}:${index}`);
  }
  return () => true;
}

export async function runEval(options: EvalRunOptions): Promise<EvalRunResult> {
  const repeat = options.repeat ?? 1;
  const modes = guidedModes(options.guided);
  // Before any request: a run whose results cannot be written is not started.
  try {
    await mkdir(options.outDir, { recursive: true });
  } catch (err) {
    throw new RunSetupError(`cannot write results to ${options.outDir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const guided of modes) {
    const problem = await appendProblem(resultsFile(options.outDir, guided), [options.samplesPath]);
    if (problem) throw new RunSetupError(problem);
  }
  let embedded: RunningServer | null = null;
  let endpoint: Endpoint;
  let apiKey: string | undefined;
  const sim = 'embedded' in options.target ? options.target.embedded : null;
  if ('endpoint' in options.target) {
    endpoint = options.target.endpoint;
    apiKey = options.target.apiKey;
  } else {
    const { engine, model, hallucinate, seed, format, constraint } = options.target.embedded;
    embedded = await startServer({
      hallucinate,
      seed,
      ...(constraint ? { constraint } : {}),
      ...(format ? { format } : {}),
    });
    endpoint = { name: 'embedded', baseUrl: embedded.url, model: model ?? embedded.model, engine: engine ?? 'vllm' };
  }
  const runs: EvalRunResult['runs'] = [];
  let failedRequests = 0;
  try {
    for (const guided of modes) {
      if (options.signal?.aborted) break;
      const file = resultsFile(options.outDir, guided);
      const want = await wanted(file, options.redo ?? 'all');
      let todo = 0;
      for (let run = 1; run <= repeat; run++) for (const s of options.samples) if (want(run, s.dataIndex)) todo++;
      options.onStart?.({ guided, file, todo, done: options.samples.length * repeat - todo });
      await runBatch(options.samples, {
        endpoint,
        apiKey,
        guided,
        outFile: file,
        concurrency: options.concurrency,
        timeoutMs: options.timeoutMs,
        retries: options.retries,
        ...(options.maxAnswerBytes ? { maxAnswerBytes: options.maxAnswerBytes } : {}),
        tagShape: options.tagShape,
        signal: options.signal,
        repeat,
        want,
        runInfo: {
          version: options.toolVersion ?? 'dev',
          samples: basename(options.samplesPath),
          endpoint: endpoint.baseUrl,
          model: endpoint.model,
          engine: endpoint.engine,
          guided,
          repeat,
          concurrency: options.concurrency,
          timeout_s: options.timeoutMs / 1000,
          ...options.runInfo,
          // The embedded endpoint's scripted answers: every line says so, and every view keeps them apart from a model's.
          ...(sim ? { simulated: true, hallucinate: sim.hallucinate ?? 0, seed: sim.seed ?? 0 } : {}),
        },
        onResult: (line) => {
          if (line.status === 'failed') failedRequests++;
          options.onResult?.(guided, line);
        },
      });
      runs.push({ guided, label: `guided ${guided ? 'on' : 'off'}`, file });
    }
  } finally {
    await embedded?.close();
  }
  return { endpoint, runs, failedRequests, aborted: Boolean(options.signal?.aborted) };
}
