/**
 * K2-Vendor-Verifier style batch runs: every sample request replayed with guided decoding off and/or on,
 * bounded concurrency, K2VV's retries, results appended as they finish in K2VV's result-line format (with the
 * full native record kept in `toolscope`), and resumable: a crash loses nothing, `resume` skips what is done.
 */
import { readFile } from 'node:fs/promises';
import { responseMessage } from '../../core/trace/responseMessage.ts';
import type { ChatCompletion, ChatRequest, TraceRecord } from '../../core/trace/record.ts';
import type { Endpoint } from '../replay/endpoint.ts';
import { replayRecord } from '../replay/replay.ts';
import { appendRecordsRaw, endTornLine } from '../../host/eval/appendLines.ts';
import { chainValue, lastLink, type ChainLink } from '../../host/eval/resultsChain.ts';
import { k2vvRequestHash } from '../../host/eval/pythonJson.ts';
import type { EvalSample } from '../../host/eval/loadSamples.ts';
import { ToolSchemas } from '../../core/schema/toolSchemas.ts';
import { toolCallsValid } from '../../host/eval/k2vvMetrics.ts';

export type { EvalSample } from '../../host/eval/loadSamples.ts';

export interface K2vvResultLine {
  data_index: number;
  request: ChatRequest;
  response: ChatCompletion | { error: string };
  status: 'success' | 'failed';
  finish_reason: string | null;
  tool_calls_valid: boolean | null;
  last_run_at: string;
  duration_ms: number;
  hash: string;
  /** Which repetition (`--repeat`), from 1. */
  run: number;
  /** The run's parameters and the tool's version (evidence: what produced this line). */
  toolscope_run?: Record<string, unknown>;
  /** The replay as a Toolscope native record (raw stream, timings, meta). */
  toolscope_record: TraceRecord;
}

export interface BatchOptions {
  endpoint: Endpoint;
  apiKey?: string;
  guided: boolean;
  outFile: string;
  concurrency: number;
  timeoutMs: number;
  retries: number;
  /** `--tag-shape`: the shape of each request's format's tag (replay.ts). */
  tagShape?: string;
  signal?: AbortSignal;
  /** Runs per sample (default 1), interleaved: every sample's run 1, then every sample's run 2, … */
  repeat?: number;
  /** Which (run, data_index) to do; default all (resume: not in `doneKeys`; --rerun-failed: the failed; evalRun.ts). */
  want?: (run: number, dataIndex: number) => boolean;
  /** Written into every line as `toolscope_run`. */
  runInfo?: Record<string, unknown>;
  onResult?: (line: K2vvResultLine) => void;
  retryDelayScale?: number;
  /** Largest answer read per request, in decoded bytes (default 64 MiB). */
  maxAnswerBytes?: number;
}

/** Joins a streamed replay back into one chat.completion, as K2VV does; a missing finish reason becomes "stop". */
export function joinedCompletion(record: TraceRecord): ChatCompletion | null {
  if (!record.response) return null;
  if (!Array.isArray(record.response)) return record.response;
  const m = responseMessage(record.response);
  const first = record.response[0];
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: m.content ?? '' };
  if (m.reasoning) message.reasoning_content = m.reasoning;
  if (m.calls.length)
    message.tool_calls = m.calls.map((c) => ({
      id: c.id ?? '',
      type: 'function' as const,
      function: { name: c.name ?? '', arguments: c.arguments },
    }));
  return {
    id: first?.id,
    object: 'chat.completion',
    model: first?.model,
    choices: [{ index: 0, message, finish_reason: m.finishReason ?? 'stop' }],
  };
}

function timestamp(): string {
  return new Date().toISOString().replace('T', ' ').slice(0, 19);
}

