/** What the trace editor's host and its list workers (listWorkers.ts, listWorker.ts) send each other. */
import type { AnalysisOptions } from '../../core/analysis.ts';
import type { TraceRange } from '../../io/trace/traceRanges.ts';
import type { GuidedFindings, LineErrorView, RecordSummary } from '../../shared/protocol.ts';

export const LIST_WORKER = 'toolscope-list-worker';

/** The host to a worker. */
export type ListWorkerRequest =
  /**
   * List these entries (a range of the file, as `analyze`'s and `report`'s file workers are sent), then complete
   * their what-ifs; `inView`: the keys of the rows the user sees (their what-ifs go first).
   */
  | { type: 'range'; id: number; range: TraceRange; fileName: string; options: AnalysisOptions; inView: string[] }
  /** Entries from `from` on no longer apply (the options changed, the file changed there): stop listing them, drop their what-ifs. */
  | { type: 'cancel'; id: number; from: number }
  /** The user scrolled: these keys are the rows in view now, for the ranges `ids` (their what-ifs still waiting go first). */
  | { type: 'inView'; ids: number[]; keys: string[] };

/** A worker to the host, about one range (`id`). */
export type ListWorkerAnswer =
  /** Rows of the list in entry order (`guidedPending` while their what-if runs), and findings of rows sent before. */
  | { type: 'batch'; id: number; summaries: RecordSummary[]; lineErrors: LineErrorView[]; guided: GuidedFindings[] }
  /** Every entry of the range is listed (its what-ifs may still run): the worker takes another range. */
  | { type: 'listed'; id: number }
  /** What-if findings of rows already sent. */
  | { type: 'guided'; id: number; findings: GuidedFindings[] }
  /** Nothing more comes for this range (every what-if answered, or it was cancelled, or it failed: `error`). */
  | { type: 'done'; id: number; error?: string };
