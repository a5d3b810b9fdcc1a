/**
 * unterminated-call: a call (or its section) that never closed, typically `finish_reason: "length"`. A call whose
 * terminator is a stop token servers strip (Harmony's `<|call|>`) and that ends the completion is complete unless
 * the completion was cut: then it is only an info note — and none when the call was dropped, whose dropped-call
 * finding carries the note (one finding per fault).
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { droppedCalls, finishedByLength } from './droppedCall.ts';
import { findingsOf, notesOf } from './structureNotes.ts';

const UNTERMINATED_CALL = diagnosticKind({ kind: 'unterminated-call', code: 'TS012', severity: 'error', title: 'Call never terminated' });

export const unterminatedCall = defineCheck({
  stage: 'sync',
  kinds: [UNTERMINATED_CALL],
  run: (ctx) => {
    const length = finishedByLength(ctx);
    const found = findingsOf(notesOf(ctx, 'unterminated-call'), (n) =>
      makeDiagnostic(ctx, UNTERMINATED_CALL, {
        where: 'completion',
        charStart: n.span.start,
        charEnd: n.span.end,
        message: `${n.detail}${length ? ' (finish_reason "length")' : ''}`,
        hint: length
          ? 'The completion hit max_tokens inside a call: raise max_tokens, or treat the call as failed rather than running it with partial arguments.'
          : 'The call has no end marker. Parsers differ: some drop it, some return it with partial arguments.',
      }),
    );
    const dropped = length ? [] : (droppedCalls(ctx) ?? []);
    const reportedAsDropped = (n: { span: { start: number; end: number } }): boolean =>
      dropped.some((c) => n.span.start < c.span.end && c.span.start < n.span.end);
    return findingsOf(
      notesOf(ctx, 'call-at-end'),
      (n) =>
        reportedAsDropped(n)
          ? null
          : length
            ? makeDiagnostic(ctx, UNTERMINATED_CALL, {
                where: 'completion',
                charStart: n.span.start,
                charEnd: n.span.end,
                message: `${n.detail}, and the completion was cut (finish_reason "length")`,
                hint: 'The completion hit max_tokens inside a call: raise max_tokens, or treat the call as failed rather than running it with partial arguments.',
              })
            : makeDiagnostic(ctx, UNTERMINATED_CALL, {
                severity: 'info',
                detail: 'stop-token-stripped',
                where: 'completion',
                charStart: n.span.start,
                charEnd: n.span.end,
                message: `${n.detail}: the call terminator is a stop token servers strip, and the completion ended with finish_reason ${JSON.stringify(ctx.finishReason ?? ctx.record.completion?.finish_reason ?? null)}, so the call is complete`,
                hint: 'Nothing to fix. Record the stop token (vLLM: skip_special_tokens=false, or the stop reason) to see it in the trace.',
              }),
      found,
    );
  },
});
