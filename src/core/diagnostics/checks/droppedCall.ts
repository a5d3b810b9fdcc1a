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
    if (!ctx.parse) return [];
    // A failed request whose error quotes the model's markup (read as the completion): the client got no calls.
    const { record } = ctx;
    const quotedInError =
      typeof record.error === 'string' && record.completion !== undefined && record.error.endsWith(record.completion.text);
    const delivered = ctx.response?.calls ?? (quotedInError ? [] : null);
    if (delivered === null) return [];
    return matchCalls(ctx.parse.calls, delivered)
      .filter((p) => p.response === null)
      .map((p) =>
        makeDiagnostic(ctx, DROPPED_CALL, {
          where: 'completion',
          charStart: p.raw.span.start,
          charEnd: p.raw.span.end,
          callIndex: p.raw.index,
          message: ctx.response
            ? `call ${p.raw.id || p.raw.index} (${p.raw.name || 'no name written'}) is in the completion but not in the response (${delivered.length} of ${ctx.parse?.calls.length ?? 0} calls delivered)`
            : `call ${p.raw.id || p.raw.index} (${p.raw.name || 'no name written'}) is in the markup the server's error quotes: the request failed, and the client never received it`,
          hint: "The server-side parser lost it: e.g. vLLM's Dec 2025–Apr 2026 parser drops a call that begins and ends within one delta, and calls after a malformed header.",
        }),
      );
  },
});
