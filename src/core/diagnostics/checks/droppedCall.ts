/**
 * dropped-call: the raw completion holds more calls than the recorded response delivered. A dropped call that ends
 * the completion without its terminator, a stop token servers strip (Harmony's `<|call|>`), is complete: the finding
 * says so, and unterminated-call leaves it to this one (one finding per fault).
 */
import type { ParsedCall } from '../../formats/toolCallFormat.ts';
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, type CheckContext } from '../context.ts';
import { matchCalls } from './callMatching.ts';
import { notesOf } from './structureNotes.ts';

const DROPPED_CALL = diagnosticKind({
  kind: 'dropped-call',
  code: 'TS014',
  severity: 'error',
  title: 'Call in the completion missing from the response',
});

/** The completion's calls the client never received, or null when what it received is unknown. */
export function droppedCalls(ctx: CheckContext): ParsedCall[] | null {
  if (!ctx.parse) return null;
  // A failed request whose error quotes the model's markup (read as the completion): the client got no calls.
  const { record } = ctx;
  const quotedInError =
    typeof record.error === 'string' && record.completion !== undefined && record.error.endsWith(record.completion.text);
  const delivered = ctx.response?.calls ?? (quotedInError ? [] : null);
  if (delivered === null) return null;
  return matchCalls(ctx.parse.calls, delivered)
    .filter((p) => p.response === null)
    .map((p) => p.raw);
}

/** The completion was cut at max_tokens. */
export function finishedByLength(ctx: CheckContext): boolean {
  return ctx.finishReason === 'length' || ctx.record.completion?.finish_reason === 'length';
}

/** The call ends the completion where a stripped stop token would stand (a `call-at-end` note), and was not cut. */
export function endsAtStrippedStop(ctx: CheckContext, call: ParsedCall): boolean {
  return !finishedByLength(ctx) && notesOf(ctx, 'call-at-end').some((n) => n.span.start < call.span.end && call.span.start < n.span.end);
}

export const droppedCall = defineCheck({
  stage: 'sync',
  kinds: [DROPPED_CALL],
  run: (ctx) => {
    const dropped = droppedCalls(ctx);
    if (!dropped) return [];
    const deliveredCount = ctx.response?.calls.length ?? 0;
    const finish = JSON.stringify(ctx.finishReason ?? ctx.record.completion?.finish_reason ?? null);
    return dropped.map((call) => {
      const stripped = endsAtStrippedStop(ctx, call)
        ? `; it ends the completion without its terminator, a stop token servers strip (finish_reason ${finish}), so its arguments are complete`
        : '';
      return makeDiagnostic(ctx, DROPPED_CALL, {
        where: 'completion',
        charStart: call.span.start,
        charEnd: call.span.end,
        callIndex: call.index,
        message: ctx.response
          ? `call ${call.id || call.index} (${call.name || 'no name written'}) is in the completion but not in the response (${deliveredCount} of ${ctx.parse?.calls.length ?? 0} calls delivered)${stripped}`
          : `call ${call.id || call.index} (${call.name || 'no name written'}) is in the markup the server's error quotes: the request failed, and the client never received it${stripped}`,
        hint: "The server-side parser lost it: e.g. vLLM's Dec 2025–Apr 2026 parser drops a call that begins and ends within one delta, and calls after a malformed header.",
      });
    });
  },
});
