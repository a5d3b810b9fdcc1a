/**
 * The host side of the trace editor without VS Code: an indexed trace file, its record list analysed in the
 * background in batches, record views built on demand, and following a file that grows. Rows and views are handed
 * out as soon as the synchronous analysis is done; the guided what-if's findings follow (`guidedFindings`), so the
 * grammar engine never delays a record on screen.
 */
import { Analyzer, type AnalysisOptions, type AnalyzedRecord } from '../../core/analysis.ts';
import { DIAGNOSTIC_KINDS } from '../../core/diagnostics/registry.ts';
import { stat } from 'node:fs/promises';
import { TraceIndex, type TraceEntry, type TraceIndexOptions } from '../../io/trace/traceIndex.ts';
import { RangeIndex } from '../../io/trace/rangeIndex.ts';
import { InspectLogIndex } from '../../io/trace/inspectLogIndex.ts';
import { TableIndex } from '../../io/trace/tableIndex.ts';
import type { TraceRange } from '../../io/trace/traceRanges.ts';
import type { LoadedRecord } from '../../core/trace/record.ts';
import type {
  EvalPanelView,
  GuidedFindings,
  LineErrorView,
  RecordSummary,
  RecordView,
  TraceInfo,
  VllmGroupingChoice,
  VllmView,
} from '../../shared/protocol.ts';
import { recordSummary, recordView } from './recordView.ts';
import { evalPanelFor } from '../eval/evalPanel.ts';
import { comparisonFor } from './comparison.ts';
import { vllmView } from './vllmView.ts';
import { withGuidedFindings } from '../../shared/guidedFindings.ts';
import { nodeServices } from '../../io/nodeServices.ts';
import { guidedEngine, LANE, type WhatIfLane } from '../../io/guided/guidedEnginePool.ts';
import type { ListWorkers, RangeSink } from './listWorkers.ts';

export interface SummaryBatch {
  summaries: RecordSummary[];
  lineErrors: LineErrorView[];
}

/** A batch of the list, and the what-if findings of rows handed out before it (to send after it). */
export interface ListBatch extends SummaryBatch {
  guided: GuidedFindings[];
}

/** A record view, and its guided findings to come when it was built without them (`view.guidedPending`). */
export interface RecordResult {
  view: RecordView;
  loaded: LoadedRecord;
  /** Its findings once the what-if answers; they resolve to null when they no longer apply (other options, the entry re-read). */
  guided: Promise<GuidedFindings | null> | null;
}

/**
 * The list's what-ifs under way at once: beyond that, the list waits for the grammar engines. Enough to keep every
 * worker fed while this thread analyses a batch (an answer waits for the batch to end); few enough to bound the
 * records held in memory. A shown record's what-if does not queue behind them: its lane goes first.
 */
const LIST_WHAT_IFS_IN_FLIGHT = 64;

/**
 * Bytes indexed before the session opens: the first record is painted without scanning a big file through (3 s of
 * a 200 MB trace's open at load 24); the rest is indexed a step of this size at a time, as the list reaches it (a
 * scan running beside the list held each read behind a step).
 */
const FIRST_INDEX_BYTES = 8 * 1024 * 1024;

/**
 * A line trace this big or bigger is listed on the list workers (listWorkers.ts) when the session has them: all but
 * its first HEAD_BYTES, which this thread lists at once (the first rows and the record shown do not wait for the
 * workers to start). The ranges sent grow from FIRST_RANGE_BYTES to RANGE_BYTES: the first rows come soon, the
 * rest in ranges big enough that a range's start costs little.
 */
const WORKERS_MIN_BYTES = 8 * 1024 * 1024;
const HEAD_BYTES = 512 * 1024;
const FIRST_RANGE_BYTES = 256 * 1024;
const RANGE_BYTES = 4 * 1024 * 1024;
/** Rows of the workers handed out at most at once (about what this thread lists in a batch). */
const HANDED_ROWS = 200;

/** A range of the list on a list worker: its rows are handed out in entry order, whichever worker finishes first. */
interface WorkerRange {
  id: number;
  first: number;
  /** One past its last entry (less once cancelled from there). */
  end: number;
  /** Rows and errors received and not handed out yet. */
  batches: SummaryBatch[];
  listed: boolean;
  done: boolean;
}

/** A list worker's session over a range: its analyzer (shared by its ranges), and its what-ifs under way at most. */
export interface RangeLister {
  analyzer: Analyzer;
  whatIfsAhead: number;
}

