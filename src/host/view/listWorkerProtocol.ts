/** What the trace editor's host and its list workers (listWorkers.ts, listWorker.ts) send each other. */
import type { AnalysisOptions } from '../../core/analysis.ts';
import type { WhatIfOutcome } from '../../core/guided/engineProtocol.ts';
import type { WhatIfRequestOptions } from '../../core/guided/whatIf.ts';
import type { ChatRequest } from '../../core/trace/record.ts';
import type { TraceRange } from '../../io/trace/traceRanges.ts';
import type { GuidedFindings, LineErrorView, RecordSummary } from '../../shared/protocol.ts';

export const LIST_WORKER = 'toolscope-list-worker';

/** A what-if a worker's analysis asks for: run by the host's grammar engines, in the lane of its record. */
export interface RemoteWhatIf {
  /** The record's key, for its lane (the user's rows in view and the record shown go first). */
  key: string;
  request: Pick<ChatRequest, 'tools' | 'tool_choice'>;
  text: string;
  finishReason: string | null;
  options: WhatIfRequestOptions;
}

/** The host to a worker. */
export type ListWorkerRequest =
  /** List these entries (a range of the file, as `analyze`'s and `report`'s file workers are sent), then complete their what-ifs. */
  | { type: 'range'; id: number; range: TraceRange; fileName: string; options: AnalysisOptions }
  /** Entries from `from` on no longer apply (the options changed, the file changed there): stop listing them, drop their what-ifs. */
  | { type: 'cancel'; id: number; from: number }
  /** Outcomes of what-ifs asked (`ask`), a burst in one message. */
  | { type: 'whatIfs'; answers: { ask: number; outcome: WhatIfOutcome }[] };

/** A worker to the host, about one range (`id`). */
export type ListWorkerAnswer =
  /** Rows of the list in entry order (`guidedPending` while their what-if runs), and findings of rows sent before. */
  | { type: 'batch'; id: number; summaries: RecordSummary[]; lineErrors: LineErrorView[]; guided: GuidedFindings[] }
  /** Every entry of the range is listed (its what-ifs may still run): the worker takes another range. */
  | { type: 'listed'; id: number }
  /** What-if findings of rows already sent. */
  | { type: 'guided'; id: number; findings: GuidedFindings[] }
  /** Run these what-ifs (answered in `whatIfs` by their `ask`): a batch's, in one message. */
  | { type: 'whatIfs'; id: number; asks: { ask: number; whatIf: RemoteWhatIf }[] }
  /** Nothing more comes for this range (every what-if answered, or it was cancelled, or it failed: `error`). */
  | { type: 'done'; id: number; error?: string };
