/**
 * Guided decoding for the embedded endpoint: the grammar the request asks for (requestGrammar.ts) shapes the
 * scripted output (constrainedDecoding.ts token by token, constrainedCalls.ts call by call), in the grammar-engine
 * worker (src/io/guided/guidedEngine.ts, handed in as a GrammarEngine). A grammar xgrammar cannot compile, or one that aborts it, is a GuidedRequestError: the
 * server answers 400 with the reason, as vLLM does, and the next request gets a fresh engine.
 */
import type { ChatRequest } from '../trace/record.ts';
import type { GrammarEngine } from './grammarEngine.ts';
import { buildsFormatTag, requestedTag } from './requestGrammar.ts';

export { GuidedRequestError, requestedTag } from './requestGrammar.ts';

/** Turns a scripted completion into what a grammar allows (guided decoding). */
export interface OutputConstraint {
  /** True when the request asks for constrained output (a structural tag, or strict tools). */
  applies(request: ChatRequest): boolean;
  /** `format`: the format the completion is written in, whose tag and call markup apply. */
  constrain(request: ChatRequest, text: string, format: string): Promise<string> | string;
}

/** Guided writing on `engine` (the endpoint's composition root passes the process's). */
export function engineConstraint(engine: GrammarEngine): OutputConstraint {
  return {
    applies: (request) => {
      try {
        return requestedTag(request) !== null || buildsFormatTag(request);
      } catch {
        // A malformed tag is still a guided request: constrain() reports what is wrong with it.
        return true;
      }
    },
    constrain: (request, text, format) => engine.constrain(request, text, format),
  };
}
