/**
 * The grammar engines of a process, scheduled: one or more GuidedEngine workers (each one web-xgrammar thread with
 * its own time budget, heap limit and restart), fed from one queue in order of priority. A caller that knows what
 * the user looks at runs its what-ifs in a lane (`inLane`): the record on screen first, the rows in view next, the
 * rest of the list after; a lane's priority can change while its jobs wait (the user scrolled), and a cancelled
 * lane's waiting jobs end at once without reaching a worker (the options changed, the entry was read again).
 *
 * The same what-if asked twice (a trace that repeats a record, a report that opens a listed record) runs once: its
 * outcome is kept by the job's whole input, so it is the answer the engine would give again.
 */
import { hash } from 'node:crypto';
import type { ChatRequest } from '../../core/trace/record.ts';
import type { Token } from '../../core/tokens/token.ts';
import type { WhatIfOutcome } from '../../core/guided/engineProtocol.ts';
import type { WhatIfRequestOptions } from '../../core/guided/whatIf.ts';
import type { GrammarEngine } from '../../core/guided/grammarEngine.ts';
import { tokenAt } from '../../core/guided/tokenAt.ts';
import { GuidedEngine, type GuidedEngineOptions, type GuidedEngineStats } from './guidedEngine.ts';

/** Where a job waits: lower priority numbers run first; a cancelled lane's jobs do not run. */
export interface WhatIfLane {
  priority: number;
  cancelled: boolean;
  /** The record its what-ifs are for (a list worker's what-if is scheduled by it on the editor's host). */
  key?: string;
}

/** Priorities the trace editor uses. */
export const LANE = { shown: 0, inView: 1, listed: 2, left: 3 } as const;

export interface GuidedEnginePoolOptions extends GuidedEngineOptions {
  /** Worker threads at most (each started when the queue first needs it). Default 1. */
  workers?: number;
  /** Outcomes kept by input (0: none), for what-ifs asked in a lane. Default 4096. */
  memo?: number;
  /**
   * Jobs outside any lane (the CLI's, in record order) a worker holds at once. Default 32: a record then never waits
   * a round trip of its own (issue 39). A job in a lane is sent only to a worker holding none, so the jobs not yet
   * sent can still be re-prioritised while the user scrolls.
   */
  depth?: number;
  /**
   * Jobs in a lane a worker holds at once. Default 1: the jobs not sent can all be re-prioritised. A thread that is
   * busy between its turns (a list worker analysing a batch) holds a few more, or its grammar worker waits for the
   * turn between two what-ifs.
   */
  laneDepth?: number;
}

interface Queued {
  lane: WhatIfLane;
  seq: number;
  run: (engine: GuidedEngine) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

// Frozen: the queue takes its jobs as asked, never re-ordered nor cancelled (`laned`).
const DEFAULT_LANE: WhatIfLane = Object.freeze({ priority: LANE.listed, cancelled: false });
const SHOWN_LANE: WhatIfLane = { priority: LANE.shown, cancelled: false };
const CANCELLED: WhatIfOutcome = { ran: false, why: 'the what-if was cancelled before it ran', unavailable: false };

export class GuidedEnginePool implements GrammarEngine {
  private readonly engines: GuidedEngine[] = [];
  /** Jobs each worker holds now. */
  private readonly held = new Map<GuidedEngine, number>();
  private readonly queue: Queued[] = [];
  /**
   * Jobs in the queue asked in a lane of the caller's (the editor's). Without any, the queue is in the order asked and
   * nothing in it can be cancelled: the next job is its head, found without reading the queue (the CLI pumps twice a
   * record, and reading its 32 waiting jobs three times a pump cost the analysing thread ~6 % of its time).
   */
  private laned = 0;
  private lane: WhatIfLane = DEFAULT_LANE;
  private seq = 0;
  private maxWorkers: number;
  private readonly memoSize: number;
  private readonly depth: number;
  private laneDepth: number;
  private readonly memo = new Map<string, WhatIfOutcome>();
  private readonly inFlight = new Map<string, { run: Promise<WhatIfOutcome>; lane: WhatIfLane }>();
  /** Holds on (holdUntil): no worker starts and no job leaves the queue while there is one. */
  private holds = 0;
  /** A warm-up asked for while held, done when the last hold ends. */
  private warmWanted = false;

