/** marker-whitespace: whitespace or newlines around markers and ids (trimmed by the reference parser). */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { findingsOf, notesOf } from './structureNotes.ts';

const MARKER_WHITESPACE = diagnosticKind({
  kind: 'marker-whitespace',
  code: 'TS013',
  severity: 'info',
  title: 'Whitespace around markers',
});

export const markerWhitespace = defineCheck({
  stage: 'sync',
  kinds: [MARKER_WHITESPACE],
  run: (ctx) =>
    findingsOf(notesOf(ctx, 'whitespace'), (n) => {
      const newlineAfterBegin = n.detail.startsWith('a newline after <|tool_call_begin|>');
      return makeDiagnostic(ctx, MARKER_WHITESPACE, {
        severity: newlineAfterBegin ? 'warning' : 'info',
        where: 'completion',
        charStart: n.span.start,
        charEnd: n.span.end,
        message: n.detail,
        hint: newlineAfterBegin
          ? "vLLM's Dec 2025–Apr 2026 parser streams no call here and xgrammar's structural tag forbids it; llama.cpp fails on it. vLLM/SGLang non-streaming trim it."
          : "Harmless for parsers that trim (vLLM, SGLang, Moonshot's reference regex); llama.cpp fails on whitespace around ids.",
      });
    }),
});
