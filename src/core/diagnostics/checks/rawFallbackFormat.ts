/** raw-fallback-format: `functions.name:0 {json}` written as text, without the special tokens: the call is lost. */
import { makeDiagnostic, type Check } from '../context.ts';
import { notesOf } from './structureNotes.ts';

const HINT = 'The model wrote the call as plain text, so no parser turns it into tool_calls. Usually a template problem (tools not declared the way the model was trained); guided decoding forces the markup.';

export const rawFallbackFormat: Check = (ctx) => {
  if (ctx.parse) {
    return notesOf(ctx, 'raw-fallback').map((n) =>
      makeDiagnostic(ctx, 'raw-fallback-format', {
        where: 'completion',
        charStart: n.span.start,
        charEnd: n.span.end,
        message: n.detail,
        hint: HINT,
      }),
    );
  }
  const content = ctx.response?.content;
  if (!content || !ctx.format.findRawFallback) return [];
  return ctx.format.findRawFallback(content).map((hit) =>
    makeDiagnostic(ctx, 'raw-fallback-format', {
      where: 'response',
      charStart: hit.start,
      charEnd: hit.end,
      message: `${hit.id} written without special tokens reached the client as content`,
      hint: HINT,
    }),
  );
};
