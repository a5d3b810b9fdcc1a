/** unknown-tool: a call names a tool the request did not offer. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const UNKNOWN_TOOL = diagnosticKind({
  kind: 'unknown-tool',
  code: 'TS003',
  severity: 'error',
  title: 'Call to a tool the request did not offer',
});

export const unknownTool = defineCheck({
  stage: 'sync',
  kinds: [UNKNOWN_TOOL],
  run: (ctx) => {
    if (!ctx.tools) return [];
    const offered = [...ctx.tools.keys()];
    return ctx.calls
      .filter((c) => c.name !== null && c.name !== '' && !ctx.tools?.has(c.name))
      .map((c) =>
        makeDiagnostic(ctx, UNKNOWN_TOOL, {
          where: c.where,
          charStart: c.start,
          charEnd: c.argumentsStart ?? c.end,
          callIndex: c.index,
          message: `call ${c.id ?? c.index} names "${c.name}", which the request does not offer${offered.length ? ` (offered: ${offered.join(', ')})` : ' (no tools offered)'}`,
          hint: 'The model hallucinated a tool name. Guided decoding with a structural tag restricts names to the offered tools.',
        }),
      );
  },
});