  constructor(private readonly options: GuidedEnginePoolOptions = {}) {
    this.maxWorkers = Math.max(1, options.workers ?? 1);
    this.memoSize = options.memo ?? 4096;
    this.depth = Math.max(1, options.depth ?? 32);
    this.laneDepth = Math.max(1, options.laneDepth ?? 1);
  }

  /** Jobs in a lane a worker may hold at once from now on (laneDepth). */
  setLaneDepth(n: number): void {
    this.laneDepth = Math.max(1, Math.floor(n));
    this.pump();
  }

  /** Up to `n` worker threads from now on (the editor asks for more than the CLI, which runs one per analysis thread). */
  setWorkers(n: number): void {
    this.maxWorkers = Math.max(1, Math.floor(n));
    this.pump();
  }

  get workers(): number {
    return this.maxWorkers;
  }

  /** Figures summed over the workers. */
  get stats(): GuidedEngineStats {
    const s: GuidedEngineStats = { starts: 0, startMs: [], jobs: 0, failures: 0, messages: 0, answerMessages: 0 };
    for (const e of this.engines) {
      s.starts += e.stats.starts;
      s.startMs.push(...e.stats.startMs);
      s.jobs += e.stats.jobs;
      s.failures += e.stats.failures;
      s.messages += e.stats.messages;
      s.answerMessages += e.stats.answerMessages;
    }
    return s;
  }

  /** Jobs waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  warmUp(): void {
    if (this.holds > 0) {
      this.warmWanted = true;
      return;
    }
    if (!this.engines.length) this.engine(1);
    this.engines[0]?.warmUp();
  }

  /** Whether a worker was started (or asked to start) already. */
  get started(): boolean {
    return this.engines.length > 0;
  }

  /**
   * No worker starts and no job leaves the queue until `release` settles or `maxMs` have passed; jobs asked meanwhile
   * wait in their lanes (and may be re-prioritised or cancelled there). The trace editor holds the engines while a
   * trace's first record is painted, which needs none of them: a worker loading xgrammar's WASM took the CPU that the
   * extension host and the page needed for it on a busy machine.
   */
  holdUntil(release: Promise<unknown>, maxMs: number): void {
    this.holds++;
    let held = true;
    const end = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      if (--this.holds > 0) return;
      if (this.warmWanted) {
        this.warmWanted = false;
        this.warmUp();
      }
      this.pump();
    };
    // Not unref'd: jobs waiting on the hold run when it ends, whatever else keeps the process alive.
    const timer = setTimeout(end, maxMs);
    release.then(end, end);
  }

  /** The lane what-ifs asked now go to. */
  get currentLane(): WhatIfLane {
    return this.lane;
  }

  /** Runs `f` with the what-ifs it asks for (synchronously) queued in `lane`. */
  inLane<T>(lane: WhatIfLane, f: () => T): T {
    const before = this.lane;
    this.lane = lane;
    try {
      return f();
    } finally {
      this.lane = before;
    }
  }

