/**
 * content-leak: tool-call markup, or a call's arguments, reached the client as `content`. The content is scanned
 * for the markup of every registered format (and its other marker spellings, e.g. Kimi's `<|reserved_token_N|>`),
 * not only the record's own: a Qwen3-Coder fragment in a record read as Hermes is still a leak. One finding per
 * format found, `detail` naming it.
 */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { findUnknownMarkup, scanToolMarkup } from '../toolMarkupScan.ts';
import { bareCallsInContent } from './rawFallbackFormat.ts';

export const CONTENT_LEAK = diagnosticKind({
  kind: 'content-leak',
  code: 'TS001',
  severity: 'error',
  title: 'Tool-call markup or arguments in content',
});

export const contentLeak = defineCheck({
  stage: 'sync',
  kinds: [CONTENT_LEAK],
  run: (ctx) => {
    const content = ctx.response?.content;
    if (!content) return [];
    const out: Diagnostic[] = [];
    // Fragments only a format's markup produces, so a hit is never a false alarm on prose.
    const found = scanToolMarkup(content, ctx.record.request?.tools);
    // Whole markers decide the format; a piece of a marker alone (a split marker's remains) only when nothing whole
    // is there, and not where it is part of a special-token shape of another model (unknown-markup-in-content).
    const whole = found.filter((f) => f.complete);
    const unknown = findUnknownMarkup(content);
    const partial = found.filter((f) => !f.complete && !unknown.some((u) => u.start < f.first.end && f.first.start < u.end)).slice(0, 1);
    for (const { format, first, calls } of whole.length ? whole : partial) {
      const spelled = first.marker ? ` (${first.marker} spelled by its token id)` : '';
      const other = format.name === ctx.format.name ? '' : ` — ${format.displayName} markup, in a record read as ${ctx.format.displayName}`;
      const named = calls.length
        ? `; it holds ${calls.length} call${calls.length === 1 ? '' : 's'} (${calls
            .slice(0, 5)
            .map((c) => c.name || '(no name)')
            .join(', ')}) the client never received as tool_calls`
        : '';
      out.push(
        makeDiagnostic(ctx, CONTENT_LEAK, {
          where: 'response',
          charStart: first.start,
          charEnd: first.end,
          detail: format.name,
          message: `the client received tool-call markup as content: ${JSON.stringify(first.text)}${spelled}${other}${named}`,
          hint: first.marker
            ? 'The decoder spelled the special tokens by id (a GGUF build without their names), so no tool parser recognised them. Use a build whose vocabulary names the markers, or map the reserved spellings back before parsing.'
            : 'The server-side tool parser let markup through (markers split across tokens or deltas, decoded as text, or another format than the parser expects). Parse by text, not by token id alone, and strip markers before emitting content.',
        }),
      );
    }
    // A format whose own call is a bare JSON object: that object in content is its call, leaked.
    if (ctx.format.nativeBareJson && !ctx.parse) {
      const delivered = new Set((ctx.response?.calls ?? []).map((c) => c.name));
      const bare = bareCallsInContent(ctx, content).filter((c) => !delivered.has(c.name));
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
      if (at < 0) continue;
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
