/**
 * call-in-think: tool-call markup inside a `<think>` block. Engines differ on what the client gets, so the finding
 * is a warning that says which engine does what (the format's `engineNotes`): markup that stays reasoning is lost on
 * a reasoning parser that ends only at `</think>`; a Kimi K2 section that ended the reasoning is delivered by
 * current vLLM, SGLang and llama.cpp, and lost on older vLLM.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { findingsOf, notesOf } from './structureNotes.ts';

const CALL_IN_THINK = diagnosticKind({
  kind: 'call-in-think',
  code: 'TS010',
  severity: 'warning',
  title: 'Tool call inside a think block',
});

export const callInThink = defineCheck({
  stage: 'sync',
  kinds: [CALL_IN_THINK],
  run: (ctx) => {
    const notes = ctx.format.engineNotes;
    const found = findingsOf(notesOf(ctx, 'call-in-think'), (n) =>
      makeDiagnostic(ctx, CALL_IN_THINK, {
        where: 'completion',
        charStart: n.span.start,
        charEnd: n.span.end,
        detail: 'stays-reasoning',
        message: `a tool call starts inside the <think> block and stays reasoning in the reference parse: ${notes?.callInThink ?? 'a reasoning parser that ends only at </think> takes it, and the client gets no call'}`,
        hint: "The model began calling before closing its reasoning. Check the template's think handling; guided decoding can only trigger the tag outside reasoning.",
      }),
    );
    return findingsOf(
      notesOf(ctx, 'think-ended-by-section'),
      (n) =>
        makeDiagnostic(ctx, CALL_IN_THINK, {
          where: 'completion',
          charStart: n.span.start,
          charEnd: n.span.end,
          detail: n.detail === 'closed-later' ? 'section-ends-reasoning-closed-later' : 'section-ends-reasoning',
          message: `a tool-call section begins inside the <think> block without </think> before it; the reference parse ends the reasoning there and counts its calls: ${notes?.sectionEndsThink ?? 'engines differ'}${n.detail === 'closed-later' && notes?.closedLater ? ` ${notes.closedLater}` : ''}`,
          hint: 'Serve with a reasoning parser that ends reasoning at the section begin (vLLM --reasoning-parser kimi_k2 of 2026, SGLang, llama.cpp), or close the think block in the template before tools are called.',
        }),
      found,
    );
  },
});
