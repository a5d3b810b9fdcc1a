/**
 * A list worker of the trace editor (listWorkers.ts starts it; dist/listWorker.js): it lists the ranges of a big
 * file's entries it is sent as the host's own session would — a trace session over the range (`TraceSession.openRange`,
 * which `report`'s file workers stand on), numbered as in the whole file — and sends the rows batch by batch, then
 * the what-if findings. The what-ifs run here, on this thread's own grammar engine, as `analyze`'s file workers run
 * theirs (nodeServices): a record's text goes from here to the grammar worker and nowhere else, and a row whose
 * what-if answers while its batch is built goes out complete, in one message. The rows the user sees (the host
 * says which) go first. One range is listed at a time; the what-ifs of earlier ranges go on meanwhile.
 */
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { Analyzer, type AnalysisOptions } from '../../core/analysis.ts';
import { guidedEngine } from '../../io/guided/guidedEnginePool.ts';
import { nodeServices } from '../../io/nodeServices.ts';
import { shareRepeatedToolSets } from '../../core/trace/importers/sharedToolSets.ts';
import { lowerThreadPriority } from '../../io/workerThread.ts';
import { TraceSession } from './traceSession.ts';
import { LIST_WORKER, type ListWorkerAnswer, type ListWorkerRequest } from './listWorkerProtocol.ts';

/** A batch's budget: rows reach the host about this often while a range is listed. */
const BATCH_MS = 50;

/**
 * A range's what-ifs under way at most: the list runs that far ahead of the grammar engine (each holds its record),
 * far enough that the engine never waits for this thread's next batch.
 */
const WHAT_IFS_AHEAD = 128;

/**
 * What-ifs the grammar worker holds at once: this thread analyses a batch for up to BATCH_MS without a turn between,
 * and a worker holding one job would wait for the turn after each. Few enough that the rows scrolled to still go
 * before nearly all the rest.
 */
const WHAT_IFS_SENT = 8;

interface Job {
  session: TraceSession | null;
  /** The keys of the rows the user sees (until the session opens). */
  inView: string[];
  /** Entries from here on no longer apply (cancelled). */
  end: number;
}

/** Serves a list worker's requests on `port` (this thread's, or a bench's channel: bench/editorTraceBench.ts). */
export function runListWorker(port: MessagePort): void {
  // Background work: the list and its what-ifs take the CPU only when the threads the user waits on leave it (the
  // extension host's thread, and the page's renderer where it shares the scheduler's group). Before the grammar
  // worker starts: it is this thread's, and inherits the priority.
  lowerThreadPriority();
  // An agent's records repeat their tools: each tool set parsed once, and handed over as one object (toolSets.ts).
  shareRepeatedToolSets();
  const post = (answer: ListWorkerAnswer) => port.postMessage(answer);
  const jobs = new Map<number, Job>();
  // One grammar worker for this thread (the process's pool here is this thread's).
  guidedEngine().setLaneDepth(WHAT_IFS_SENT);
  let listing: Promise<void> = Promise.resolve();
  // One analyzer for the ranges of the same options: its tool schemas compile once, not once per range.
  let analyzer: { key: string; analyzer: Analyzer } | null = null;
  const analyzerFor = (options: AnalysisOptions): Analyzer => {
    const key = JSON.stringify(options);
    if (analyzer?.key !== key) analyzer = { key, analyzer: new Analyzer(options, nodeServices()) };
    return analyzer.analyzer;
  };

  const run = async (m: Extract<ListWorkerRequest, { type: 'range' }>, job: Job): Promise<void> => {
    let error: string | undefined;
    try {
      // The list is what this worker is for: no per-token timeline (the record view has its own analysis).
      const options = { ...m.options, timeline: false };
      // xgrammar's WASM loads while the range is read.
      if (options.guided !== false) guidedEngine().warmUp();
      const session = await TraceSession.openRange(m.range, m.fileName, options, false, {
        analyzer: analyzerFor(options),
        whatIfsAhead: WHAT_IFS_AHEAD,
      });
      job.session = session;
      if (job.end < Infinity) session.endAt(job.end);
      session.setInView(job.inView);
      // One range listed at a time (a range that failed does not stop the next).
      await (listing = listing
        .catch(() => undefined)
        .then(async () => {
          for (let batch; (batch = await session.nextBatch(BATCH_MS));) {
            const { summaries, lineErrors, guided } = batch;
            if (summaries.length || lineErrors.length || guided.length) post({ type: 'batch', id: m.id, summaries, lineErrors, guided });
          }
        }));
      post({ type: 'listed', id: m.id });
      for (let findings; (findings = await session.nextGuidedFindings());)
        if (findings.length) post({ type: 'guided', id: m.id, findings });
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      post({ type: 'listed', id: m.id });
    } finally {
      jobs.delete(m.id);
      await job.session?.close();
      post({ type: 'done', id: m.id, ...(error === undefined ? {} : { error }) });
    }
  };

  port.on('message', (m: ListWorkerRequest) => {
    switch (m.type) {
      case 'range': {
        const job: Job = { session: null, inView: m.inView, end: Infinity };
        jobs.set(m.id, job);
        void run(m, job);
        return;
      }
      case 'cancel': {
        const job = jobs.get(m.id);
        if (!job) return;
        job.end = Math.min(job.end, m.from);
        job.session?.endAt(m.from);
        return;
      }
      case 'inView':
        for (const id of m.ids) {
          const job = jobs.get(id);
          if (!job) continue;
          job.inView = m.keys;
          job.session?.setInView(m.keys);
        }
    }
  });
}

if (!isMainThread && parentPort && (workerData as { kind?: unknown } | null)?.kind === LIST_WORKER) runListWorker(parentPort);