/** The list of a big file on the list workers. */
interface WorkerList {
  workers: ListWorkers;
  /** Entries before this one are listed on this thread. */
  headEnd: number;
  /** Entries before this one have been sent to a worker (or are the head's). */
  sent: number;
  /** Ranges whose rows are not all handed out yet, in entry order. */
  ahead: WorkerRange[];
  /** Every range not done (rows to hand out, or what-ifs still running), by id. */
  live: Map<number, WorkerRange>;
  /** The file's line index (a whole file's session: its own index). */
  lines: TraceIndex;
  /** Ranges sent so far (they grow to RANGE_BYTES). */
  ranges: number;
  /** Indexing the rest of the file failed: why (the list ends there). */
  error?: string;
  /** Sending ranges (one at a time). */
  sending: Promise<void> | null;
  /** Ranges may be sent (a record was shown, or the head is listed). */
  started: boolean;
  stopIdle: () => void;
  /** Where a handed-out row is in `summaries`, by key (a finding completes it there). */
  rowAt: Map<string, number>;
}

/** The entries a session shows: a whole file's index, or one range of a big file's entries (numbered as in the file). */
type SessionIndex = Pick<TraceIndex, 'count' | 'read' | 'line' | 'refresh' | 'close'>;

/** A record view kept for stepping back to it; completed in place when its what-if answers. */
interface KeptView {
  view: RecordView;
  guided: Promise<GuidedFindings | null> | null;
  lane: WhatIfLane | null;
}

/** A what-if under way for a record of the current options; `stale` once its record was read again. */
interface WhatIfUnderWay {
  key: string;
  entry: number;
  generation: number;
  stale: boolean;
  /** Where its job waits for a grammar engine (re-prioritised as the user scrolls, cancelled when stale). */
  lane: WhatIfLane;
  done: Promise<void>;
  /** Its findings (null: stale). */
  findings: Promise<GuidedFindings | null>;
}

export class TraceSession {
  private analyzer: Analyzer;
  private options: AnalysisOptions;
  private readonly summaries: RecordSummary[] = [];
  private readonly lineErrors: LineErrorView[] = [];
  /** Entries before this one are in `summaries`. */
  private analysedEntries: number;
  private readonly views = new Map<string, KeptView>();
  /** Bumped when every analysis so far stops applying (other options, the file replaced). */
  private generation = 0;
  /** The list's what-ifs under way, and the record views' (oldest first). */
  private readonly listWhatIfs = new Set<WhatIfUnderWay>();
  private readonly viewWhatIfs = new Set<WhatIfUnderWay>();
  /**
   * The batch being built, and where each of its rows is by key: a what-if that answers before it is handed out
   * completes its row there (found by key, not by a search of the batch for each answer).
   */
  private building: { rows: RecordSummary[]; at: Map<string, number> } | null = null;
  /** Findings for rows already handed out, to go with the next batch (or `nextGuidedFindings`). */
  private readonly guidedOut: GuidedFindings[] = [];
  /**
   * The list's findings by key, kept while everything is analysed for a report (`analyseAll`): its record views take
   * them instead of running each what-if a second time.
   */
  private readonly listFindings = new Map<string, GuidedFindings>();
  private keepListFindings = false;
  /** The rows the user sees in the list, and the record shown: their what-ifs run first. */
  private inView = new Set<string>();
  private shownLane: WhatIfLane | null = null;
  /** A line index opened on the file's first bytes, and the file's size then: the rest is indexed as the list goes. */
  private partial: { lines: TraceIndex; size: number } | null = null;
  /** K2VV figures, when the file is a K2VV results file (computed on open and when it changes). */
  private evalPanel: EvalPanelView | null = null;
  /** The list's what-ifs under way at most (LIST_WHAT_IFS_IN_FLIGHT unless a list worker says). */
  private whatIfsAhead = LIST_WHAT_IFS_IN_FLIGHT;
  /** Entries from here on are not listed (a worker's range cut short: `endAt`). */
  private end = Infinity;
  /** A big line trace's list on the list workers, when the session has them. */
  private workerList: WorkerList | null = null;
  /** Woken when the workers' list moves on (rows, findings, a range done) or a what-if of this thread answers. */
  private waiters: (() => void)[] = [];
  /** Indexing the next step of the file (one at a time). */
  private indexing: Promise<void> | null = null;

  private constructor(
    private readonly index: SessionIndex,
    readonly fileName: string,
    options: AnalysisOptions,
    private readonly path: string,
    /** The first entry shown: 0 for a whole file, the range's first for a range. */
    private readonly first: number,
    analyzer?: Analyzer,
  ) {
    this.options = { ...options };
    this.analyzer = analyzer ?? new Analyzer(this.options, nodeServices());
    this.analysedEntries = first;
  }

