/**
 * content-leak: tool-call markup, or a call's arguments, reached the client as `content`. The content's markup is
 * cut into spans and each span attributed to one registered format by the one leak rule (leakAttribution.ts): one
 * finding per span, `detail` naming the format — or the fragment (`opener-only`, `closer-only`, `markers-only`)
 * when the span is markers alone and claims no call. A span of no registered format is unknown-markup-in-content's.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, type CheckContext } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { attributeLeaks, firstMarkup, type LeakSpan } from '../leakAttribution.ts';
import type { MarkupCall } from '../toolMarkupScan.ts';
import { isDelivered } from './callMatching.ts';
import { bareCallsInContent } from './rawFallbackFormat.ts';

export const CONTENT_LEAK = diagnosticKind({
  kind: 'content-leak',
  code: 'TS001',
  severity: 'error',
  title: 'Tool-call markup or arguments in content',
});

const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);

/** Names of calls in a list, at most five, then how many more. */
function names(calls: readonly MarkupCall[]): string {
  const shown = calls.slice(0, 5).map((c) => c.name);
  return shown.join(', ') + (calls.length > 5 ? ` and ${calls.length - 5} more` : '');
}

/** What the span holds, as the end of the finding's sentence: calls never received, calls also delivered, or none. */
function callsClause(calls: readonly MarkupCall[], ctx: CheckContext): string {
  if (!calls.length) return '; Toolscope reads no named call in it';
  const delivered = ctx.response?.calls ?? [];
  const lost = calls.filter((c) => !isDelivered(c, delivered));
  const n = calls.length;
  if (lost.length === n) return `; it holds ${n} ${plural(n, 'call', 'calls')} (${names(calls)}) the client never received as tool_calls`;
  if (lost.length === 0)
    return `; ${plural(n, 'its call', `its ${n} calls`)} (${names(calls)}) also reached the client as tool_calls, so only the markup leaked`;
  return `; of its ${n} calls, the client never received ${names(lost)} as tool_calls and received the others (${names(
    calls.filter((c) => !lost.includes(c)),
  )}) as tool_calls too`;
}

function spanMessage(span: LeakSpan & { format: NonNullable<LeakSpan['format']> }, ctx: CheckContext): string {
  const first = firstMarkup(span);
  const quote = `${JSON.stringify(first.text)}${first.marker ? ` (${first.marker} spelled by its token id)` : ''}`;
  const name = span.format.displayName;
  const other = span.format.name === ctx.format.name ? '' : ` (${name} markup, in a record read as ${ctx.format.displayName})`;
  const received = ctx.response?.calls.length ?? 0;
  const deliveredNote = received ? `; the client did receive ${received} ${plural(received, 'call', 'calls')} as tool_calls` : '';
  switch (span.fragment) {
    case 'opener-only':
      return `the client received the opener ${quote} of ${name} tool-call markup as content with nothing after it${other}: a fragment that holds no call${deliveredNote}`;
    case 'closer-only':
      return `the client received the closer ${quote} of ${name} tool-call markup as content with nothing before it${other}: a fragment that holds no call${deliveredNote}`;
    case 'markers-only':
      return `the client received ${name} tool-call markers as content with nothing between them, from ${quote} on${other}: a fragment that holds no call${deliveredNote}`;
    case 'piece':
      return `the client received what is left of ${name} tool-call markup as content: ${quote}${other}, its markers split across tokens or deltas or decoded as text`;
    default:
      return `the client received ${name} tool-call markup as content: ${quote}${other}${callsClause(span.calls, ctx)}`;
  }
}

const overlaps = (a: { start: number; end: number }, start: number, end: number): boolean => a.start < end && start < a.end;

export const contentLeak = defineCheck({
  stage: 'sync',
  kinds: [CONTENT_LEAK],
  run: (ctx) => {
    const content = ctx.response?.content;
    if (!content) return [];
    const out: Diagnostic[] = [];
    const spans = attributeLeaks(content, ctx.record.request?.tools, ctx.format);
    for (const span of spans) {
      const { format } = span;
      if (!format) continue;
      const first = firstMarkup(span);
      out.push(
        makeDiagnostic(ctx, CONTENT_LEAK, {
          where: 'response',
          charStart: span.start,
          charEnd: span.end,
          detail: span.fragment && span.fragment !== 'piece' ? span.fragment : format.name,
          message: spanMessage({ ...span, format }, ctx),
          hint: first.marker
            ? 'The decoder spelled the special tokens by id (a GGUF build without their names), so no tool parser recognised them. Use a build whose vocabulary names the markers, or map the reserved spellings back before parsing.'
            : span.fragment && span.fragment !== 'piece'
              ? 'The server-side tool parser took the call but left its marker in the content. Strip every marker of the format from content, also when it stands alone.'
              : 'The server-side tool parser let markup through (markers split across tokens or deltas, decoded as text, or another format than the parser expects). Parse by text, not by token id alone, and strip markers before emitting content.',
        }),
      );
    }
    // Elsewhere in the content only: a span already found is one finding.
    const free = (start: number, end: number): boolean => !spans.some((s) => overlaps(s, start, end));
    // A format whose own call is a bare JSON object: that object in content is its call, leaked.
    if (ctx.format.nativeBareJson && !ctx.parse) {
      const delivered = ctx.response?.calls ?? [];
      const bare = bareCallsInContent(ctx, content).filter((c) => free(c.start, c.end) && !isDelivered(c, delivered));
      if (bare.length) {
        out.push(
          makeDiagnostic(ctx, CONTENT_LEAK, {
            where: 'response',
            charStart: bare[0]!.start,
            charEnd: bare[bare.length - 1]!.end,
            detail: 'bare-json',
            message: `${ctx.format.displayName}'s own call (${bare
              .map((c) => c.name)
              .slice(0, 5)
              .join(', ')}) reached the client as content: the server ran no tool parser for it`,
            hint: "Serve with the model's tool parser, or recover the JSON on the client when its name is an offered tool.",
          }),
        );
      }
    }
    // Arguments of a real call showing up verbatim in content: the parser streamed the section as text.
    for (const call of ctx.parse?.calls ?? []) {
      const args = call.arguments.trim();
      if (args.length < 8) continue;
      const at = content.indexOf(args);
      if (
        at < 0 ||
        !free(at, at + args.length) ||
        out.some((d) => d.charStart !== null && d.charStart! < at + args.length && at < d.charEnd!)
      )
        continue;
      out.push(
        makeDiagnostic(ctx, CONTENT_LEAK, {
          where: 'response',
          charStart: at,
          charEnd: at + args.length,
          callIndex: call.index,
          message: `the arguments of call ${call.id || call.index} appear in the content the client received`,
          hint: 'The tool-call section was streamed as content. Check that the section begin marker is recognised in every delta grouping.',
        }),
      );
    }
    return out;
  },
});
