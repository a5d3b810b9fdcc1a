/**
 * Calls written with no markup at all (unmarkedCalls.ts): in the content the client received they are a
 * `content-leak`, in its reasoning a `call-in-reasoning`, `detail` naming the shape (`call-colon`, `pythonic`,
 * `invoke-xml`) and, when a registered format writes that shape, the format (`pythonic:<format>`); in the reasoning
 * only when no call was delivered (there a call on its own line is usually the plan of one made). One finding per
 * call, carrying the call as the engine would have sent it. Markup a registered format's leak finding already
 * reports is skipped, so a span is reported once. An error unless the same call (name and arguments) was also
 * delivered as tool_calls (then a warning: only noise in the text).
 */
import { defineCheck } from '../check.ts';
import { makeDiagnostic, type CheckContext } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { findBareJsonCalls } from '../bareJsonCalls.ts';
import type { Span } from '../proseGuard.ts';
import { scanToolMarkup } from '../toolMarkupScan.ts';
import { SHAPE_LOOKS, findUnmarkedCalls, formatWriting, type UnmarkedCall } from '../unmarkedCalls.ts';
import { canonicalJson } from '../../util/canonicalJson.ts';
import { CALL_IN_REASONING } from './callInReasoning.ts';
import { CONTENT_LEAK } from './contentLeak.ts';

/** The text of the last user message of the request, or null. */
export function lastUserMessage(ctx: CheckContext): string | null {
  const messages = ctx.record.request?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content))
      return m.content.map((p) => (p && typeof p === 'object' && !Array.isArray(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
    return null;
  }
  return null;
}

/** Spans of `text` a registered format's markup (or a bare JSON call) already accounts for. */
function coveredSpans(ctx: CheckContext, text: string): Span[] {
  const spans: Span[] = [];
  for (const f of scanToolMarkup(text, ctx.record.request?.tools)) {
    spans.push([f.first.start, f.first.end]);
    for (const c of f.calls) spans.push([c.start, c.end]);
  }
  for (const b of findBareJsonCalls(text, ctx.tools ? new Set(ctx.tools.keys()) : null)) spans.push([b.start, b.end]);
  return spans;
}

/** The unmarked calls in a text of the record (content or reasoning), judged against its request. */
export function unmarkedCallsIn(ctx: CheckContext, text: string, covered: readonly Span[] = []): UnmarkedCall[] {
  return findUnmarkedCalls(text, { tools: ctx.tools, userMessage: lastUserMessage(ctx), covered });
}

/** The unmarked calls in the content the client received, as this check reports them (TS033 leaves their spans to it). */
export function contentUnmarkedCalls(ctx: CheckContext): UnmarkedCall[] {
  const content = ctx.response?.content;
  return content ? unmarkedCallsIn(ctx, content, coveredSpans(ctx, content)) : [];
}

const HINT =
  'The call reached the client as text: the server ran no tool parser for this shape, or stripped the markers before its parser saw them. Serve the model with its tool parser (vLLM/SGLang --tool-call-parser, llama.cpp --jinja), keep the markers in the text the parser reads, or parse this shape on the client for the offered tools.';

function describe(c: UnmarkedCall): string {
  return c.arguments !== null ? `${c.name} ${c.arguments}` : `${c.name} (arguments not turned: ${c.problems.join('; ')})`;
}

function findings(ctx: CheckContext, where: 'response' | 'reasoning', text: string): Diagnostic[] {
  const calls = unmarkedCallsIn(ctx, text, coveredSpans(ctx, text));
  if (!calls.length) return [];
  const delivered = new Set((ctx.response?.calls ?? []).map((c) => `${c.name ?? ''}\u0000${canonical(c.arguments)}`));
  return calls
    .map((c) => {
      const format = formatWriting(c.shape, ctx.format);
      const also = c.arguments !== null && delivered.has(`${c.name}\u0000${canonical(c.arguments)}`);
      const shape = `${SHAPE_LOOKS[c.shape]}${format ? `, as ${format.displayName} writes its calls` : ''}`;
      const what = `a tool call written as text with no tool-call markup (${shape}): ${describe(c)}`;
      const fate = also
        ? 'the same call was also delivered as tool_calls, so the text is only noise'
        : 'it was never delivered as tool_calls, so nothing ran';
      return makeDiagnostic(ctx, where === 'response' ? CONTENT_LEAK : CALL_IN_REASONING, {
        where,
        charStart: c.start,
        charEnd: c.end,
        detail: format ? `${c.shape}:${format.name}` : c.shape,
        ...(also ? { severity: 'warning' as const } : {}),
        message: `the ${where === 'response' ? 'content' : 'reasoning'} the client received holds ${what}; ${fate}`,
        hint: HINT,
      });
    })
    .map((d, i) => {
      const c = calls[i] as UnmarkedCall;
      d.call = { name: c.name, arguments: c.arguments, ...(c.problems.length ? { problems: c.problems } : {}) };
      return d;
    });
}

function canonical(args: string): string {
  try {
    return canonicalJson(JSON.parse(args));
  } catch {
    return args.trim();
  }
}

/** Its findings are content-leak and call-in-reasoning, declared by their own checks. */
export const unmarkedCallInText = defineCheck({
  stage: 'sync',
  kinds: [],
  run: (ctx) => {
    const out: Diagnostic[] = [];
    if (ctx.response?.content) out.push(...findings(ctx, 'response', ctx.response.content));
    // In the reasoning a call on its own line is often the plan of one the model then made: only when no call was
    // delivered at all is it the call that never ran.
    if (ctx.response?.reasoning && !ctx.response.calls.length) out.push(...findings(ctx, 'reasoning', ctx.response.reasoning));
    return out;
  },
});
