/** tokens-text-mismatch: the recorded token texts do not join to the completion text. */
import { makeDiagnostic, type Check } from '../context.ts';

export const tokensTextMismatch: Check = (ctx) =>
  ctx.tokenMismatch === null
    ? []
    : [
        makeDiagnostic(ctx, 'tokens-text-mismatch', {
          where: 'completion',
          message: ctx.tokenMismatch,
          hint: 'The tokens and the text were recorded from different outputs, or the engine decoded with different settings; token boundaries shown are approximate where they disagree.',
        }),
      ];
