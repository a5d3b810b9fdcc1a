/**
 * One replay run, the same for `toolscope replay` and the editor's Replay Record (both are thin glue over it): the
 * endpoint (the user's, or the embedded simulator scripted with the trace's own answers, whose model name the server
 * gives), guided decoding off / on / both, chat or completions mode, each original's replays appended beside the
 * trace as soon as they are done, the analyses of the recording and its replays, progress and cancel.
 */
import { Analyzer, type AnalyzedRecord } from '../../core/analysis.ts';
import type { LoadedRecord, TraceRecord } from '../../core/trace/record.ts';
import { appendProblem, appendRecords, siblingReplaysPath } from '../../io/trace/traceWriter.ts';
import { nodeServices } from '../../io/nodeServices.ts';
import { startServer, type OutputConstraint, type RunningServer } from '../server/openAiServer.ts';
import type { Endpoint, Engine } from './endpoint.ts';
import { replayRecord, type ReplayMode } from './replay.ts';
import type { ReplayError } from './replayError.ts';

export type GuidedChoice = 'off' | 'on' | 'both';

/** The guided-decoding settings a choice runs, in order (off before on). */
export function guidedModes(choice: GuidedChoice): boolean[] {
  return choice === 'both' ? [false, true] : [choice === 'on'];
}

/** Where requests go: an endpoint (with its key), or the embedded simulator started for the run. */
export type RunTarget =
  | { endpoint: Endpoint; apiKey?: string }
  | {
      embedded: {
        engine?: Engine;
        /** The model name to send; default: the one the server reports. */
        model?: string;
        /** Guided decoding in the server (default: xgrammar over the request's structural tag). */
        constraint?: OutputConstraint;
      };
    };

/** A problem found before any request (the results cannot be written): nothing was sent. */
export class RunSetupError extends Error {}

/** Whether a record holds a chat request that can be replayed. */
export function isReplayable(r: LoadedRecord): boolean {
  return Array.isArray(r.record.request?.messages);
}

export interface ReplayRunOptions {
  /** The trace the records come from (the replays go beside it unless `out` says otherwise; it is never written). */
  trace: string;
  /** Every record of the trace: the embedded simulator answers with their completions. */
  records: LoadedRecord[];
  /** The records to replay. */
  chosen: LoadedRecord[];
  target: RunTarget;
  guided: GuidedChoice;
  mode: ReplayMode;
  /** Completions mode's chat template (default: each record's format's own). */
  template?: { source: string; label: string };
  tagShape?: string;
  timeoutMs: number;
  retries: number;
  maxAnswerBytes?: number;
  out?: string;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  onRetry?: (attempt: number, delayMs: number, error: ReplayError) => void;
  onGuidedProblem?: (recordId: string, reason: string) => void;
  /** One replay done (its record as written, and its error when it failed or was cut short). */
  onReplayed?: (replay: { original: TraceRecord; guided: boolean; record: TraceRecord; error: ReplayError | null }) => void;
  /** A record's replays are written: it, its replays and their analyses (the CLI prints them as they come). */
  onRecordDone?: (done: ReplayedRecord, endpoint: Endpoint) => void;
}

export interface ReplayedRecord {
  original: LoadedRecord;
  /** The recording, then each replay, with their analyses. */
  rows: Array<{ label: string; analyzed: AnalyzedRecord }>;
  written: TraceRecord[];
}

export interface ReplayRunResult {
  endpoint: Endpoint;
  outPath: string;
  replayed: ReplayedRecord[];
  failures: number;
  aborted: boolean;
}

export async function runReplay(options: ReplayRunOptions): Promise<ReplayRunResult> {
  const outPath = options.out ?? siblingReplaysPath(options.trace);
  // Before any request: a run whose results cannot be written is not started.
  const outProblem = await appendProblem(outPath, [options.trace]);
  if (outProblem) throw new RunSetupError(outProblem);
  let embedded: RunningServer | null = null;
  let endpoint: Endpoint;
  let apiKey: string | undefined;
  if ('endpoint' in options.target) {
    endpoint = options.target.endpoint;
    apiKey = options.target.apiKey;
  } else {
    const { engine, model, constraint } = options.target.embedded;
    // Scripted with the trace's own answers, so a replay reproduces the recording.
    embedded = await startServer({ script: options.records.map((r) => r.record), ...(constraint ? { constraint } : {}) });
    endpoint = { name: 'embedded', baseUrl: embedded.url, model: model ?? embedded.model, engine: engine ?? 'vllm' };
  }
  const analyzer = new Analyzer({}, nodeServices());
  const replayed: ReplayedRecord[] = [];
  let failures = 0;
  let aborted = false;
  try {
    for (const original of options.chosen) {
      if (options.signal?.aborted) break;
      const id = original.record.id;
      const written: TraceRecord[] = [];
      const rows: ReplayedRecord['rows'] = [{ label: 'recorded', analyzed: analyzer.analyze(original) }];
      for (const guided of guidedModes(options.guided)) {
        const label = `guided ${guided ? 'on' : 'off'}`;
        options.onProgress?.(`${id}: ${label} on ${endpoint.name}…`);
        let events = 0;
        const { record, error } = await replayRecord(original.record, {
          endpoint,
          apiKey,
          mode: options.mode,
          guided,
          template: options.template,
          tagShape: options.tagShape,
          timeoutMs: options.timeoutMs,
          retries: options.retries,
          signal: options.signal,
          ...(options.maxAnswerBytes ? { maxAnswerBytes: options.maxAnswerBytes } : {}),
          onEvent: () => {
            if (++events % 20 === 0) options.onProgress?.(`${id}: ${label}, ${events} chunks`);
          },
          onRetry: options.onRetry,
          onGuidedProblem: (reason) => options.onGuidedProblem?.(id, reason),
        });
        written.push(record);
        rows.push({ label, analyzed: analyzer.analyze({ record, line: 0, lastLine: 0, source: 'native' }) });
        options.onReplayed?.({ original: original.record, guided, record, error });
        if (error?.kind === 'aborted') {
          aborted = true;
          break;
        }
        if (error) failures++;
      }
      // What came before a cancel is kept: a partial replay says so in its record.
      await appendRecords(outPath, written, [options.trace]);
      const done = { original, rows, written };
      replayed.push(done);
      options.onRecordDone?.(done, endpoint);
      if (aborted) break;
    }
  } finally {
    await embedded?.close();
  }
  return { endpoint, outPath, replayed, failures, aborted: aborted || Boolean(options.signal?.aborted) };
}