  /**
   * `workers`: a big line trace's list is analysed on these threads (the extension host's thread stays free to
   * answer the user); without, on this thread.
   */
  static async open(
    path: string,
    fileName: string,
    options: AnalysisOptions = {},
    index: TraceIndexOptions = {},
    workers?: ListWorkers,
  ): Promise<TraceSession> {
    // An Inspect log (.eval, or a .json holding one) is one document of model events, not lines.
    // A table (Parquet, CSV) is rows, not lines; both are read by the readers `analyze` uses.
    let lines: TraceIndex | null = null;
    const opener = async (): Promise<SessionIndex> =>
      (await TableIndex.open(path)) ??
      (await InspectLogIndex.open(path)) ??
      (lines = await TraceIndex.open(path, { limit: FIRST_INDEX_BYTES, ...index }));
    const session = await TraceSession.opened(path, opener, fileName, options, 0, true);
    const opened = lines as TraceIndex | null;
    if (opened) {
      const { size } = await stat(path);
      if (opened.size < size) session.partial = { lines: opened, size };
      if (workers && size >= WORKERS_MIN_BYTES) session.listOnWorkers(workers, opened);
    }
    return session;
  }

  /** Indexes the next step of the file (the list reached the end of what is indexed). */
  private indexMore(): Promise<void> {
    this.indexing ??= (async () => {
      const p = this.partial;
      if (!p) return;
      const before = p.lines.size;
      await p.lines.indexTo(Math.min(p.size, before + FIRST_INDEX_BYTES));
      if (p.lines.size >= p.size || p.lines.size === before) this.partial = null;
    })().finally(() => (this.indexing = null));
    return this.indexing;
  }

  /** Entries that no longer change: while the file is still being indexed, its last two may (a line cut at a step). */
  private get finalEntries(): number {
    return Math.min(this.end, this.partial ? Math.max(this.first, this.index.count - 2) : this.index.count);
  }

  /** Entries this thread lists: up to the workers' part, if they have one. */
  private get listedHere(): number {
    return this.workerList ? Math.min(this.finalEntries, this.workerList.headEnd) : this.finalEntries;
  }

  /**
   * A session over one range of a big file's entries (a report built on several threads): the rows, views and keys
   * of those entries as a session over the whole file has them. The eval panel only with `withEval` (it reads the
   * file from its start: one range of the file is enough to ask).
   */
  static async openRange(
    range: TraceRange,
    fileName: string,
    options: AnalysisOptions,
    withEval: boolean,
    lister?: RangeLister,
  ): Promise<TraceSession> {
    const session = await TraceSession.opened(
      range.path,
      () => RangeIndex.open(range),
      fileName,
      options,
      range.entries[0]?.index ?? 0,
      withEval,
      lister?.analyzer,
    );
    if (lister) session.whatIfsAhead = lister.whatIfsAhead;
    return session;
  }

  private static async opened(
    path: string,
    index: () => Promise<SessionIndex>,
    fileName: string,
    options: AnalysisOptions,
    first: number,
    withEval: boolean,
    analyzer?: Analyzer,
  ): Promise<TraceSession> {
    // xgrammar's worker loads its WASM module while the file is indexed (an analyzer handed in comes with its engine).
    if (options.guided !== false && !analyzer) nodeServices().grammarEngine.warmUp();
    const session = new TraceSession(await index(), fileName, options, path, first, analyzer);
    if (withEval) session.evalPanel = await evalPanelFor(path);
    return session;
  }

  info(host: TraceInfo['host']): TraceInfo {
    return {
      fileName: this.fileName,
      entries: this.index.count - this.first,
      // Rows still waiting for their what-if count as not analysed yet.
      analysing:
        this.partial !== null ||
        this.analysedEntries < this.index.count ||
        this.listWhatIfs.size > 0 ||
        // Findings not handed out yet: a row still shows its what-if as pending.
        this.guidedOut.length > 0 ||
        (this.workerList !== null && this.workerList.live.size > 0),
      host,
      format: this.options.format || null,
      eval: this.evalPanel,
      diagnosticKinds: DIAGNOSTIC_KINDS,
    };
  }

  /**
   * Analyses with other options from now on (the user chose another format): the list starts over and no cached
   * view survives. False, and nothing changes, when the options are the same. Not while a batch is running.
   */
  setOptions(options: AnalysisOptions): boolean {
    // Options not given stay as they were (a new format keeps the chat template).
    const next = { ...this.options, ...options };
    const same =
      (['format', 'startInReasoning', 'recoverRawFallback', 'vllmProfile', 'deltaTokens'] as const).every(
        (k) => (next[k] || undefined) === (this.options[k] || undefined),
      ) &&
      // Unset means on: only `false` turns the profile's reasoning parser off.
      (next.vllmReasoningParser !== false) === (this.options.vllmReasoningParser !== false) &&
      [...(next.ignore ?? [])].sort().join(',') === [...(this.options.ignore ?? [])].sort().join(',') &&
      next.template?.source === this.options.template?.source &&
      JSON.stringify(next.tokenizers ?? null) === JSON.stringify(this.options.tokenizers ?? null);
    if (same) return false;
    this.options = next;
    this.analyzer = new Analyzer(next, nodeServices());
    this.startOver();
    return true;
  }

