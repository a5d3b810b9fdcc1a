/** empty-content-delta: a stream chunk carrying `content: ""`, which some clients show as "(no content)". */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const EMPTY_CONTENT_DELTA = diagnosticKind({
  kind: 'empty-content-delta',
  code: 'TS002',
  severity: 'warning',
  title: 'Stream chunk with content ""',
});

export const emptyContentDelta = defineCheck({
  stage: 'sync',
  kinds: [EMPTY_CONTENT_DELTA],
  run: (ctx) => {
    const deltas = ctx.response?.deltas ?? [];
    // The role-announcing first chunk legitimately carries content "" (OpenAI and vLLM both send it).
    // Counted in a loop: map's and filter's arrays deoptimised the check (util/mapped.ts).
    let count = 0;
    let first = 0;
    for (let i = 0; i < deltas.length; i++) {
      const d = deltas[i] as (typeof deltas)[number];
      if (d.content !== '' || d.role !== undefined) continue;
      if (count++ === 0) first = i;
    }
    if (count === 0) return [];
    return [
      makeDiagnostic(ctx, EMPTY_CONTENT_DELTA, {
        where: 'response',
        message: `${count} stream chunk${count === 1 ? '' : 's'} carried content "" (first: chunk ${first + 1} of ${deltas.length})`,
        hint: 'Return no delta (None) instead of DeltaMessage(content=""); clients such as Claude Code render empty content as "(no content)".',
      }),
    ];
  },
});
