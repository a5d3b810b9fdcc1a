/** call-in-think: tool-call markup inside a `<think>` block never reaches the client as a call. */
import { makeDiagnostic, type Check } from '../context.ts';
import { notesOf } from './structureNotes.ts';

export const callInThink: Check = (ctx) =>
  notesOf(ctx, 'call-in-think').map((n) =>
    makeDiagnostic(ctx, 'call-in-think', {
      where: 'completion',
      charStart: n.span.start,
      charEnd: n.span.end,
      message: 'a tool call starts inside the <think> block: the reasoning parser takes it, the client gets no call',
      hint: 'The model began calling before closing its reasoning. Check the template\'s think handling; guided decoding can only trigger the tag outside reasoning.',
    }),
  );
