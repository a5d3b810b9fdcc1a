/** unterminated-call: a call (or its section) that never closed, typically `finish_reason: "length"`. */
import { makeDiagnostic, type Check } from '../context.ts';
import { notesOf } from './structureNotes.ts';

export const unterminatedCall: Check = (ctx) => {
  const length = ctx.finishReason === 'length' || ctx.record.completion?.finish_reason === 'length';
  return notesOf(ctx, 'unterminated-call').map((n) =>
    makeDiagnostic(ctx, 'unterminated-call', {
      where: 'completion',
      charStart: n.span.start,
      charEnd: n.span.end,
      message: `${n.detail}${length ? ' (finish_reason "length")' : ''}`,
      hint: length
        ? 'The completion hit max_tokens inside a call: raise max_tokens, or treat the call as failed rather than running it with partial arguments.'
        : 'The call has no <|tool_call_end|>. Parsers differ: some drop it, some return it with partial arguments.',
    }),
  );
};