  snapshot(): SummaryBatch {
    return { summaries: [...this.summaries], lineErrors: [...this.lineErrors] };
  }

  /**
   * Analyses the next entries for the list, until about `budgetMs` has passed; null when all are done. Rows whose
   * what-if is still running are `guidedPending`; their findings come with a later batch or `nextGuidedFindings`.
   */
  async nextBatch(budgetMs = 50): Promise<ListBatch | null> {
    const w = this.workerList;
    // The workers start once a record is shown (or the head is listed): the first paint needs neither their threads
    // nor their bundles loading beside it.
    if (w && (w.started || this.analysedEntries >= w.headEnd)) void this.sendRanges(w);
    if (w && this.analysedEntries >= w.headEnd) return this.nextWorkerBatch(w);
    // At the end of what is indexed so far: the next step (or the end of the file) decides.
    while (this.partial && this.analysedEntries >= this.finalEntries) await this.indexMore();
    if (this.analysedEntries >= Math.min(this.index.count, this.end)) return null;
    // The list may run ahead of the grammar engine by a few records, no more.
    // (Woken by each answer: racing every what-if under way would cost as many reactions as there are.)
    while (this.listWhatIfs.size >= this.whatIfsAhead) await this.changed();
    const started = Date.now();
    const batch: ListBatch = { summaries: [], lineErrors: [], guided: [] };
    const building = (this.building = { rows: batch.summaries, at: new Map<string, number>() });
    try {
      while (this.analysedEntries < this.listedHere && Date.now() - started < budgetMs && this.listWhatIfs.size < this.whatIfsAhead) {
        const entry = this.analysedEntries;
        const { records, errors } = await this.index.read(entry);
        for (const [k, loaded] of records.entries()) {
          const key = `${entry}:${k}`;
          const lane: WhatIfLane = { priority: this.inView.has(key) ? LANE.inView : LANE.listed, cancelled: false, key };
          const outcome = guidedEngine().inLane(lane, () => this.analyzer.analyzeGuardedInSteps(loaded));
          if (outcome.kind === 'error') {
            batch.lineErrors.push(outcome.error);
            continue;
          }
          const summary = recordSummary(key, entry, outcome.analysed, loaded.record);
          summary.guidedPending = outcome.guided !== null;
          building.at.set(key, batch.summaries.length);
          batch.summaries.push(summary);
          if (outcome.guided) this.listWhatIf(key, entry, loaded, outcome.guided, lane);
        }
        batch.lineErrors.push(...errors.map((e) => ({ line: e.line, message: e.message })));
        this.analysedEntries++;
      }
    } finally {
      this.building = null;
    }
    this.summaries.push(...batch.summaries);
    this.lineErrors.push(...batch.lineErrors);
    batch.guided = this.guidedOut.splice(0);
    return batch;
  }

  /**
   * The findings of listed rows whose what-if answered since the last batch, waiting for one when none has; null
   * when no what-if of the list is under way (every row is complete).
   */
  async nextGuidedFindings(): Promise<GuidedFindings[] | null> {
    const onWorkers = () => (this.workerList?.live.size ?? 0) > 0;
    if (!this.guidedOut.length && onWorkers()) await this.changed();
    else if (!this.guidedOut.length && this.listWhatIfs.size) await this.changed();
    if (!this.guidedOut.length && !this.listWhatIfs.size && !onWorkers()) return null;
    return this.guidedOut.splice(0);
  }

  /** Resolves when the workers' list moves on or a what-if of this thread answers. */
  private changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** From now on the list is made on `workers`, but for its first entries (HEAD_BYTES), which this thread lists. */
  private listOnWorkers(workers: ListWorkers, lines: TraceIndex): void {
    let headEnd = this.first;
    while (headEnd < this.finalEntries && lines.byteRange(headEnd).start < HEAD_BYTES) headEnd++;
    this.workerList = {
      workers,
      lines,
      headEnd,
      sent: headEnd,
      ranges: 0,
      ahead: [],
      live: new Map(),
      sending: null,
      stopIdle: workers.onIdle(() => {
        if (this.workerList) void this.sendRanges(this.workerList);
      }),
      rowAt: new Map(),
      started: false,
    };
  }