  /** A lane's priority changed or it was cancelled: cancelled jobs end now, the rest wait in the new order. */
  reprioritised(): void {
    if (this.laned === 0) return;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const q = this.queue[i] as Queued;
      if (!q.lane.cancelled) continue;
      this.queue.splice(i, 1);
      if (q.lane !== DEFAULT_LANE) this.laned--;
      q.resolve(CANCELLED);
    }
  }

  whatIf(
    request: Pick<ChatRequest, 'tools' | 'tool_choice'>,
    completion: { text: string; tokens: readonly Token[]; finishReason?: string | null },
    options: WhatIfRequestOptions,
  ): Promise<WhatIfOutcome> {
    // Kept and shared only in a lane (the editor's): the CLI asks each record once, and hashing its input would cost
    // a tenth of the what-if (issue 39).
    const key = this.memoSize > 0 && this.lane !== DEFAULT_LANE ? memoKey(request, completion, options) : null;
    const kept = key === null ? undefined : this.memo.get(key);
    // A copy each time: the caller places the verdict on its own tokens and offsets.
    if (kept) return Promise.resolve(located(copied(kept), completion));
    const lane = this.lane;
    const same = key === null ? undefined : this.inFlight.get(key);
    if (same && !same.lane.cancelled) {
      // Shared: it waits no longer than this caller would (a shown record's what-if asked while a listed row's waits).
      if (lane.priority < same.lane.priority) same.lane.priority = lane.priority;
      return same.run.then((o) =>
        o === CANCELLED ? this.inLane(lane, () => this.whatIf(request, completion, options)) : located(copied(o), completion),
      );
    }
    const run = this.enqueue(lane, (engine) => engine.whatIf(request, completion, options)) as Promise<WhatIfOutcome>;
    if (key === null) return run;
    this.inFlight.set(key, { run, lane });
    void run.then(
      (outcome) => {
        if (this.inFlight.get(key)?.run === run) this.inFlight.delete(key);
        // Only what the engine would answer again: not a cancellation, nor a failure of the worker (time, memory).
        if (outcome === CANCELLED || (!outcome.ran && outcome.unavailable)) return;
        this.memo.set(key, copied(outcome));
        if (this.memo.size > this.memoSize) this.memo.delete(this.memo.keys().next().value as string);
      },
      () => {
        if (this.inFlight.get(key)?.run === run) this.inFlight.delete(key);
      },
    );
    return run;
  }

  constrain(request: ChatRequest, text: string, format: string): Promise<string> {
    // A client waits on the answer: ahead of any what-if of a list.
    return this.enqueue(SHOWN_LANE, (engine) => engine.constrain(request, text, format)) as Promise<string>;
  }

  async close(final = true): Promise<void> {
    this.laned = 0;
    for (const q of this.queue.splice(0)) q.resolve(CANCELLED);
    await Promise.all(this.engines.map((e) => e.close(final)));
  }

  private enqueue(lane: WhatIfLane, run: (engine: GuidedEngine) => Promise<unknown>): Promise<unknown> {
    if (lane.cancelled) return Promise.resolve(CANCELLED);
    return new Promise((resolve, reject) => {
      this.queue.push({ lane, seq: this.seq++, run, resolve, reject });
      if (lane !== DEFAULT_LANE) this.laned++;
      this.pump();
    });
  }

  /** The least busy worker with room for a job, or a new one while there are fewer than allowed; none when all are full. */
  private engine(depth: number): GuidedEngine | undefined {
    let best: GuidedEngine | undefined;
    for (const e of this.engines)
      if ((this.held.get(e) ?? 0) < depth && (!best || (this.held.get(e) ?? 0) < (this.held.get(best) ?? 0))) best = e;
    if (best && (this.held.get(best) ?? 0) === 0) return best;
    if (this.engines.length < this.maxWorkers) {
      const engine = new GuidedEngine(this.options);
      this.engines.push(engine);
      this.held.set(engine, 0);
      return engine;
    }
    return best;
  }

  /** The next job by lane priority, then by the order asked. */
  private next(take: boolean): Queued | undefined {
    if (this.laned === 0) return take ? this.queue.shift() : this.queue[0];
    let best = -1;
    for (let i = 0; i < this.queue.length; i++) {
      const q = this.queue[i] as Queued;
      const b = this.queue[best] as Queued | undefined;
      if (!b || q.lane.priority < b.lane.priority || (q.lane.priority === b.lane.priority && q.seq < b.seq)) best = i;
    }
    if (best < 0) return undefined;
    if (!take) return this.queue[best];
    const taken = this.queue.splice(best, 1)[0] as Queued;
    if (taken.lane !== DEFAULT_LANE) this.laned--;
    return taken;
  }

  private pump(): void {
    this.reprioritised();
    if (this.holds > 0) return;
    while (this.queue.length) {
      const upNext = this.next(false) as Queued;
      const engine = this.engine(upNext.lane === DEFAULT_LANE ? this.depth : this.laneDepth);
      if (!engine) return;
      const job = this.next(true) as Queued;
      this.held.set(engine, (this.held.get(engine) ?? 0) + 1);
      job
        .run(engine)
        .then(job.resolve, job.reject)
        .finally(() => {
          this.held.set(engine, (this.held.get(engine) ?? 1) - 1);
          this.pump();
        });
    }
  }
}

