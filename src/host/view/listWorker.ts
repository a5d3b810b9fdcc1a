/**
 * A list worker of the trace editor (listWorkers.ts starts it; dist/listWorker.js): it lists the ranges of a big
 * file's entries it is sent as the host's own session would — a trace session over the range (`TraceSession.openRange`,
 * which `report`'s file workers stand on), numbered as in the whole file — and sends the rows batch by batch, then
 * the what-if findings. The what-ifs themselves run on the host's grammar engines (`RemoteGrammarEngine`): one pool
 * for the editor, scheduled by what the user looks at, and one memo of outcomes for the whole file. One range is
 * listed at a time; the what-ifs of earlier ranges go on meanwhile.
 */
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { Analyzer, type AnalysisOptions } from '../../core/analysis.ts';
import type { WhatIfOutcome } from '../../core/guided/engineProtocol.ts';
import type { GrammarEngine } from '../../core/guided/grammarEngine.ts';
import { tokenAt } from '../../core/guided/tokenAt.ts';
import { guidedEngine } from '../../io/guided/guidedEnginePool.ts';
import { loadLocalTokenizer } from '../../io/tokens/localTokenizer.ts';
import { TraceSession } from './traceSession.ts';
import { LIST_WORKER, type ListWorkerAnswer, type ListWorkerRequest, type RemoteWhatIf } from './listWorkerProtocol.ts';

/** A batch's budget: rows reach the host about this often while a range is listed. */
const BATCH_MS = 50;

/** The host's grammar engines, asked over the port: the what-if of the record being listed, in its lane there. */
class RemoteGrammarEngine implements GrammarEngine {
  /** The range being listed (its what-ifs are asked while it is). */
  range = 0;
  private asked = 0;
  private readonly waiting = new Map<number, (outcome: WhatIfOutcome) => void>();
  /** Asked and not sent yet: a batch's what-ifs go in one message (one per record cost the host as much as the rest). */
  private unsent: { id: number; asks: { ask: number; whatIf: RemoteWhatIf }[] } | null = null;

  constructor(private readonly port: MessagePort) {}

  warmUp(): void {
    // The host's engines are warm: it started them when the trace opened.
  }

  whatIf(...[request, completion, options]: Parameters<GrammarEngine['whatIf']>): Promise<WhatIfOutcome> {
    // The session runs each record's analysis in a lane named by its key (traceSession.ts).
    const key = guidedEngine().currentLane.key ?? '';
    const ask = ++this.asked;
    const whatIf: RemoteWhatIf = {
      key,
      request: { tools: request.tools, tool_choice: request.tool_choice },
      text: completion.text,
      finishReason: completion.finishReason ?? null,
      options,
    };
    if (this.unsent?.id !== this.range) this.flush();
    if (!this.unsent) {
      this.unsent = { id: this.range, asks: [] };
      setImmediate(() => this.flush());
    }
    this.unsent.asks.push({ ask, whatIf });
    return new Promise<WhatIfOutcome>((resolve) => this.waiting.set(ask, resolve)).then((outcome) => {
      // Tokens stay on this thread: the engine matched text, the token is looked up here (as guidedEngine.ts does).
      if (outcome.ran && !outcome.result.accepted) {
        const { text } = completion;
        outcome.result.tokenIndex = tokenAt(completion.tokens, Math.min(outcome.result.charOffset, Math.max(0, text.length - 1)));
      }
      return outcome;
    });
  }

  /** Sends the what-ifs asked so far (before a batch's rows, so the host has them when it hands the rows out). */
  flush(): void {
    const unsent = this.unsent;
    this.unsent = null;
    if (unsent?.asks.length) this.port.postMessage({ type: 'whatIfs', ...unsent } satisfies ListWorkerAnswer);
  }

  answered(ask: number, outcome: WhatIfOutcome): void {
    this.waiting.get(ask)?.(outcome);
    this.waiting.delete(ask);
  }

  constrain(): Promise<string> {
    return Promise.reject(new Error('a list worker writes no guided answers'));
  }
}

interface Job {
  session: TraceSession | null;
  /** Entries from here on no longer apply (cancelled). */
  end: number;
}

function runListWorker(port: MessagePort): void {
  const post = (answer: ListWorkerAnswer) => port.postMessage(answer);
  const engine = new RemoteGrammarEngine(port);
  const jobs = new Map<number, Job>();
  let listing: Promise<void> = Promise.resolve();
  // One analyzer for the ranges of the same options: its tool schemas compile once, not once per range.
  let analyzer: { key: string; analyzer: Analyzer } | null = null;
  const analyzerFor = (options: AnalysisOptions): Analyzer => {
    const key = JSON.stringify(options);
    if (analyzer?.key !== key)
      analyzer = { key, analyzer: new Analyzer(options, { readTokenizer: loadLocalTokenizer, grammarEngine: engine }) };
    return analyzer.analyzer;
  };

  const run = async (m: Extract<ListWorkerRequest, { type: 'range' }>, job: Job): Promise<void> => {
    let error: string | undefined;
    try {
      // The list is what this worker is for: no per-token timeline (the record view has its own analysis).
      const options = { ...m.options, timeline: false };
      // Every what-if of the range may be under way at once (the range bounds them): the host answers them between
      // batches, and a list waiting for its answers would wait a round trip between the threads each time.
      const session = await TraceSession.openRange(m.range, m.fileName, options, false, {
        analyzer: analyzerFor(options),
        whatIfsAhead: Infinity,
      });
      job.session = session;
      if (job.end < Infinity) session.endAt(job.end);
      // One range listed at a time (a range that failed does not stop the next).
      await (listing = listing
        .catch(() => undefined)
        .then(async () => {
          engine.range = m.id;
          for (let batch; (batch = await session.nextBatch(BATCH_MS));) {
            const { summaries, lineErrors, guided } = batch;
            engine.flush();
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
        const job: Job = { session: null, end: Infinity };
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
      case 'whatIfs':
        for (const a of m.answers) engine.answered(a.ask, a.outcome);
    }
  });
}

if (!isMainThread && parentPort && (workerData as { kind?: unknown } | null)?.kind === LIST_WORKER) runListWorker(parentPort);
