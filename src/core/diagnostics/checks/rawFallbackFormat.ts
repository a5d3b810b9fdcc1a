/**
 * raw-fallback-format: a call written as text, without its format's markup, so no parser turned it into a call:
 * Kimi's `functions.name:0 {json}`, and for every format whose own call is markup, a bare JSON call
 * `{"name", "arguments"|"parameters"}` in the content the client received (the most common Ollama / Hermes-family
 * failure). A bare JSON call counts when it names an offered tool, or, when the request's tools are unknown, when it
 * is the whole content. For a format whose native call *is* that JSON (Llama-style, `nativeBareJson`), it is a
 * leaked call instead (content-leak).
 */
import { attributeLeaks } from '../leakAttribution.ts';
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, type CheckContext } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { findBareJsonCalls, type BareJsonCall } from '../bareJsonCalls.ts';
import { findingsOf, notesOf } from './structureNotes.ts';
import type { ParseResult } from '../../formats/toolCallFormat.ts';

const RAW_FALLBACK_FORMAT = diagnosticKind({
  kind: 'raw-fallback-format',
  code: 'TS011',
  severity: 'error',
  title: 'Call written without special tokens',
});

const HINT =
  'The model wrote the call as plain text, so no parser turns it into tool_calls. Usually a template problem (tools not declared the way the model was trained); guided decoding forces the markup.';
const BARE_HINT =
  "The model answered with the call's JSON and no markup (typical when the chat template's tool instructions are missing or the server runs no tool parser for this model). Serve with the model's tool parser and template, constrain the output (guided decoding), or recover the JSON on the client when its name is an offered tool.";

/**
 * A format whose call is the bare object (Llama) reads it only where a call may start (the start of the answer, after
 * `<|python_tag|>`); one written after other text is content in the reference parse, as for vLLM's streaming parser
 * and llama.cpp, though vLLM's non-streaming parser takes it as a call. Said once, over the calls found.
 */
function bareCallsAfterText(ctx: CheckContext, parse: ParseResult): Diagnostic[] {
  if (!parse.content) return [];
  const bare = bareCallsInContent(ctx, parse.content);
  if (!bare.length) return [];
  const first = bare[0] as BareJsonCall;
  const last = bare[bare.length - 1] as BareJsonCall;
  return [
    makeDiagnostic(ctx, RAW_FALLBACK_FORMAT, {
      where: 'completion',
      charStart: completionOffset(parse, first.start),
      charEnd: completionOffset(parse, last.end - 1) + 1,
      detail: 'bare-json',
      message: `${bare.length === 1 ? 'a call' : `${bare.length} calls`} written as bare JSON after other text (${bare
        .map((c) => c.name)
        .slice(0, 5)
        .join(
          ', ',
        )}) ${bare.length === 1 ? 'is' : 'are'} content, not a call: ${ctx.format.displayName} parsers read a call only where one may start (vLLM's non-streaming parser takes it; its streaming parser and llama.cpp do not)`,
      hint: "Have the model start its answer with the call (the chat template's tool instructions), or constrain the output with guided decoding; a client can recover the JSON when its name is an offered tool.",
    }),
  ];
}

/** The completion offset of an offset in the parse's content (its content spans, in order). */
function completionOffset(parse: ParseResult, at: number): number {
  let seen = 0;
  for (const span of parse.contentSpans) {
    const length = span.end - span.start;
    if (at < seen + length) return span.start + (at - seen);
    seen += length;
  }
  return parse.contentSpans[parse.contentSpans.length - 1]?.end ?? 0;
}

/** Bare JSON calls in content that stand for calls: naming an offered tool, or the whole content when tools are unknown. */
export function bareCallsInContent(ctx: CheckContext, content: string): BareJsonCall[] {
  if (ctx.tools) return findBareJsonCalls(content, new Set(ctx.tools.keys()));
  const all = findBareJsonCalls(content, null);
  // Without the request's tools, only content that is nothing but the call(s) (an array or a sequence of them),
  // bare or in one Markdown code fence (```json … ```, as Ollama's Llama 3.2 answers show).
  const rest = all.reduceRight((text, c) => text.slice(0, c.start) + text.slice(c.end), content);
  return all.length && /^\s*(?:```[A-Za-z]*)?[\s[\],]*(?:```)?\s*$/u.test(rest) ? all : [];
}

export const rawFallbackFormat = defineCheck({
  stage: 'sync',
  kinds: [RAW_FALLBACK_FORMAT],
  run: (ctx) => {
    if (ctx.parse) {
      const out = findingsOf(notesOf(ctx, 'raw-fallback'), (n) =>
        makeDiagnostic(ctx, RAW_FALLBACK_FORMAT, {
          where: 'completion',
          charStart: n.span.start,
          charEnd: n.span.end,
          message: n.detail,
          hint: HINT,
        }),
      );
      if (ctx.format.nativeBareJson) for (const d of bareCallsAfterText(ctx, ctx.parse)) out.push(d);
      return out;
    }
    const content = ctx.response?.content;
    if (!content) return [];
    const out: Diagnostic[] = (ctx.format.findRawFallback?.(content) ?? []).map((hit) =>
      makeDiagnostic(ctx, RAW_FALLBACK_FORMAT, {
        where: 'response',
        charStart: hit.start,
        charEnd: hit.end,
        message: `${hit.id} written without special tokens reached the client as content`,
        hint: HINT,
      }),
    );
    const delivered = new Set((ctx.response?.calls ?? []).map((c) => c.name));
    // JSON inside markup a format owns (a Hermes `<tool_call>{…}</tool_call>`) is that leak's call, not a bare one.
    const leaks = attributeLeaks(content, ctx.record.request?.tools, ctx.format).filter((s) => s.format !== null);
    const bare = bareCallsInContent(ctx, content).filter(
      (c) => !delivered.has(c.name) && !leaks.some((s) => s.start < c.end && c.start < s.end),
    );
    if (bare.length && !ctx.format.nativeBareJson) {
      const first = bare[0] as BareJsonCall;
      out.push(
        makeDiagnostic(ctx, RAW_FALLBACK_FORMAT, {
          where: 'response',
          charStart: first.start,
          charEnd: bare[bare.length - 1]!.end,
          detail: 'bare-json',
          message: `${bare.length === 1 ? 'a call' : `${bare.length} calls`} written as bare JSON (${bare
            .map((c) => c.name)
            .slice(0, 5)
            .join(', ')}) reached the client as content, not as tool_calls: no tool parser took ${bare.length === 1 ? 'it' : 'them'}`,
          hint: BARE_HINT,
        }),
      );
    }
    return out;
  },
});
