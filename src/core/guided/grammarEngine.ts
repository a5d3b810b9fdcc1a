/**
 * What the domain asks of a grammar engine: the what-if of one record and guided writing for the embedded endpoint.
 * The one Toolscope runs (web-xgrammar isolated on a worker thread, src/io/guided/guidedEngine.ts) is Node I/O, so
 * the analysis and the endpoint are handed it by their composition root instead of reaching for it.
 */
import type { ChatRequest } from '../trace/record.ts';
import type { Token } from '../tokens/token.ts';
import type { WhatIfOutcome } from './engineProtocol.ts';
import type { WhatIfRequestOptions } from './whatIf.ts';

export interface GrammarEngine {
  /** Start loading the engine now (while the caller reads its traces); never waits. */
  warmUp(): void;
  /**
   * The what-if of one record: the request's tag compiled and the completion fed through it. Never throws for the
   * engine's sake: a job it could not run is `{ran: false, unavailable: true}` with the reason.
   */
  whatIf(
    request: Pick<ChatRequest, 'tools' | 'tool_choice'>,
    completion: { text: string; tokens: readonly Token[]; finishReason?: string | null },
    options: WhatIfRequestOptions,
  ): Promise<WhatIfOutcome>;
  /** A scripted completion in `format` shaped by the grammar the request asks for; GuidedRequestError when none compiles. */
  constrain(request: ChatRequest, text: string, format: string): Promise<string>;
}
