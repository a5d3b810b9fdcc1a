/** stray-marker: a marker where the format does not allow it (e.g. `</think>` with no `<think>`). */
import { makeDiagnostic, type Check } from '../context.ts';
import { notesOf } from './structureNotes.ts';

export const strayMarker: Check = (ctx) =>
  notesOf(ctx, 'stray-marker').map((n) =>
    makeDiagnostic(ctx, 'stray-marker', {
      where: 'completion',
      charStart: n.span.start,
      charEnd: n.span.end,
      message: n.detail,
      hint: n.detail.startsWith('</think>')
        ? 'A </think> without <think>: the template likely opened the think block in the prompt (K2.6 style). Analyse with the completion starting in reasoning.'
        : 'A marker out of order: the reference parser skips it; other parsers may leak it as content or stop parsing.',
    }),
  );
