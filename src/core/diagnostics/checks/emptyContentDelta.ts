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
    const hits = deltas.map((d, i) => ({ d, i })).filter(({ d }) => d.content === '' && d.role === undefined);
    if (hits.length === 0) return [];
    const first = hits[0]?.i ?? 0;
    return [
      makeDiagnostic(ctx, EMPTY_CONTENT_DELTA, {
        where: 'response',
        message: `${hits.length} stream chunk${hits.length === 1 ? '' : 's'} carried content "" (first: chunk ${first + 1} of ${deltas.length})`,
        hint: 'Return no delta (None) instead of DeltaMessage(content=""); clients such as Claude Code render empty content as "(no content)".',
      }),
    ];
  },
});
