/**
 * `toolscope eval <samples.jsonl>`: a K2-Vendor-Verifier style run against an endpoint (the embedded one by
 * default), guided decoding off / on / both, with a progress bar, resumable results in K2VV's line format and
 * the blog's table at the end.
 */
import { SingleBar } from 'cli-progress';
import type { EvalSample } from '../net/eval/batchRun.ts';
import { runEval, type EvalTarget } from '../net/eval/evalRun.ts';
import { RunSetupError, type GuidedChoice } from '../net/replay/replayRun.ts';
import { loadK2vvResults } from '../host/eval/loadResults.ts';
import type { K2vvResult } from '../host/eval/k2vvMetrics.ts';
import { FIGURE_NAMES, evalReport, type EvalReport } from '../host/eval/evalFigures.ts';
import { parsePassBars, type PassBar } from '../host/eval/passPolicy.ts';
import { junitXml } from '../host/ci/junitXml.ts';
import { applyPassBars, figuresTable } from './evalReportText.ts';
import { evalJunitSuite } from './evalJunit.ts';
import { writeOutput } from './writeOutput.ts';
import { normalizeBaseUrl, type Engine } from '../net/replay/endpoint.ts';
import type { OutputConstraint } from '../net/server/openAiServer.ts';
import { InputError } from './analyzeCommand.ts';
import { terminalText } from '../host/report/terminalText.ts';
import { loadSamples as loadSampleFile } from '../host/eval/loadSamples.ts';

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
  /** Embedded endpoint only: the tool-call format its simulated model writes (Kimi K2 by default). */
  format?: string;
  /** Largest answer read per request, in MB (decoded). */
  maxAnswerMb?: number;
  /** `--tag-shape`. */
  tagShape?: string;
  constraint?: OutputConstraint;
  /** Runs per sample (`--repeat`). */
  repeat?: number;
  /** Only the samples whose latest result failed or was rejected (`--rerun-failed`). */
  rerunFailed?: boolean;
  /** `--fail-under f1=0.8,schema=0.95`. */
  failUnder?: string;
  /** `--junit FILE`. */
  junit?: string;
  /** Written into every results line with the run's parameters. */
  toolVersion?: string;
}

export async function loadSamples(path: string, limit?: number): Promise<EvalSample[]> {
  let loaded;
  try {
    loaded = await loadSampleFile(path, limit);
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const e of loaded.errors) process.stderr.write(`toolscope: ${terminalText(path)}: ${terminalText(e.message)}\n`);
  if (!loaded.samples.length) throw new InputError(`${path} holds no chat requests to evaluate`);
  return loaded.samples;
}

