/**
 * missing-section-marker: calls without the format's section begin or end around them (Kimi K2's
 * `<|tool_calls_section_begin|>` … `<|tool_calls_section_end|>`, Qwen3-Coder's `<tool_call>` …). The parser's note
 * names the format's own markers, so the message is the note's words.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { findingsOf, notesOf } from './structureNotes.ts';

const MISSING_SECTION_MARKER = diagnosticKind({
  kind: 'missing-section-marker',
  code: 'TS008',
  severity: 'warning',
  title: 'Calls without a section begin or end',
});

export const missingSectionMarker = defineCheck({
  stage: 'sync',
  kinds: [MISSING_SECTION_MARKER],
  run: (ctx) => {
    const truncatedAt = new Set<number>();
    for (const n of notesOf(ctx, 'unterminated-call')) truncatedAt.add(n.span.end);
    const found = findingsOf(notesOf(ctx, 'missing-section-begin'), (n) =>
      makeDiagnostic(ctx, MISSING_SECTION_MARKER, {
        where: 'completion',
        charStart: n.span.start,
        charEnd: n.span.end,
        message: n.detail,
        hint: 'vLLM and SGLang (non-streaming) return such calls as plain text; llama.cpp still parses them. Guided decoding forces the section.',
      }),
    );
    // A section cut off by truncation is reported as an unterminated call, not twice.
    return findingsOf(
      notesOf(ctx, 'missing-section-end'),
      (n) =>
        truncatedAt.has(n.span.start)
          ? null
          : makeDiagnostic(ctx, MISSING_SECTION_MARKER, {
              where: 'completion',
              charStart: n.span.start,
              charEnd: n.span.end,
              message: n.detail,
              hint: 'Parsers that wait for the section end may never emit the calls, or emit the following text as part of the section.',
            }),
      found,
    );
  },
});
