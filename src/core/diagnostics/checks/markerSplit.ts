/**
 * marker-split: a marker that spans several recorded tokens (a tokenizer or serving bug). Only recorded tokens
 * tell: re-encoded and approximate ones are how a tokenizer splits the text now, not what the engine generated.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, tokenRange } from '../context.ts';

const MARKER_SPLIT = diagnosticKind({ kind: 'marker-split', code: 'TS009', severity: 'warning', title: 'Marker split across tokens' });

export const markerSplit = defineCheck({
  stage: 'sync',
  kinds: [MARKER_SPLIT],
  run: (ctx) => {
    if (!ctx.parse || ctx.tokens.length === 0 || ctx.tokenSource !== 'recorded') return [];
    return ctx.parse.markers.flatMap((m) => {
      const { tokenStart, tokenEnd } = tokenRange(ctx.tokens, m.span.start, m.span.end);
      if (tokenStart === null || tokenEnd === null || tokenEnd - tokenStart <= 1) return [];
      return [
        makeDiagnostic(ctx, MARKER_SPLIT, {
          where: 'completion',
          charStart: m.span.start,
          charEnd: m.span.end,
          message: `${m.text} spans ${tokenEnd - tokenStart} tokens`,
          hint: "Parsers that look for the marker's token id (or at one delta at a time) miss it and leak it as content. Match marker text across deltas, or fix the tokenizer so the marker is one special token.",
        }),
      ];
    });
  },
});
