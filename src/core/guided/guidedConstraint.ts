/**
 * Guided decoding for the embedded endpoint (`OutputConstraint` of src/core/server): the grammar the request asks
 * for (requestGrammar.ts) shapes the scripted output (constrainedDecoding.ts), in the grammar-engine worker
 * (guidedEngine.ts). A grammar xgrammar cannot compile, or one that aborts it, is a GuidedRequestError: the
 * server answers 400 with the reason, as vLLM does, and the next request gets a fresh engine.
 */
import type { OutputConstraint } from '../../net/server/openAiServer.ts';
import { guidedEngine } from './guidedEngine.ts';
import { buildsKimiTag, requestedTag } from './requestGrammar.ts';

export { GuidedRequestError, requestedTag } from './requestGrammar.ts';

export function xgrammarConstraint(): OutputConstraint {
  return {
    applies: (request) => {
      try {
        return requestedTag(request) !== null || buildsKimiTag(request);
      } catch {
        // A malformed tag is still a guided request: constrain() reports what is wrong with it.
        return true;
      }
    },
    constrain: (request, text) => guidedEngine().constrain(request, text),
  };
}
