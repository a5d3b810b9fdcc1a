/** dropped-call: the raw completion holds more calls than the recorded response delivered. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { matchCalls } from './callMatching.ts';

const DROPPED_CALL = diagnosticKind({
  kind: 'dropped-call',
  code: 'TS014',
  severity: 'error',
  title: 'Call in the completion missing from the response',
});

export const droppedCall = defineCheck({
  stage: 'sync',
  kinds: [DROPPED_CALL],
  run: (ctx) => {
    if (!ctx.parse || !ctx.response) return [];
    return matchCalls(ctx.parse.calls, ctx.response.calls)
      .filter((p) => p.response === null)
      .map((p) =>
        makeDiagnostic(ctx, DROPPED_CALL, {
          where: 'completion',
          charStart: p.raw.span.start,
          charEnd: p.raw.span.end,
          callIndex: p.raw.index,
          message: `call ${p.raw.id} (${p.raw.name}) is in the completion but not in the response (${ctx.response?.calls.length ?? 0} of ${ctx.parse?.calls.length ?? 0} calls delivered)`,
          hint: "The server-side parser lost it: e.g. vLLM's Dec 2025–Apr 2026 parser drops a call that begins and ends within one delta, and calls after a malformed header.",
        }),
      );
  },
});