export async function evalRunCommand(
  path: string,
  options: EvalRunOptions,
  out: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<number> {
  if (!(options.concurrency >= 1)) throw new InputError('--concurrency takes a whole number ≥ 1');
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new InputError('--repeat takes a whole number ≥ 1');
  if (options.rerunFailed && options.resume)
    throw new InputError(
      '--rerun-failed and --resume do not go together: --rerun-failed redoes the failed samples, --resume the missing ones',
    );
  if (options.format && options.endpoint)
    throw new InputError('--format sets what the embedded endpoint writes; a model at --endpoint writes its own format');
  const bars = parseBars(options.failUnder);
  const samples = await loadSamples(path, options.limit);
  const target: EvalTarget = options.endpoint
    ? {
        endpoint: { name: 'cli', baseUrl: normalizeBaseUrl(options.endpoint), model: options.model ?? 'default', engine: options.engine },
        apiKey: process.env[options.apiKeyEnv] || undefined,
      }
    : {
        embedded: {
          engine: options.engine,
          model: options.model,
          hallucinate: options.hallucinate,
          seed: options.seed,
          format: options.format,
          constraint: options.constraint,
        },
      };
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const tty = Boolean((process.stderr as { isTTY?: boolean }).isTTY);
  let bar: SingleBar | null = null;
  let label = '';
  let todo = 0;
  let done = 0;
  let failed = 0;
  let run;
  try {
    run = await runEval({
      samples,
      samplesPath: path,
      target,
      guided: options.guided,
      outDir: options.outDir,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutS * 1000,
      retries: 5,
      ...(options.maxAnswerMb ? { maxAnswerBytes: Math.floor(options.maxAnswerMb * 1024 * 1024) } : {}),
      tagShape: options.tagShape,
      repeat,
      redo: options.resume ? 'missing' : options.rerunFailed ? 'failed' : 'all',
      runInfo: options.limit ? { limit: options.limit } : {},
      toolVersion: options.toolVersion,
      signal: abort.signal,
      onStart: (start) => {
        bar?.stop();
        label = `guided ${start.guided ? 'on ' : 'off'}`;
        todo = start.todo;
        done = 0;
        failed = 0;
        bar = tty
          ? new SingleBar({
              format: `${label} [{bar}] {value}/{total} · {errors} failed · {eta_formatted} left`,
              hideCursor: true,
              stream: process.stderr,
            })
          : null;
        bar?.start(todo, 0, { errors: 0 });
        const why = options.rerunFailed ? ' (the failed and rejected ones again)' : start.done ? ` (${start.done} already done)` : '';
        if (!tty) process.stderr.write(`${label}: ${todo} requests${why} → ${start.file}\n`);
      },
      onResult: (_guided, line) => {
        done++;
        if (line.status === 'failed') failed++;
        (bar as SingleBar | null)?.update(done, { errors: failed });
        if (!tty && (done % 25 === 0 || done === todo)) process.stderr.write(`${label}: ${done}/${todo}\n`);
      },
    });
  } catch (err) {
    if (err instanceof RunSetupError) throw new InputError(err.message);
    throw err;
  } finally {
    (bar as SingleBar | null)?.stop();
    process.off('SIGINT', onSigint);
  }
  const rows = run.runs.map((r) => ({ mode: r.label, file: r.file }));
  if (run.aborted) {
    process.stderr.write(
      `toolscope: cancelled; finished results are in ${rows.at(-1)?.file ?? options.outDir} (rerun with --resume to continue)\n`,
    );
    return 130;
  }
  const failedRequests = run.failedRequests;
  const reference = options.reference ? (await loadK2vvResults(options.reference)).results : null;
  const columns: Array<{ label: string; report: EvalReport; results: K2vvResult[]; file: string }> = [];
  for (const { mode, file } of rows) {
    const { results } = await loadK2vvResults(file);
    columns.push({ label: mode, report: evalReport(results, reference), results, file });
  }
  if (options.junit) {
    const suites = columns.map((c) => evalJunitSuite(c.label, c.results, { file: c.file, repeat: String(repeat) }));
    await writeOutput(options.junit, junitXml(suites, 'toolscope eval'));
  }
  // Failed requests are in the results (K2VV counts them); the exit code says the run was not clean.
  const status = failedRequests ? 1 : 0;
  if (failedRequests)
    process.stderr.write(
      `toolscope: ${failedRequests} request${failedRequests === 1 ? '' : 's'} failed (their "response.error" says why); --resume retries them\n`,
    );
  if (options.json) {
    // The first run's K2VV summary stays at the top level (as before --repeat), the runs and stats beside it.
    for (const c of columns) {
      const first = c.report.runs[0];
      out.write(
        JSON.stringify({
          mode: c.label,
          requests: first?.figures.requests ?? 0,
          ...first?.summary,
          f1: first?.figures.f1 ?? null,
          file: c.file,
          runs: c.report.runs,
          stats: c.report.stats,
        }) + '\n',
      );
    }
  } else {
    out.write(figuresTable(columns));
    out.write(`Results: ${rows.map((r) => r.file).join(', ')}\n`);
  }
  if (bars && applyPassBars(bars, columns, process.stderr).length) return 1;
  return status;
}

export function parseBars(text: string | undefined): PassBar[] | null {
  if (text === undefined) return null;
  try {
    return parsePassBars(text, FIGURE_NAMES);
  } catch (err) {
    throw new InputError(`--fail-under: ${(err as Error).message}`);
  }
}