  /** Sends the next ranges of the file to the list workers while one is free. */
  private sendRanges(w: WorkerList): Promise<void> {
    w.started = true;
    // Whether a waiter has something new to see: a range sent, the end of the file reached, or an error. Not when
    // every thread is busy: a wake then would have the list ask again at once, round after round of microtasks, and
    // the thread's answer that frees a worker (a message, a macrotask) would never be heard.
    let news = false;
    w.sending ??= (async () => {
      try {
        while (w.workers.idle && this.workerList === w) {
          while (this.partial && w.sent >= this.finalEntries) await this.indexMore();
          const final = this.finalEntries;
          const from = w.sent;
          if (from >= final) {
            news = true;
            return;
          }
          const target = Math.min(RANGE_BYTES, FIRST_RANGE_BYTES * 2 ** w.ranges);
          const base = w.lines.byteRange(from).start;
          let to = from + 1;
          while (to < final && w.lines.byteRange(to).end - base <= target) to++;
          const entries: TraceEntry[] = [];
          for (let i = from; i < to; i++) entries.push(w.lines.entry(i));
          const r: WorkerRange = { id: 0, first: from, end: to, batches: [], listed: false, done: false };
          const range: TraceRange = { path: this.path, entries, bytes: w.lines.byteRange(to - 1).end - base };
          r.id = w.workers.list(range, this.fileName, this.options, this.rangeSink(w, r), [...this.inView]);
          w.sent = to;
          w.ranges++;
          w.ahead.push(r);
          w.live.set(r.id, r);
          news = true;
        }
      } catch (err) {
        news = true;
        // Indexing on failed (the file went away): the list ends with what was sent, and says why.
        w.error = `line ${w.sent < this.index.count ? this.index.line(w.sent) : '?'}: the rest of the file could not be read: ${err instanceof Error ? err.message : String(err)}`;
      }
    })().finally(() => {
      // (In `finally`, which runs after the assignment: the loop may end without awaiting anything.)
      w.sending = null;
      if (news) this.wake();
    });
    return w.sending;
  }

  /** Where a range's answers go: its rows wait their turn, its findings complete rows wherever they are. */
  private rangeSink(w: WorkerList, r: WorkerRange): RangeSink {
    const live = () => this.workerList === w && w.live.get(r.id) === r;
    const endLine = () => (r.end < this.index.count ? this.index.line(r.end) : Number.MAX_SAFE_INTEGER);
    return {
      batch: (summaries, lineErrors, guided) => {
        if (!live()) return;
        const last = endLine();
        r.batches.push({ summaries: summaries.filter((s) => s.entry < r.end), lineErrors: lineErrors.filter((e) => e.line < last) });
        this.workerFindings(w, r, guided);
        this.wake();
      },
      listed: () => {
        if (!live()) return;
        r.listed = true;
        this.wake();
      },
      guided: (findings) => {
        if (!live()) return;
        this.workerFindings(w, r, findings);
        this.wake();
      },
      done: (error) => {
        if (!live()) return;
        w.live.delete(r.id);
        r.listed = true;
        r.done = true;
        // The range could not be listed (its thread died): said on its first line, and the list goes on.
        if (error)
          r.batches.push({
            summaries: [],
            lineErrors: [{ line: this.index.line(r.first), message: `line ${this.index.line(r.first)}: ${error}` }],
          });
        this.wake();
      },
    };
  }

  /** A worker's what-if findings: the row is completed where it is (handed out: the findings follow the next batch). */
  private workerFindings(w: WorkerList, r: WorkerRange, findings: GuidedFindings[]): void {
    for (const f of findings) {
      if (f.summary.entry >= r.end) continue;
      const at = w.rowAt.get(f.key);
      if (at !== undefined) {
        this.summaries[at] = f.summary;
        this.guidedOut.push(f);
        continue;
      }
      for (const b of r.batches) {
        const i = b.summaries.findIndex((s) => s.key === f.key);
        if (i < 0) continue;
        b.summaries[i] = f.summary;
        break;
      }
    }
  }

