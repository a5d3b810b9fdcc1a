/** recorded-tokens-invalid: token ids, logprobs or entries of the wrong type (-1, 1.5, "x", null). */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const RECORDED_TOKENS_INVALID = diagnosticKind({
  kind: 'recorded-tokens-invalid',
  code: 'TS029',
  severity: 'warning',
  title: 'Recorded tokens with invalid fields',
});

export const recordedTokensInvalid = defineCheck({
  stage: 'sync',
  kinds: [RECORDED_TOKENS_INVALID],
  run: (ctx) =>
    ctx.tokenProblem === null
      ? []
      : [
          makeDiagnostic(ctx, RECORDED_TOKENS_INVALID, {
            where: 'completion',
            message: ctx.tokenProblem,
            hint: 'Token ids are whole numbers from the vocabulary, logprobs are numbers, each token is an object with a "text" string. Fix the exporter that wrote the trace.',
          }),
        ],
});
