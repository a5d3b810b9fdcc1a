/** text-in-section: text inside the tool-call section but outside any call. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { findingsOf, notesOf } from './structureNotes.ts';

const TEXT_IN_SECTION = diagnosticKind({
  kind: 'text-in-section',
  code: 'TS019',
  severity: 'warning',
  title: 'Text inside the tool-call section',
});

export const textInSection = defineCheck({
  stage: 'sync',
  kinds: [TEXT_IN_SECTION],
  run: (ctx) =>
    findingsOf(notesOf(ctx, 'text-in-section'), (n) =>
      makeDiagnostic(ctx, TEXT_IN_SECTION, {
        where: 'completion',
        charStart: n.span.start,
        charEnd: n.span.end,
        message: n.detail,
        hint: 'vLLM drops this text, SGLang streams it as content; the reference parse keeps it as content. Guided decoding forbids text between calls.',
      }),
    ),
});
