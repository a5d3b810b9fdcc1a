/** stray-marker: a marker where the format does not allow it (e.g. `</think>` with no `<think>`). */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { findingsOf, notesOf } from './structureNotes.ts';

const STRAY_MARKER = diagnosticKind({ kind: 'stray-marker', code: 'TS020', severity: 'warning', title: 'Marker out of place' });

export const strayMarker = defineCheck({
  stage: 'sync',
  kinds: [STRAY_MARKER],
  run: (ctx) =>
    findingsOf(notesOf(ctx, 'stray-marker'), (n) =>
      makeDiagnostic(ctx, STRAY_MARKER, {
        where: 'completion',
        charStart: n.span.start,
        charEnd: n.span.end,
        message: n.detail,
        hint: n.detail.startsWith('</think>')
          ? 'A </think> without <think>: the template likely opened the think block in the prompt (K2.6 style). Analyse with the completion starting in reasoning.'
          : 'A marker out of order: the reference parser skips it; other parsers may leak it as content or stop parsing.',
      }),
    ),
});