  /** The workers' rows in entry order: the oldest range's, as they come; null when every range is handed out. */
  private async nextWorkerBatch(w: WorkerList): Promise<ListBatch | null> {
    for (;;) {
      // Closed (or the workers' list replaced): nothing more comes from this one.
      if (this.workerList !== w) return null;
      const r = w.ahead[0];
      if (r && r.batches.length) {
        // At most HANDED_ROWS at a time: a range finished while the one before it was listed holds thousands of rows,
        // and the page appends each batch in one go.
        const batch: ListBatch = { summaries: [], lineErrors: [], guided: [] };
        while (r.batches.length && batch.summaries.length < HANDED_ROWS) {
          const b = r.batches[0] as SummaryBatch;
          const room = HANDED_ROWS - batch.summaries.length;
          batch.summaries.push(...b.summaries.splice(0, room));
          if (b.summaries.length) break;
          batch.lineErrors.push(...b.lineErrors);
          r.batches.shift();
        }
        for (const s of batch.summaries) {
          w.rowAt.set(s.key, this.summaries.length);
          this.summaries.push(s);
        }
        this.lineErrors.push(...batch.lineErrors);
        const last = batch.summaries.at(-1);
        if (last) this.analysedEntries = Math.max(this.analysedEntries, last.entry + 1);
        batch.guided = this.guidedOut.splice(0);
        return batch;
      }
      if (r?.listed) {
        w.ahead.shift();
        this.analysedEntries = Math.max(this.analysedEntries, r.end);
        continue;
      }
      if (!r && w.error) {
        const error = { line: this.index.line(Math.min(w.sent, this.index.count - 1)), message: w.error };
        w.error = undefined;
        w.sent = this.analysedEntries = Math.min(this.index.count, this.end);
        this.lineErrors.push(error);
        return { summaries: [], lineErrors: [error], guided: this.guidedOut.splice(0) };
      }
      if (!r && !w.sending && !this.partial && w.sent >= Math.min(this.index.count, this.end)) {
        this.analysedEntries = Math.max(this.analysedEntries, w.sent);
        return null;
      }
      if (!r) void this.sendRanges(w);
      await this.changed();
    }
  }

  /** The workers' ranges from entry `cut` on no longer apply: cancelled there (rows before it are still handed out). */
  private cutWorkers(cut: number): void {
    const w = this.workerList;
    if (!w) return;
    for (const r of new Set([...w.ahead, ...w.live.values()])) {
      if (r.end <= cut) continue;
      if (!r.done) w.workers.cancel(r.id, Math.max(cut, r.first));
      r.end = Math.max(r.first, cut);
      if (r.end === r.first) w.live.delete(r.id);
      for (const b of r.batches) b.summaries = b.summaries.filter((s) => s.entry < r.end);
    }
    w.ahead = w.ahead.filter((r) => r.end > r.first);
    w.sent = Math.max(w.headEnd, Math.min(w.sent, cut));
    this.wake();
  }

  /**
   * Entries from `entry` on are not listed (a list worker's range, cut short by its host): what-ifs of those under
   * way are cancelled, and rows of them not handed out dropped.
   */
  endAt(entry: number): void {
    const cut = Math.max(this.first, entry);
    if (cut >= this.end) return;
    this.end = cut;
    this.cutAt(cut);
    this.wake();
  }

  /** Follows a listed row's what-if: its findings complete the row, in the batch being built or after it. */
  private listWhatIf(key: string, entry: number, loaded: LoadedRecord, guided: Promise<AnalyzedRecord>, lane: WhatIfLane): void {
    const underWay: WhatIfUnderWay = {
      key,
      entry,
      generation: this.generation,
      stale: false,
      lane,
      done: Promise.resolve(),
      findings: Promise.resolve(null),
    };
    underWay.findings = guided
      .then((complete): GuidedFindings | null => {
        this.listWhatIfs.delete(underWay);
        if (underWay.stale || underWay.generation !== this.generation) return null;
        const summary = recordSummary(key, entry, complete, loaded.record);
        const findings: GuidedFindings = { key, diagnostics: complete.diagnostics, ignored: complete.ignored, summary };
        if (this.keepListFindings) this.listFindings.set(key, findings);
        const building = this.building?.at.get(key);
        if (this.building && building !== undefined) {
          this.building.rows[building] = summary;
          return findings;
        }
        // Handed out already (the newest rows are at the end).
        const at = this.summaries.findLastIndex((s) => s.key === key);
        if (at < 0) return findings;
        this.summaries[at] = summary;
        this.guidedOut.push(findings);
        return findings;
      })
      // Whatever happens, the list goes on (`guided` itself never rejects).
      .catch(() => null);
    underWay.done = underWay.findings.then(() => this.wake());
    this.listWhatIfs.add(underWay);
  }

  /**
   * The rows the list shows now (the user scrolled): their what-ifs still waiting go before the others'. Keys
   * not listed yet count when their rows come.
   */
  setInView(keys: readonly string[]): void {
    this.inView = new Set(keys);
    // The workers' rows: their what-ifs wait on the workers' grammar engines.
    const w = this.workerList;
    if (w) w.workers.setInView(w.live.keys(), keys);
    for (const w of this.listWhatIfs) if (w.lane !== this.shownLane) w.lane.priority = this.inView.has(w.key) ? LANE.inView : LANE.listed;
    guidedEngine().reprioritised();
  }