/**
 * Tool sets by their JSON text (hashed), as short numbers: a record's key holds its tool set's number, not its text. A tool
 * set seen before as this very object (the analysis hands equal tool sets over as one object: toolSets.ts) is not
 * written out again: writing and hashing it was most of a key's cost (~9 % of a list worker's time).
 */
const toolSetNumbers = new Map<string, number>();
const toolSetNumberOf = new WeakMap<object, number>();
let toolSetsNumbered = 0;
/** Past this many tool sets the numbers start over (new numbers: a key made before never matches one made after). */
const TOOL_SET_LIMIT = 4096;

function toolSetNumber(tools: Pick<ChatRequest, 'tools'>['tools']): number {
  if (tools === undefined || tools === null) return 0;
  // A hostile trace's `tools` may be no object at all: numbered by its text, not kept by identity.
  const object = typeof tools === 'object';
  const known = object ? toolSetNumberOf.get(tools) : undefined;
  if (known !== undefined) return known;
  const text = sha256(JSON.stringify(tools));
  let n = toolSetNumbers.get(text);
  if (n === undefined) {
    if (toolSetNumbers.size >= TOOL_SET_LIMIT) toolSetNumbers.clear();
    toolSetNumbers.set(text, (n = ++toolSetsNumbered));
  }
  if (object) toolSetNumberOf.set(tools, n);
  return n;
}

/** sha-256 in one call (a Hash object for each key cost a list worker ~3 %). */
const sha256 = (text: string): string => hash('sha256', text, 'base64');

/**
 * The job's whole input: as it is when short (a map's own hashing of a short string costs less than sha-256), else
 * hashed; either way equal inputs give the engine's equal answer.
 */
function memoKey(
  request: Pick<ChatRequest, 'tools' | 'tool_choice'>,
  completion: { text: string; finishReason?: string | null },
  options: WhatIfRequestOptions,
): string {
  const rest = JSON.stringify([request.tool_choice ?? null, options, completion.finishReason ?? null]);
  const input = `${toolSetNumber(request.tools)}\n${rest}\n${completion.text}`;
  // A hash is 44 characters: a short input is kept as it is, marked apart from every hash (which has no newline).
  return input.length <= SHORT_KEY ? input : sha256(input);
}

/** Inputs kept as their own key up to this length: the memo's keys stay within a few MB. */
const SHORT_KEY = 1024;

/**
 * A copy of an outcome whose fields a caller may set (the verdict's place: `charOffset`, `tokenIndex`); the rest is
 * never changed and is shared (structuredClone of every kept answer cost a list worker ~3 %).
 */
function copied(outcome: WhatIfOutcome): WhatIfOutcome {
  return outcome.ran ? { ...outcome, result: { ...outcome.result } } : { ...outcome };
}

/** A kept verdict placed on this completion's tokens (the engine does so for the answer it gives). */
function located(outcome: WhatIfOutcome, completion: { text: string; tokens: readonly Token[] }): WhatIfOutcome {
  if (outcome.ran && !outcome.result.accepted && completion.tokens.length) {
    const { text } = completion;
    outcome.result.tokenIndex = tokenAt(completion.tokens, Math.min(outcome.result.charOffset, Math.max(0, text.length - 1)));
  }
  return outcome;
}

let shared: GuidedEnginePool | undefined;

/** The process's grammar engines (one worker unless a composition root asks for more: the editor does). */
export function guidedEngine(): GuidedEnginePool {
  shared ??= new GuidedEnginePool();
  return shared;
}
