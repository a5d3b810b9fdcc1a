/**
 * The grammar engine, isolated: web-xgrammar runs in a worker thread (engineWorker.ts) so that whatever a hostile
 * tool schema does to it — an `abort()`, a hang, running out of memory — costs one finding, not the analysis.
 * The worker is started on first use (or by `warmUp()`, while the caller reads its traces), is sent several jobs
 * ahead, runs them one at a time in order, each under a time budget, under a heap limit, and is replaced after any failure; jobs queued behind a failed one go to
 * the new worker. A job that fails this way is a GuidedUnavailableError saying why, in words.
 *
 * Schemas xgrammar is known not to compile never reach it (schemaSupport.ts, checked in the worker before the
 * compile); the worker is the net for the ones nobody has found yet. A job nested too deep to copy to the worker
 * (structured clone recurses) is refused before it is sent, and one the worker could not read is answered at once.
 */
import type { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import type { ChatRequest } from '../../core/trace/record.ts';
import type { Token } from '../../core/tokens/token.ts';
import { UNREAD_JOB, type EngineAnswer, type EngineJob, type EngineValue, type WhatIfOutcome } from '../../core/guided/engineProtocol.ts';
import type { WhatIfRequestOptions } from '../../core/guided/whatIf.ts';
import { tokenAt } from '../../core/guided/tokenAt.ts';
import { GuidedRequestError } from '../../core/guided/guidedRequestError.ts';
import type { GrammarEngine } from '../../core/guided/grammarEngine.ts';
import { DEFAULT_WORKER_MEMORY_MB, startGuidedWorker } from './guidedWorkerStart.ts';
import { startupMark } from '../../core/util/startupMarks.ts';
import { deeperThan, MAX_JSON_DEPTH } from '../../core/util/jsonDepth.ts';
import { keepRequestJson, keptRequestJson } from './requestJsonCache.ts';

export interface GuidedEngineOptions {
  /** Time budget of one job (compile + what-if of one record), ms. Default 30 s. */
  timeoutMs?: number;
  /** Time budget of starting a worker (loading the WASM module), ms. Default 60 s. */
  startTimeoutMs?: number;
  /** The worker's V8 heap limit, MB (`resourceLimits.maxOldGenerationSizeMb`). Default 1024. */
  memoryMb?: number;
  /** Where xgrammar's own `[WARNING]` lines go. Default: stderr, each distinct line once. */
  onLog?: (line: string) => void;
  /** The worker script (default: beside this bundle, or the TypeScript entry when run from source). */
  workerFile?: string;
}

/** Figures for the bench and the logs. */
export interface GuidedEngineStats {
  /** Workers started (1 + restarts). */
  starts: number;
  /** Time from starting a worker to its compiler being ready, per start, ms. */
  startMs: number[];
  /** Jobs answered, and how many of them failed for the engine's sake (abort, time, memory, exit). */
  jobs: number;
  failures: number;
  /** Messages that carried the jobs to the workers (the what-ifs of a turn of the event loop go in one). */
  messages: number;
  /** Messages that brought the answers back (the answers of quick jobs run back to back come in one). */
  answerMessages: number;
}

interface Pending {
  job: EngineJob;
  timeoutMs: number;
  resolve: (value: EngineValue) => void;
  reject: (err: Error) => void;
}

/** xgrammar could not be used for this job; `reason` says why in words. */
export class GuidedUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'GuidedUnavailableError';
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_START_TIMEOUT_MS = 60_000;
const DEFAULT_MEMORY_MB = DEFAULT_WORKER_MEMORY_MB;
/**
 * Jobs sent to the worker ahead of their answers. Enough that the worker never waits for this thread between two
 * records; few enough that the jobs a failed worker leaves are soon run again by the next one.
 */
const MAX_IN_FLIGHT = 32;
/** What-ifs posted in one message at most (fewer at the end of a turn of the event loop). */
const BATCH_JOBS = 8;

/** Bundled (dist/cli.js, extension.js, bench.js): guidedWorker.js sits beside; from source (tsx): the .ts entry. */
function defaultWorkerFile(): string {
  // dirname(__filename): under tsx's ESM loader __dirname is not this file's folder.
  const here = dirname(__filename);
  return __filename.endsWith('.ts') ? join(here, 'engineWorker.ts') : join(here, 'guidedWorker.js');
}

const seenLines = new Set<string>();

function stderrOnce(line: string): void {
  if (seenLines.has(line) || seenLines.size > 1000) return;
  seenLines.add(line);
  process.stderr.write(`xgrammar: ${line}\n`);
}

/** The gist of xgrammar's `[FATAL] path/file.cc:961: Check failed: (…) is false: Cannot find field …` line. */
export function fatalReason(log: readonly string[]): string | undefined {
  const line = log.find((l) => l.includes('[FATAL]'));
  if (!line) return undefined;
  let text = line.slice(line.indexOf('[FATAL]') + 7).trim();
  text = text.replace(/^\S+\.(?:cc|h|cpp):\d+:\s*/, '');
  const because = text.indexOf(' is false: ');
  if (because >= 0) text = text.slice(because + ' is false: '.length);
  text = text.replace(/^Check failed:\s*/, '');
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
}

export class GuidedEngine implements GrammarEngine {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: Pending[] = [];
  /** Jobs sent to the worker and not yet answered, in the order sent; the head is the one running. */
  private inFlight: { pending: Pending; id: number }[] = [];
  /**
   * What-if jobs moved into the flight and not yet posted: they go to the worker in one message, BATCH_JOBS at a
   * time or at the end of this turn of the event loop (the first for an idle worker at once). A message cost the
   * sender about as much as a record's whole what-if (it woke the worker's thread), so a file read ahead sends its
   * records' jobs 8 at a time.
   */
  private outbox: { id: number; pending: Pending }[] = [];
  private flushing: NodeJS.Immediate | null = null;
  /**
   * The head's time budget: when it ends (performance.now()), and one timer that checks it. A new head only moves
   * the deadline; the timer, once due, waits on for a later one (a timer set and cleared per answer cost the thread
   * more than the answer).
   */
  private deadline = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private nextId = 1;
  private closed = false;
  readonly stats: GuidedEngineStats = { starts: 0, startMs: [], jobs: 0, failures: 0, messages: 0, answerMessages: 0 };
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly memoryMb: number;
  private readonly onLog: (line: string) => void;
  private readonly workerFile: string;

  constructor(options: GuidedEngineOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
    this.onLog = options.onLog ?? stderrOnce;
    this.workerFile = options.workerFile ?? defaultWorkerFile();
  }

  /** Starts the worker now (it loads the WASM module while the caller does other work); never waits. */
  warmUp(): void {
    if (!this.closed && !this.worker) this.start();
  }

  /**
   * The what-if of one record: the request's tag in `shape` compiled and the completion fed through it, in one
   * round trip. Never throws for the engine's sake: a job it could not run is `{ran: false, unavailable: true}`.
   */
  async whatIf(
    request: Pick<ChatRequest, 'tools' | 'tool_choice'>,
    completion: { text: string; tokens: readonly Token[]; finishReason?: string | null },
    options: WhatIfRequestOptions,
  ): Promise<WhatIfOutcome> {
    const { shape, format, ...rest } = options;
    let outcome: WhatIfOutcome;
    try {
      outcome = (await this.submit({
        kind: 'what-if',
        request: requestJson(request),
        format,
        ...(shape === undefined ? {} : { shape }),
        text: completion.text,
        finishReason: completion.finishReason ?? null,
        options: rest,
      })) as WhatIfOutcome;
    } catch (err) {
      if (err instanceof GuidedUnavailableError) return { ran: false, why: err.reason, unavailable: true };
      throw err;
    }
    startupMark('guided-answer', outcome.ran ? { compileMs: outcome.compileMs } : undefined);
    // Tokens stay on this thread: the worker matched text, the token is looked up here.
    if (outcome.ran && !outcome.result.accepted) {
      const { text } = completion;
      outcome.result.tokenIndex = tokenAt(completion.tokens, Math.min(outcome.result.charOffset, Math.max(0, text.length - 1)));
    }
    return outcome;
  }

  /** A scripted completion shaped by the grammar the request asks for; GuidedRequestError (HTTP 400) when none compiles. */
  async constrain(request: ChatRequest, text: string, format: string): Promise<string> {
    try {
      return ((await this.submit({ kind: 'constrain', request, text, format })) as { text: string }).text;
    } catch (err) {
      if (err instanceof GuidedUnavailableError) throw new GuidedRequestError(err.reason);
      throw err;
    }
  }

  /** Ends the worker; later jobs start a new one unless `final`. */
  async close(final = true): Promise<void> {
    this.closed = final;
    const w = this.worker;
    this.stop(new GuidedUnavailableError('the grammar engine was closed'));
    for (const p of this.queue.splice(0)) p.reject(new GuidedUnavailableError('the grammar engine was closed'));
    if (w) await w.terminate();
  }

  private submit(job: EngineJob): Promise<EngineValue> {
    if (this.closed) return Promise.reject(new GuidedUnavailableError('the grammar engine was closed'));
    if (deeperThan(job, MAX_JSON_DEPTH)) return Promise.reject(tooDeep());
    return new Promise((resolve, reject) => {
      this.queue.push({ job, timeoutMs: this.timeoutMs, resolve, reject });
      this.pump();
    });
  }

  private start(): void {
    const started = performance.now();
    // The launcher may have started it already (guidedWorkerStart.ts).
    const worker = startGuidedWorker(this.workerFile, this.memoryMb);
    this.worker = worker;
    this.stats.starts++;
    // The answers of a batch of jobs come in one message (engineWorker.ts), in the order the jobs were sent.
    worker.on('message', (answers: EngineAnswer[]) => {
      if (worker === this.worker) this.stats.answerMessages++;
      for (const answer of answers) this.answered(worker, answer);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const why =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `xgrammar ran out of memory (the grammar engine's limit is ${this.memoryMb} MB)`
          : `the grammar engine failed: ${err.message}`;
      this.failed(worker, why);
    });
    worker.on('exit', (code) => this.failed(worker, `the grammar engine stopped (exit code ${code})`));
    // Every worker first loads the module and builds the compiler, under its own budget, so a job's budget is its own.
    this.ready = new Promise<void>((resolve, reject) => {
      this.queue.unshift({
        job: { kind: 'warm-up' },
        timeoutMs: this.startTimeoutMs,
        resolve: () => {
          this.stats.startMs.push(performance.now() - started);
          startupMark('guided-ready');
          resolve();
        },
        reject,
      });
    });
    this.ready.catch(() => undefined);
    this.pump();
  }

  private pump(): void {
    if (this.queue.length > 0 && !this.worker) {
      this.start();
      return;
    }
    // Several jobs in flight: the worker takes the next as soon as it answers one, without waiting for this thread to
    // read the answer and send another (a round trip per record kept both threads waiting on each other).
    while (this.worker && this.queue.length > 0 && this.inFlight.length < MAX_IN_FLIGHT) {
      const pending = this.queue.shift() as Pending;
      const id = this.nextId++;
      // Only what-ifs wait for company: their jobs are strings, which the worker always reads (a batch it could not
      // read would fail all its jobs); a warm-up or a constrain job goes at once, by itself.
      if (pending.job.kind === 'what-if') {
        // Idle: nothing in flight, or only its start-up (the warm-up), which the job would wait behind anyway.
        const idle = this.inFlight.length === 0 || (this.inFlight.length === 1 && this.inFlight[0]?.pending.job.kind === 'warm-up');
        this.fly(this.worker, id, pending);
        this.outbox.push({ id, pending });
        // The first job for an idle worker goes now (a short run's one record is matched while this thread parses
        // it), and so does a full batch: held to the end of the turn, the jobs of a file read ahead reached the
        // worker only when the reading thread stopped to wait for the first of them.
        if (idle || this.outbox.length >= BATCH_JOBS) this.postOutbox(this.worker);
      } else {
        this.postOutbox(this.worker);
        if (this.send(this.worker, id, pending)) this.fly(this.worker, id, pending);
      }
    }
    if (this.outbox.length > 0) this.flushing ??= setImmediate(() => this.flush());
    if (this.inFlight.length > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  private fly(worker: Worker, id: number, pending: Pending): void {
    this.inFlight.push({ pending, id });
    if (this.inFlight.length === 1) this.budget(worker, pending);
  }

  /** The what-ifs gathered this turn, to the worker in one message. */
  private flush(): void {
    this.flushing = null;
    if (this.worker) this.postOutbox(this.worker);
  }

  private postOutbox(worker: Worker): void {
    const batch = this.outbox;
    if (batch.length === 0) return;
    this.outbox = [];
    try {
      worker.postMessage(batch.map(({ id, pending }) => ({ id, job: pending.job })));
      this.stats.messages++;
      return;
    } catch {
      // One of them cannot be copied: each goes by itself, so that one fails alone.
    }
    const head = this.inFlight[0];
    for (const { id, pending } of batch) {
      if (this.send(worker, id, pending)) continue;
      this.inFlight = this.inFlight.filter((f) => f.id !== id);
    }
    const next = this.inFlight[0];
    if (next !== head) {
      if (next) this.budget(worker, next.pending);
      else this.unwatch();
    }
    if (this.inFlight.length === 0) worker.unref();
  }

  /**
   * Posts one job; false when it cannot be copied to the worker (a value structured clone refuses or overflows
   * on), which fails that job alone: the worker never saw it and goes on with the next.
   */
  private send(worker: Worker, id: number, pending: Pending): boolean {
    try {
      worker.postMessage([{ id, job: pending.job }]);
      this.stats.messages++;
      return true;
    } catch (err) {
      this.stats.jobs++;
      this.stats.failures++;
      const why = err instanceof Error ? err.message : String(err);
      pending.reject(new GuidedUnavailableError(`the job could not be sent to the grammar engine: ${why}`));
      return false;
    }
  }

  /**
   * The time budget of the job at the head of the flight, from when it became the head: the worker runs jobs in the
   * order sent, so that is when the one before it was answered (or when it was sent to an idle worker).
   */
  private budget(worker: Worker, pending: Pending): void {
    this.deadline = performance.now() + pending.timeoutMs;
    // A timer due later than this budget ends (a warm-up's budget is longer than a job's) is set anew.
    if (this.timer && this.timerDue <= this.deadline) return;
    this.watch(worker, pending.timeoutMs);
  }

  private watch(worker: Worker, ms: number): void {
    this.unwatch();
    this.timerDue = performance.now() + ms;
    this.timer = setTimeout(() => this.due(worker), ms);
  }

  /** The timer is due: the head overran its budget, or the head has changed since and the timer waits for it. */
  private due(worker: Worker): void {
    this.timer = null;
    const head = this.inFlight[0];
    if (worker !== this.worker || !head) return;
    const left = this.deadline - performance.now();
    if (left > 0) {
      this.watch(worker, left);
      return;
    }
    const seconds = head.pending.timeoutMs / 1000;
    this.failed(worker, `xgrammar took longer than ${seconds} s on this grammar (the time budget); it was stopped`);
  }

  private unwatch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private answered(worker: Worker, answer: EngineAnswer): void {
    // The worker answers in the order it was sent the jobs; UNREAD_JOB: it could not read the one at the head.
    const head = this.inFlight[0];
    if (worker !== this.worker || !head || (head.id !== answer.id && answer.id !== UNREAD_JOB)) return;
    const { pending } = head;
    this.inFlight.shift();
    this.stats.jobs++;
    if (answer.ok) {
      for (const line of answer.log) this.onLog(line);
      pending.resolve(answer.value);
    } else if (answer.failure.aborted) {
      this.stats.failures++;
      const why = fatalReason(answer.log);
      // The module may be broken after abort(): this worker is done (it exits); the jobs sent after this one go
      // back to the queue, and the next worker runs them.
      this.stop(null);
      pending.reject(new GuidedUnavailableError(why ? `xgrammar aborted: ${why}` : 'xgrammar aborted on this grammar (no message)'));
    } else {
      for (const line of answer.log) this.onLog(line);
      const { name, message } = answer.failure;
      pending.reject(name === 'GuidedRequestError' ? new GuidedRequestError(message) : new GuidedUnavailableError(message));
    }
    const next = this.inFlight[0];
    if (next && this.worker === worker) this.budget(worker, next.pending);
    else this.unwatch();
    this.pump();
  }

  /** The worker died or overran: the job in flight fails with `why`; queued jobs go to a new worker. */
  private failed(worker: Worker, why: string): void {
    if (worker !== this.worker) return;
    this.stop(new GuidedUnavailableError(why));
    this.pump();
  }

  private stop(reason: GuidedUnavailableError | null): void {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    this.unwatch();
    // Jobs not yet posted are in the flight too: they go back to the queue with it.
    this.outbox = [];
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    // With a reason the head of the flight failed; without one it was answered already (an abort's job).
    const flight = this.inFlight;
    this.inFlight = [];
    const head = reason ? flight.shift() : undefined;
    // Jobs sent behind it go back to the queue, in order: the next worker runs them (or they fail with the queue).
    this.queue.unshift(...flight.map((f) => f.pending));
    if (head && reason) {
      this.stats.jobs++;
      this.stats.failures++;
      head.pending.reject(reason);
      // A worker that cannot even start would be restarted for ever: the jobs waiting for it fail instead.
      if (head.pending.job.kind === 'warm-up') {
        const why = new GuidedUnavailableError(`the grammar engine could not start: ${reason.reason}`);
        for (const p of this.queue.splice(0)) p.reject(why);
      }
    }
    if (worker) {
      worker.removeAllListeners('message');
      void worker.terminate();
    }
  }
}

/**
 * Structured clone and JSON.stringify are recursive: a schema a few thousand levels deep overflows the stack (on
 * this thread, or on the worker's as it reads the job, which then never answers). Such a job is refused at once;
 * xgrammar could not compile it anyway (schemaSupport.ts refuses schemas over 50 levels).
 */
function tooDeep(): GuidedUnavailableError {
  return new GuidedUnavailableError(
    `the tools nest more than ${MAX_JSON_DEPTH} levels deep, far deeper than xgrammar can compile; they were not sent to the grammar engine`,
  );
}

/** A what-if job's `request`: the JSON of the tools and the tool choice (engineProtocol.ts says why). */
function requestJson(request: Pick<ChatRequest, 'tools' | 'tool_choice'>): string {
  const kept = keptRequestJson(request);
  if (kept !== undefined) return kept;
  if (deeperThan(request.tools, MAX_JSON_DEPTH)) throw tooDeep();
  try {
    const json = JSON.stringify({ tools: request.tools, tool_choice: request.tool_choice ?? null });
    keepRequestJson(request, json);
    return json;
  } catch (err) {
    throw new GuidedUnavailableError(
      `the job could not be sent to the grammar engine: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
