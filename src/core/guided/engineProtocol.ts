/**
 * The messages between Toolscope and its grammar-engine worker (engineWorker.ts): jobs in (a message is a list of
 * EngineRequest: the what-ifs asked in one turn of the sender's event loop go together), answers out (a message is a
 * list of EngineAnswer, one per job, in the order the jobs came: those of quick jobs run back to back go together).
 * A job is a whole unit of work (compile + what-if of one record, or one constrained completion), so a record
 * costs one job however many tokens it has. Everything here is structured-clone data.
 */
import type { ChatRequest } from '../trace/record.ts';
import type { WhatIfOptions, WhatIfResult } from './whatIf.ts';

export type EngineJob =
  | {
      kind: 'what-if';
      /**
       * `JSON.stringify({ tools, tool_choice })` of the request: a string copies to the worker several times faster
       * than the objects (structured clone), and is the worker's cache key of the request's grammar.
       */
      request: string;
      /** The record's format, whose structural tag is compiled. */
      format: string;
      /** One of the format's tag shapes; its default when absent. */
      shape?: string;
      text: string;
      finishReason: string | null;
      options: WhatIfOptions;
    }
  /** `format`: the model's format, whose tag and call markup apply. */
  | { kind: 'constrain'; request: ChatRequest; text: string; format: string }
  /** Loads the WASM module and builds the compiler, so the first record does not pay for it. */
  | { kind: 'warm-up' };

/** What a what-if job ends with: a verdict, or why the what-if could not run (`unavailable`: xgrammar refused). */
export type WhatIfOutcome = { ran: true; result: WhatIfResult; compileMs: number } | { ran: false; why: string; unavailable: boolean };

export type EngineValue = WhatIfOutcome | { text: string } | { ready: true };

/** An error thrown in the worker, by name (GuidedRequestError, XgrammarError, RuntimeError …) and message. */
export interface EngineFailure {
  name: string;
  message: string;
  /** The WASM module called abort(): it may be broken, so the worker ends after answering. */
  aborted: boolean;
}

/**
 * The id of the answer to a job the worker could not read (its copy failed on the worker's side: 'messageerror').
 * The worker answers in the order it was sent jobs, so this answers the job in flight.
 */
export const UNREAD_JOB = 0;

export interface EngineRequest {
  id: number;
  job: EngineJob;
}

export type EngineAnswer =
  { id: number; ok: true; value: EngineValue; log: string[] } | { id: number; ok: false; failure: EngineFailure; log: string[] };
