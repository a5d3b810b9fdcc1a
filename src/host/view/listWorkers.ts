/**
 * The trace editor's list workers: threads that list ranges of a big file's entries (listWorker.ts), so the record
 * analysis of a 200 MB trace (about 20 s of CPU) runs beside the extension host's thread instead of on it. A range
 * goes to a thread that is listing nothing (its earlier ranges' what-ifs may still run there); each range's answers
 * go to the sink its session gave. Each thread runs its rows' what-ifs on a grammar worker of its own (listWorker.ts);
 * the host says which rows the user sees. Threads start when first needed, and do not keep the process alive.
 */
import type { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import type { AnalysisOptions } from '../../core/analysis.ts';
import type { TraceRange } from '../../io/trace/traceRanges.ts';
import { startWorker } from '../../io/workerThread.ts';
import type { GuidedFindings, LineErrorView, RecordSummary } from '../../shared/protocol.ts';
import { LIST_WORKER, type ListWorkerAnswer, type ListWorkerRequest } from './listWorkerProtocol.ts';

/** Where one range's answers go (its session). */
export interface RangeSink {
  batch(summaries: RecordSummary[], lineErrors: LineErrorView[], guided: GuidedFindings[]): void;
  listed(): void;
  guided(findings: GuidedFindings[]): void;
  /** Nothing more comes; `error` when the range could not be listed (or its thread died). */
  done(error?: string): void;
}

interface Thread {
  worker: Worker;
  /** The range it lists now, if any. */
  listing: number | null;
  /** Every range it has not finished (listing or running what-ifs). */
  ranges: Set<number>;
}

/** Bundled: dist/listWorker.js beside this bundle (scripts/build.mjs); from source: the module itself. */
function workerFile(): string {
  return join(dirname(__filename), __filename.endsWith('.ts') ? 'listWorker.ts' : 'listWorker.js');
}

export class ListWorkers {
  private readonly threads: Thread[] = [];
  private readonly sinks = new Map<number, { sink: RangeSink; thread: Thread }>();
  private nextId = 1;
  /** Called when a thread may take a range (one finished listing, or died). */
  private readonly idleListeners = new Set<() => void>();

  constructor(private max: number) {}

  /** Up to `n` threads from now on. */
  setWorkers(n: number): void {
    this.max = Math.max(1, Math.floor(n));
  }

  get workers(): number {
    return this.max;
  }

  /** A thread could take a range now. */
  get idle(): boolean {
    return this.threads.length < this.max || this.threads.some((t) => t.listing === null);
  }

  /** Calls `f` whenever a thread may take a range; returns what stops it. */
  onIdle(f: () => void): () => void {
    this.idleListeners.add(f);
    return () => this.idleListeners.delete(f);
  }

  /**
   * Lists `range` on a thread that is listing nothing (call when `idle`); its answers go to `sink`; `inView`: the keys
   * of the rows the user sees. Returns its id.
   */
  list(range: TraceRange, fileName: string, options: AnalysisOptions, sink: RangeSink, inView: readonly string[] = []): number {
    const free = this.threads.filter((t) => t.listing === null).sort((a, b) => a.ranges.size - b.ranges.size)[0];
    const thread = free ?? this.spawn();
    const id = this.nextId++;
    thread.listing = id;
    thread.ranges.add(id);
    this.sinks.set(id, { sink, thread });
    this.post(thread, { type: 'range', id, range, fileName, options, inView: [...inView] });
    return id;
  }

  /** The rows the user sees are now `keys`: the what-ifs of ranges `ids` still waiting for them go first. */
  setInView(ids: Iterable<number>, keys: readonly string[]): void {
    const byThread = new Map<Thread, number[]>();
    for (const id of ids) {
      const s = this.sinks.get(id);
      if (s) byThread.set(s.thread, [...(byThread.get(s.thread) ?? []), id]);
    }
    for (const [thread, of] of byThread) this.post(thread, { type: 'inView', ids: of, keys: [...keys] });
  }

  /** Entries of range `id` from `from` on no longer apply (its sink still hears `listed` and `done`). */
  cancel(id: number, from: number): void {
    const s = this.sinks.get(id);
    if (s) this.post(s.thread, { type: 'cancel', id, from });
  }

  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    for (const [id, s] of [...this.sinks]) {
      this.sinks.delete(id);
      s.sink.done('the list workers were closed');
    }
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private post(thread: Thread, request: ListWorkerRequest): void {
    thread.worker.postMessage(request);
  }

  private spawn(): Thread {
    const worker = startWorker(workerFile(), { workerData: { kind: LIST_WORKER } });
    worker.unref();
    const thread: Thread = { worker, listing: null, ranges: new Set() };
    this.threads.push(thread);
    worker.on('message', (a: ListWorkerAnswer) => this.answer(thread, a));
    const died = (why: string) => {
      const at = this.threads.indexOf(thread);
      if (at < 0) return;
      this.threads.splice(at, 1);
      for (const id of thread.ranges) {
        const s = this.sinks.get(id);
        this.sinks.delete(id);
        if (id === thread.listing) s?.sink.listed();
        s?.sink.done(`the list worker stopped: ${why}`);
      }
      this.wakeIdle();
    };
    worker.on('error', (err) => died(err.message));
    worker.on('exit', (code) => died(`exit code ${code}`));
    return thread;
  }

  private answer(thread: Thread, a: ListWorkerAnswer): void {
    const s = this.sinks.get(a.id);
    switch (a.type) {
      case 'batch':
        s?.sink.batch(a.summaries, a.lineErrors, a.guided);
        return;
      case 'guided':
        s?.sink.guided(a.findings);
        return;
      case 'listed':
        if (thread.listing === a.id) thread.listing = null;
        s?.sink.listed();
        this.wakeIdle();
        return;
      case 'done':
        thread.ranges.delete(a.id);
        this.sinks.delete(a.id);
        s?.sink.done(a.error);
    }
  }

  private wakeIdle(): void {
    for (const f of [...this.idleListeners]) f();
  }
}

let shared: ListWorkers | undefined;

/** The process's list workers (the trace editor sets how many; none run until a big trace asks). */
export function listWorkers(): ListWorkers {
  shared ??= new ListWorkers(2);
  return shared;
}