export async function runSample(sample: EvalSample, options: BatchOptions, schemas: ToolSchemas, run = 1): Promise<K2vvResultLine> {
  const started = Date.now();
  const original: TraceRecord = { toolscope: 1, id: String(sample.dataIndex), request: sample.request };
  const { record, error } = await replayRecord(original, {
    endpoint: options.endpoint,
    apiKey: options.apiKey,
    mode: 'chat',
    guided: options.guided,
    ...(options.tagShape === undefined ? {} : { tagShape: options.tagShape }),
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    signal: options.signal,
    retryDelayScale: options.retryDelayScale,
    maxAnswerBytes: options.maxAnswerBytes,
  });
  const base = {
    data_index: sample.dataIndex,
    request: sample.request,
    last_run_at: timestamp(),
    duration_ms: Date.now() - started,
    hash: k2vvRequestHash(sample.request),
    run,
    ...(options.runInfo ? { toolscope_run: options.runInfo } : {}),
    toolscope_record: record,
  };
  const completion = error ? null : joinedCompletion(record);
  if (!completion) {
    return {
      ...base,
      response: { error: record.error ?? error?.message ?? 'no response' },
      status: 'failed',
      finish_reason: null,
      tool_calls_valid: null,
    };
  }
  const finish = completion.choices[0]?.finish_reason ?? 'stop';
  const judged: TraceRecord = { toolscope: 1, id: original.id, request: sample.request, response: completion };
  return {
    ...base,
    response: completion,
    status: 'success',
    finish_reason: finish,
    tool_calls_valid: finish === 'tool_calls' ? toolCallsValid(judged, schemas) : null,
  };
}

/** Runs the samples with at most `concurrency` in flight; each result is appended the moment it finishes, chained. */
export async function runBatch(samples: EvalSample[], options: BatchOptions): Promise<K2vvResultLine[]> {
  const schemas = new ToolSchemas();
  const repeat = Math.max(1, Math.floor(options.repeat ?? 1));
  const want = options.want ?? (() => true);
  // Round-major order: a sample's runs are a whole round apart, so drift and caches hit every run alike.
  const todo: Array<{ run: number; sample: EvalSample }> = [];
  for (let run = 1; run <= repeat; run++) for (const sample of samples) if (want(run, sample.dataIndex)) todo.push({ run, sample });
  const results: K2vvResultLine[] = [];
  await endTornLine(options.outFile);
  const chain = await ChainedAppender.open(options.outFile);
  let next = 0;
  const worker = async () => {
    while (next < todo.length && !options.signal?.aborted) {
      const { run, sample } = todo[next++] as { run: number; sample: EvalSample };
      const line = await runSample(sample, options, schemas, run);
      // A cancelled request is not a result: leave it for --resume.
      if (options.signal?.aborted) return;
      await chain.append(line as unknown as Record<string, unknown>);
      results.push(line);
      options.onResult?.(line);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, todo.length)) }, worker));
  return results;
}

/** Appends lines to a results file, each linked to the one before (resultsChain.ts), continuing a resumed file. */
class ChainedAppender {
  private queue: Promise<void> = Promise.resolve();
  private constructor(
    private readonly path: string,
    private last: ChainLink | null,
  ) {}

  static async open(path: string): Promise<ChainedAppender> {
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch {
      // a new file
    }
    return new ChainedAppender(path, lastLink(text));
  }

  append(value: Record<string, unknown>): Promise<void> {
    // Link and write in one queued step, so the file's order is the chain's order.
    const step = this.queue.then(async () => {
      const linked = chainValue(value, this.last);
      await appendRecordsRaw(this.path, [linked]);
      this.last = linked.toolscope_chain;
    });
    this.queue = step.catch(() => undefined);
    return step;
  }
}

/** `run:data_index` keys of the successes in a results file: what a resume leaves out (failed ones are redone, as K2VV does). */
export async function doneKeys(path: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return new Set();
  }
  const done = new Set<string>();
  for (const line of text.split('\n')) {
    try {
      const v = JSON.parse(line) as { data_index?: unknown; status?: unknown; run?: unknown };
      if (typeof v.data_index === 'number' && v.status === 'success') done.add(`${typeof v.run === 'number' ? v.run : 1}:${v.data_index}`);
    } catch {
      // a torn line: redo that sample
    }
  }
  return done;
}
