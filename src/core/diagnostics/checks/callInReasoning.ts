/**
 * call-in-reasoning: tool-call markup of any format, or a bare JSON call naming an offered tool, in the reasoning
 * the client received (`reasoning_content` / `reasoning`, Anthropic `thinking` and Responses `reasoning` once
 * imported). The server's reasoning parser kept the calls, so the tool parser never saw them and nothing ran —
 * the most common failure of Kimi K2 Thinking / K2.5 and DeepSeek-V3.1 in public reports.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, type CheckContext } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { findBareJsonCalls } from '../bareJsonCalls.ts';
import { bestMarkup, scanToolMarkup } from '../toolMarkupScan.ts';

export const CALL_IN_REASONING = diagnosticKind({
  kind: 'call-in-reasoning',
  code: 'TS032',
  severity: 'error',
  title: 'Tool call left in the reasoning',
});

const HINT =
  'The reasoning parser ended only at </think>, so a call written before it (or without it) stayed reasoning. Use an engine whose reasoning parser ends reasoning at the tool-call markup (current vLLM, SGLang and llama.cpp do for Kimi K2), or parse the calls out of the reasoning on the client.';

function names(calls: ReadonlyArray<{ name: string }>): string {
  const shown = calls.slice(0, 5).map((c) => c.name || '(no name)');
  return shown.join(', ') + (calls.length > shown.length ? ` and ${calls.length - shown.length} more` : '');
}

export const callInReasoning = defineCheck({
  stage: 'sync',
  kinds: [CALL_IN_REASONING],
  run: (ctx) => {
    const reasoning = ctx.response?.reasoning;
    if (!reasoning) return [];
    const delivered = new Set((ctx.response?.calls ?? []).map((c) => c.name ?? ''));
    const markup = bestMarkup(scanToolMarkup(reasoning, ctx.record.request?.tools));
    if (markup) {
      const { format, first, calls } = markup;
      const start = Math.min(first.start, calls[0]?.start ?? first.start);
      const end = Math.max(first.end, calls[calls.length - 1]?.end ?? first.end);
      const lost = calls.filter((c) => !delivered.has(c.name));
      const what = calls.length
        ? `${calls.length} tool call${calls.length === 1 ? '' : 's'} in ${format.displayName} markup (${names(calls)})`
        : `${format.displayName} tool-call markup ${JSON.stringify(first.text)}`;
      return [finding(ctx, format.name, start, end, what, calls.length > 0 && lost.length === 0, ctx.response?.calls.length ?? 0)];
    }
    if (!ctx.tools) return [];
    const bare = findBareJsonCalls(reasoning, new Set(ctx.tools.keys()));
    if (!bare.length) return [];
    const what = `${bare.length} tool call${bare.length === 1 ? '' : 's'} written as bare JSON (${names(bare)})`;
    const allDelivered = bare.every((c) => delivered.has(c.name));
    return [finding(ctx, 'bare-json', bare[0]!.start, bare[bare.length - 1]!.end, what, allDelivered, ctx.response?.calls.length ?? 0)];
  },
});

function finding(
  ctx: CheckContext,
  detail: string,
  start: number,
  end: number,
  what: string,
  allDelivered: boolean,
  deliveredCount: number,
): Diagnostic {
  const d = makeDiagnostic(ctx, CALL_IN_REASONING, {
    where: 'reasoning',
    charStart: start,
    charEnd: end,
    detail,
    ...(allDelivered ? { severity: 'warning' as const } : {}),
    message: allDelivered
      ? `the reasoning the client received holds ${what}; the calls were also delivered as tool_calls, so the markup is only noise in the reasoning`
      : deliveredCount
        ? `the reasoning the client received holds ${what}: they are missing from the tool_calls the client received, so they never ran`
        : `the reasoning the client received holds ${what}: none reached the client as tool_calls, so it executed nothing`,
    hint: HINT,
  });
  return d;
}
