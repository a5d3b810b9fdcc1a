/** text-in-section: text inside the tool-call section but outside any call. */
import { makeDiagnostic, type Check } from '../context.ts';
import { notesOf } from './structureNotes.ts';

export const textInSection: Check = (ctx) =>
  notesOf(ctx, 'text-in-section').map((n) =>
    makeDiagnostic(ctx, 'text-in-section', {
      where: 'completion',
      charStart: n.span.start,
      charEnd: n.span.end,
      message: n.detail,
      hint: 'vLLM drops this text, SGLang streams it as content; the reference parse keeps it as content. Guided decoding forbids text between calls.',
    }),
  );
