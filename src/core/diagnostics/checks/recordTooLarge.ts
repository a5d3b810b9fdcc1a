/** record-too-large: the completion is above the size limit; says what was skipped so the rest could run. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const RECORD_TOO_LARGE = diagnosticKind({
  kind: 'record-too-large',
  code: 'TS028',
  severity: 'warning',
  title: 'Record above the size limit: parts of the analysis skipped',
});

const mb = (chars: number) => `${(chars / 1e6).toFixed(1)} MB`;

export const recordTooLarge = defineCheck({
  stage: 'sync',
  kinds: [RECORD_TOO_LARGE],
  run: (ctx) => {
    const o = ctx.oversized;
    if (!o) return [];
    return [
      makeDiagnostic(ctx, RECORD_TOO_LARGE, {
        where: 'completion',
        message: `the completion is ${mb(o.chars)}, above the ${mb(o.limit)} limit: skipped ${o.skipped.join(', ')}; its calls, content and the other findings come from a coarse split of the text`,
        hint: 'Raise the limit (`toolscope analyze --max-completion-mb N`, the toolscope.maxCompletionMB setting) to get everything; memory grows by about 80–160 MB per MB of completion analysed in full.',
      }),
    ];
  },
});
