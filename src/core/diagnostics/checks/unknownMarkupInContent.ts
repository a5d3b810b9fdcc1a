/**
 * unknown-markup-in-content: markup of no registered format in the content the client received — special-token
 * shapes (`<|…|>`, full-width or double bars as in DeepSeek's DSML `<｜DSML｜function_calls>`, `▁` inside angle
 * brackets, namespaced tool-call tags like MiniMax's `<minimax:tool_call>`), and spans the leak rule
 * (leakAttribution.ts) attributes to no format: a registered marker beside such a shape (LFM2's
 * `<|tool_call_end|>`, spelled like Kimi K2's), or a shared marker around a body none of its formats writes
 * (`<tool_call>` around prose). Markup leaked, but Toolscope has no parser for it, so the finding says what
 * it saw and where; no other format is named for it.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { attributeLeaks } from '../leakAttribution.ts';
import { getFormat } from '../../formats/registry.ts';
import { contentUnmarkedCalls } from './unmarkedCallInText.ts';

const UNKNOWN_MARKUP_IN_CONTENT = diagnosticKind({
  kind: 'unknown-markup-in-content',
  code: 'TS033',
  severity: 'warning',
  title: 'Special-token markup of no known format in content',
});

const quoteList = (texts: readonly string[]): string => {
  const distinct = [...new Set(texts)];
  return (
    distinct
      .slice(0, 4)
      .map((t) => JSON.stringify(t))
      .join(', ') + (distinct.length > 4 ? ` and ${distinct.length - 4} more` : '')
  );
};

const andList = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export const unknownMarkupInContent = defineCheck({
  stage: 'sync',
  kinds: [UNKNOWN_MARKUP_IN_CONTENT],
  run: (ctx) => {
    const content = ctx.response?.content;
    if (!content) return [];
    const all = attributeLeaks(content, ctx.record.request?.tools, ctx.format);
    // Unknown spans, and shapes of no format beside an attributed leak (an end-of-turn token after a Kimi section).
    // A span of no format around a call written in a shape Toolscope reads (LFM2's markers around a pythonic list,
    // `<minimax:tool_call>` around an `<invoke>`) is that call's content-leak (unmarkedCallInText): one finding a span.
    const unmarked = all.some((s) => s.format === null) ? contentUnmarkedCalls(ctx) : [];
    const holdsCall = (s: { start: number; end: number }): boolean => unmarked.some((c) => c.start < s.end && s.start < c.end);
    const spans = all.filter((s) => (s.format === null && !holdsCall(s)) || (s.format !== null && s.unknown.length));
    const first = spans[0];
    if (!first) return [];
    const shapes = spans.flatMap((s) => s.unknown);
    const sentences: string[] = [];
    if (shapes.length)
      sentences.push(
        `the content holds special-token markup of no format Toolscope knows: ${quoteList(shapes.map((s) => s.text))}${shapes.length > 1 ? ` (${shapes.length} occurrences)` : ''}`,
      );
    // Registered markers inside such a span are part of it, not a leak of their formats.
    const beside = spans.filter((s) => s.format === null && s.unknown.length).flatMap((s) => s.tokens.map((t) => t.text));
    if (beside.length)
      sentences.push(`${quoteList(beside)} beside it ${beside.length === 1 ? 'is' : 'are'} part of that markup, not another format's leak`);
    for (const span of spans.filter((s) => s.format === null && !s.unknown.length)) {
      const owners = [...new Set(span.tokens.flatMap((t) => [...t.owners.keys()]))].map((n) => getFormat(n).displayName);
      sentences.push(
        span.unknownWhy === 'body'
          ? `${quoteList(span.tokens.map((t) => t.text))} ${new Set(span.tokens.map((t) => t.text)).size === 1 ? 'is' : 'are'} tool-call markup ${andList(owners)} ${owners.length === 1 ? 'writes' : 'write'}, but what it wraps is no call of ${owners.length === 1 ? 'that format' : 'theirs'}`
          : `${quoteList(span.tokens.map((t) => t.text))} mixes markers of ${andList(owners)} in one span, which no single format writes`,
      );
    }
    return [
      makeDiagnostic(ctx, UNKNOWN_MARKUP_IN_CONTENT, {
        where: 'response',
        charStart: first.format === null ? first.start : (first.unknown[0]?.start ?? first.start),
        charEnd: first.format === null ? first.end : (first.unknown[0]?.end ?? first.end),
        message: sentences.join('; '),
        hint: 'A special token or the markup of a tool-call format Toolscope has no parser for (a `<tool_call>` around a body no registered format writes, for one) was decoded into content. Check that the server runs the tool and reasoning parsers for this model, and that special tokens are skipped in content.',
      }),
    ];
  },
});
