/** recorded-tokens-invalid: token ids, logprobs or entries of the wrong type (-1, 1.5, "x", null). */
import { makeDiagnostic, type Check } from '../context.ts';

export const recordedTokensInvalid: Check = (ctx) =>
  ctx.tokenProblem === null
    ? []
    : [
        makeDiagnostic(ctx, 'recorded-tokens-invalid', {
          where: 'completion',
          message: ctx.tokenProblem,
          hint: 'Token ids are whole numbers from the vocabulary, logprobs are numbers, each token is an object with a "text" string. Fix the exporter that wrote the trace.',
        }),
      ];
