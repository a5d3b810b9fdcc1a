/** tokens-text-mismatch: the recorded token texts do not join to the completion text. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const TOKENS_TEXT_MISMATCH = diagnosticKind({
  kind: 'tokens-text-mismatch',
  code: 'TS030',
  severity: 'warning',
  title: 'Recorded token texts do not join to the completion',
});

export const tokensTextMismatch = defineCheck({
  stage: 'sync',
  kinds: [TOKENS_TEXT_MISMATCH],
  run: (ctx) =>
    ctx.tokenMismatch === null
      ? []
      : [
          makeDiagnostic(ctx, TOKENS_TEXT_MISMATCH, {
            where: 'completion',
            message: ctx.tokenMismatch,
            hint: 'The tokens and the text were recorded from different outputs, or the engine decoded with different settings; token boundaries shown are approximate where they disagree.',
          }),
        ],
});
