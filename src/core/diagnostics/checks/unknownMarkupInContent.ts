/**
 * unknown-markup-in-content: special-token shapes of no registered format in the content the client received —
 * `<|…|>`, full-width or double bars (DeepSeek's DSML `<｜DSML｜function_calls>`), `▁` inside angle brackets. Markup
 * leaked, but Toolscope has no parser for it, so the finding says what it saw and where.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { findUnknownMarkup } from '../toolMarkupScan.ts';

const UNKNOWN_MARKUP_IN_CONTENT = diagnosticKind({
  kind: 'unknown-markup-in-content',
  code: 'TS033',
  severity: 'warning',
  title: 'Special-token markup of no known format in content',
});

export const unknownMarkupInContent = defineCheck({
  stage: 'sync',
  kinds: [UNKNOWN_MARKUP_IN_CONTENT],
  run: (ctx) => {
    const content = ctx.response?.content;
    if (!content) return [];
    const found = findUnknownMarkup(content);
    const first = found[0];
    if (!first) return [];
    const distinct = [...new Set(found.map((f) => f.text))];
    const shown =
      distinct
        .slice(0, 4)
        .map((t) => JSON.stringify(t))
        .join(', ') + (distinct.length > 4 ? ` and ${distinct.length - 4} more` : '');
    return [
      makeDiagnostic(ctx, UNKNOWN_MARKUP_IN_CONTENT, {
        where: 'response',
        charStart: first.start,
        charEnd: first.end,
        message: `the content holds special-token markup of no format Toolscope knows: ${shown}${found.length > 1 ? ` (${found.length} occurrences)` : ''}`,
        hint: "A special token (or a tool-call format Toolscope has no parser for, such as DeepSeek V3.2's DSML) was decoded into content. Check that the server runs the tool and reasoning parsers for this model, and that special tokens are skipped in content.",
      }),
    ];
  },
});
