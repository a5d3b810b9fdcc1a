/** arguments-mismatch: the client's arguments differ from the completion's (or streamed fragments from the final). */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { matchCalls } from './callMatching.ts';

const ARGUMENTS_MISMATCH = diagnosticKind({
  kind: 'arguments-mismatch',
  code: 'TS015',
  severity: 'error',
  title: 'Arguments differ between stream, response and completion',
});

/** Equal as JSON values when both parse; otherwise equal as trimmed text. */
function sameArguments(a: string, b: string): boolean {
  if (a.trim() === b.trim()) return true;
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

function describe(raw: string, got: string): string {
  if (got === '') return 'the client got no arguments';
  if (raw.startsWith(got.trimEnd())) return `the client got a truncated prefix (${got.length} of ${raw.length} chars)`;
  return `the client got ${JSON.stringify(got.length > 60 ? got.slice(0, 57) + '...' : got)}`;
}

export const argumentsMismatch = defineCheck({
  stage: 'sync',
  kinds: [ARGUMENTS_MISMATCH],
  run: (ctx) => {
    if (!ctx.parse || !ctx.response) return [];
    return matchCalls(ctx.parse.calls, ctx.response.calls).flatMap((p) => {
      if (!p.response || sameArguments(p.raw.arguments, p.response.arguments)) return [];
      return [
        makeDiagnostic(ctx, ARGUMENTS_MISMATCH, {
          where: 'completion',
          charStart: p.raw.argumentsSpan?.start ?? p.raw.span.start,
          charEnd: p.raw.argumentsSpan?.end ?? p.raw.span.end,
          callIndex: p.raw.index,
          message: `arguments of ${p.raw.id} differ between the completion and the response: ${describe(p.raw.arguments, p.response.arguments)}`,
          hint: 'The streaming parser mangled the arguments (e.g. cut at the first newline, or held-back JSON never flushed). Compare the per-delta fragments in the timeline.',
        }),
      ];
    });
  },
});