  /** The record on screen is now `lane`'s: the one shown before goes back among the list's. */
  private show(lane: WhatIfLane | null): void {
    if (this.shownLane && this.shownLane !== lane) this.shownLane.priority = LANE.listed;
    this.shownLane = lane;
    if (lane) lane.priority = LANE.shown;
    guidedEngine().reprioritised();
  }

  /** What-ifs that no longer apply end without reaching a worker, if they have not started. */
  private cancel(whatIfs: Iterable<WhatIfUnderWay>): void {
    for (const w of whatIfs) {
      w.stale = true;
      w.lane.cancelled = true;
    }
    guidedEngine().reprioritised();
  }

  /** Analyses everything (the standalone report), the what-if included. */
  async analyseAll(): Promise<SummaryBatch> {
    this.keepListFindings = true;
    while (await this.nextBatch(1000));
    while (await this.nextGuidedFindings());
    return this.snapshot();
  }

  /**
   * A record's view, as soon as its synchronous analysis is done: with `guided` (its findings to come) while its
   * what-if runs. Views are kept, and completed when their what-if answers.
   */
  async record(key: string, opts: { listWaits?: boolean } = {}): Promise<RecordResult> {
    const m = /^(\d+):(\d+)$/u.exec(key);
    if (!m) throw new Error(`bad record key "${key}"`);
    const entry = Number(m[1]);
    const k = Number(m[2]);
    while (this.partial && entry >= this.finalEntries) await this.indexMore();
    if (entry < this.first || entry >= this.index.count)
      throw new Error(`record ${key} is not in the file (it has ${this.index.count} entries)`);
    const { records, errors } = await this.index.read(entry);
    const loaded = records[k];
    if (!loaded) throw new Error(errors[0] ? `line ${errors[0].line}: ${errors[0].message}` : `record ${key} is not in the file`);
    const cached = this.views.get(key);
    if (cached) {
      this.show(cached.lane);
      return { view: cached.view, loaded, guided: cached.guided };
    }
    const generation = this.generation;
    // Its what-if already answered for the list (a report): the same findings, not a second run.
    const known = this.listFindings.get(key);
    // Still under way for the list: that job goes first now, and its findings complete this view too.
    const listed = [...this.listWhatIfs].find((w) => w.key === key && !w.stale);
    const lane: WhatIfLane = listed?.lane ?? { priority: LANE.shown, cancelled: false, key };
    this.show(lane);
    const outcome = guidedEngine().inLane(lane, () => this.analyzer.analyzeGuardedInSteps(loaded, known === undefined && !listed));
    if (outcome.kind === 'error') throw new Error(outcome.error.message);
    let view = recordView(key, outcome.analysed, loaded.record);
    if (known) view = withGuidedFindings(view, known);
    view.guidedPending = outcome.guided !== null || listed !== undefined;
    const kept: KeptView = { view, guided: null, lane };
    if (outcome.guided) kept.guided = this.viewWhatIf(key, entry, loaded, outcome.guided, kept, generation, lane);
    else if (listed) kept.guided = this.followListWhatIf(listed, kept);
    const comparison = await comparisonFor(this.path, loaded, this.analyzer);
    kept.view.comparison = comparison;
    // Options changed while the comparison was read: this view is not kept.
    if (generation === this.generation) {
      // Keep a few views: stepping back and forth between records should not re-analyse.
      this.views.set(key, kept);
      if (this.views.size > 8) this.views.delete(this.views.keys().next().value as string);
    }
    // The record is on its way to the screen: the list workers start after it has gone (a turn later), or when told
    // (`listWaits`: a record written into a page that has still to load; startListWorkers).
    const w = this.workerList;
    if (w && !w.started && !opts.listWaits) setTimeout(() => this.workerList === w && void this.sendRanges(w), 0);
    // The what-if may have answered meanwhile: then the view is complete already.
    return { view: kept.view, loaded, guided: kept.guided };
  }

  /** The list workers start now, if a record shown with `listWaits` held them. */
  startListWorkers(): void {
    const w = this.workerList;
    if (w && !w.started) void this.sendRanges(w);
  }

  /** A record's view with its guided findings (the standalone report, which shows nothing until it is complete). */
  async completeRecord(key: string): Promise<RecordView> {
    const { view, guided } = await this.record(key);
    const findings = guided ? await guided : null;
    return findings ? withGuidedFindings(view, findings) : view;
  }

