/**
 * tool-described-not-called: tools were offered, the model stopped without calling one, and its text names a
 * tool or announces that it will use one: the agent that "stops mid-task". A model that did call, in text the
 * client got as content (a registered format's markup the leak rule reads a call from, or a call with no markup),
 * is content-leak's finding, not this one; a call left in the reasoning is call-in-reasoning's, a bare JSON call in
 * the content raw-fallback-format's: one finding per fault.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { attributeLeaks } from '../leakAttribution.ts';
import { unmarkedCallsIn } from './unmarkedCallInText.ts';
import { bareCallsInContent } from './rawFallbackFormat.ts';
import { findBareJsonCalls } from '../bareJsonCalls.ts';
import { bestMarkup, scanToolMarkup } from '../toolMarkupScan.ts';

const TOOL_DESCRIBED_NOT_CALLED = diagnosticKind({
  kind: 'tool-described-not-called',
  code: 'TS018',
  severity: 'warning',
  title: 'Tool described but not called',
});

const INTENT =
  /\b(?:I(?:'ll| will| am going to|'m going to)|let me|I need to|I should|next,? I(?:'ll| will))\s+(?:now\s+)?(?:call|use|run|invoke|search|look up|check|query|fetch|read|open|execute)\b/iu;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const toolDescribedNotCalled = defineCheck({
  stage: 'sync',
  kinds: [TOOL_DESCRIBED_NOT_CALLED],
  run: (ctx) => {
    if (!ctx.tools || ctx.tools.size === 0 || ctx.calls.length > 0) return [];
    const finish = ctx.response?.finishReason ?? ctx.record.completion?.finish_reason ?? null;
    const required = ctx.record.request?.tool_choice === 'required';
    if (finish !== 'stop' && !(required && finish !== null)) return [];
    // Where the words are: the content the client saw (response) or the completion's content and reasoning.
    const where = ctx.response ? 'response' : 'completion';
    const text = ctx.response ? (ctx.response.content ?? '') : (ctx.parse?.content ?? '');
    const reasoning = ctx.response ? (ctx.response.reasoning ?? '') : (ctx.parse?.reasoning ?? '');
    // The model did call, in text with no markup: content-leak / call-in-reasoning report that, not this.
    if (unmarkedCallsIn(ctx, text).length || unmarkedCallsIn(ctx, reasoning).length) return [];
    // The model did call, in the reasoning the client received (markup of any format, or bare JSON naming an offered
    // tool): call-in-reasoning's finding. Or as bare JSON in the content: raw-fallback-format's. One finding a fault.
    const toolNames = new Set(ctx.tools.keys());
    if (
      ctx.response?.reasoning &&
      (bestMarkup(scanToolMarkup(reasoning, ctx.record.request?.tools)) || findBareJsonCalls(reasoning, toolNames).length)
    )
      return [];
    // (Only where raw-fallback-format reads the content as the client got it: without a completion to parse.)
    if (!ctx.parse && ctx.response?.content && bareCallsInContent(ctx, ctx.response.content).length) return [];
    // The model did call, in a registered format's markup the server returned as content: the leak rule attributes
    // the span and reads its call, and content-leak reports it. Markers alone or unknown markup claim no call: this stays.
    const content = ctx.response?.content;
    if (content && attributeLeaks(content, ctx.record.request?.tools, ctx.format).some((s) => s.format !== null && s.calls.length > 0))
      return [];
    let hit: { at: number; length: number; what: string } | null = null;
    for (const name of ctx.tools.keys()) {
      const m = new RegExp(`(?<![\\w.])${escapeRegExp(name)}(?![\\w])`, 'u').exec(text);
      if (m && (!hit || m.index < hit.at)) hit = { at: m.index, length: m[0].length, what: `names the tool "${name}"` };
    }
    const intent = INTENT.exec(text);
    if (!hit && intent) hit = { at: intent.index, length: intent[0].length, what: `says "${intent[0]}"` };
    const inReasoning = !hit && (INTENT.test(reasoning) || [...ctx.tools.keys()].some((n) => reasoning.includes(n)));
    if (!hit && !inReasoning && !required) return [];
    // Content offsets anchor to the completion only through its content spans.
    let charStart: number | null = null;
    let charEnd: number | null = null;
    if (hit && where === 'response') {
      charStart = hit.at;
      charEnd = hit.at + hit.length;
    } else if (hit && ctx.parse) {
      let cursor = 0;
      for (const span of ctx.parse.contentSpans) {
        const len = span.end - span.start;
        if (hit.at < cursor + len) {
          charStart = span.start + (hit.at - cursor);
          charEnd = charStart + hit.length;
          break;
        }
        cursor += len;
      }
    }
    const why = hit ? `the content ${hit.what}` : inReasoning ? 'the reasoning plans a tool call' : 'tool_choice is "required"';
    return [
      makeDiagnostic(ctx, TOOL_DESCRIBED_NOT_CALLED, {
        severity: required ? 'error' : 'warning',
        where,
        charStart,
        charEnd,
        message: `tools were offered and ${why}, but the model stopped (finish_reason "${finish}") without calling any`,
        hint: required
          ? 'tool_choice "required" was not enforced: constrain decoding (structural tag with the section forced).'
          : 'The agent "stops mid-task". Check the chat template (tool declarations, generation prompt) and consider guidance in the system prompt.',
      }),
    ];
  },
});