  /** Follows a record view's what-if: its findings, and the kept view completed. */
  private viewWhatIf(
    key: string,
    entry: number,
    loaded: LoadedRecord,
    guided: Promise<AnalyzedRecord>,
    kept: KeptView,
    generation: number,
    lane: WhatIfLane,
  ): Promise<GuidedFindings | null> {
    const underWay: WhatIfUnderWay = {
      key,
      entry,
      generation,
      stale: false,
      lane,
      done: Promise.resolve(),
      findings: Promise.resolve(null),
    };
    this.viewWhatIfs.add(underWay);
    return guided.then((complete) => {
      this.viewWhatIfs.delete(underWay);
      if (underWay.stale || underWay.generation !== this.generation) return null;
      const findings: GuidedFindings = {
        key,
        diagnostics: complete.diagnostics,
        ignored: complete.ignored,
        summary: recordSummary(key, entry, complete, loaded.record),
      };
      // The kept view is complete from now on (kept or not).
      kept.view = withGuidedFindings(kept.view, findings);
      kept.guided = null;
      return findings;
    });
  }

  /** A view whose record's what-if was under way for the list: completed by the list's findings. */
  private followListWhatIf(listed: WhatIfUnderWay, kept: KeptView): Promise<GuidedFindings | null> {
    return listed.findings.then((findings) => {
      if (!findings) return null;
      kept.view = withGuidedFindings(kept.view, findings);
      kept.guided = null;
      return findings;
    });
  }

  /**
   * The record's raw completion through the chosen vLLM profile again, grouped into deltas another way (the
   * editor's grouping control). The list and the record view keep the grouping the options name.
   */
  async vllmRun(key: string, grouping: VllmGroupingChoice): Promise<VllmView> {
    if (!this.options.vllmProfile) throw new Error('no vLLM profile is chosen (the toolscope.vllmProfile setting)');
    const { loaded } = await this.record(key);
    const deltaTokens = grouping.kind === 'recorded' ? 'recorded' : grouping.perDelta;
    const view = vllmView(new Analyzer({ ...this.options, deltaTokens }, nodeServices()).analyze(loaded));
    if (!view) throw new Error('this record has no raw Kimi K2 completion to run through a vLLM profile');
    return view;
  }

  /**
   * Picks up appended records. `reset` when the file was replaced or shrank: the list starts over.
   * The last entry may have grown (an SSE stream still being written), so it is analysed again.
   */
  async refresh(): Promise<{ reset: boolean }> {
    // A refresh scans on to the file's end: every entry is indexed after it.
    const r = await this.index.refresh();
    this.partial = null;
    this.views.clear();
    if (this.evalPanel || r.reset) this.evalPanel = await evalPanelFor(this.path);
    if (r.reset) {
      this.startOver();
      return { reset: true };
    }
    // Ranges on the workers from the first changed entry on are listed again.
    this.cutWorkers(r.firstChanged);
    if (r.firstChanged < this.analysedEntries) this.cutAt(r.firstChanged);
    return { reset: false };
  }

  /** Entries from `cut` on are to be listed again: their what-ifs, findings, rows and errors go. */
  private cutAt(cut: number): void {
    // What-ifs of the entries read again no longer apply; the others' rows are kept and still completed.
    this.cancel([...this.listWhatIfs, ...this.viewWhatIfs].filter((w) => w.entry >= cut));
    for (const f of [...this.listFindings.values()]) if (f.summary.entry >= cut) this.listFindings.delete(f.key);
    for (let i = this.guidedOut.length - 1; i >= 0; i--)
      if ((this.guidedOut[i] as GuidedFindings).summary.entry >= cut) this.guidedOut.splice(i, 1);
    if (cut >= this.analysedEntries) return;
    let keep = 0;
    while (keep < this.summaries.length && (this.summaries[keep] as RecordSummary).entry < cut) keep++;
    for (const s of this.summaries.slice(keep)) this.workerList?.rowAt.delete(s.key);
    this.summaries.length = keep;
    const firstLine = cut < this.index.count ? this.index.line(cut) : Number.MAX_SAFE_INTEGER;
    const kept = this.lineErrors.filter((e) => e.line < firstLine);
    this.lineErrors.length = 0;
    this.lineErrors.push(...kept);
    this.analysedEntries = cut;
  }

  /** The list starts over: nothing analysed so far applies, what-ifs under way included. */
  private startOver(): void {
    this.generation++;
    this.cancel([...this.listWhatIfs, ...this.viewWhatIfs]);
    this.cutWorkers(this.first);
    this.workerList?.rowAt.clear();
    this.summaries.length = 0;
    this.lineErrors.length = 0;
    this.analysedEntries = this.first;
    this.views.clear();
    this.guidedOut.length = 0;
    this.listFindings.clear();
  }

  close(): Promise<void> {
    // The workers stop listing this file and running its what-ifs.
    this.cutWorkers(this.first);
    this.workerList?.stopIdle();
    this.workerList = null;
    this.wake();
    return this.index.close();
  }
}
