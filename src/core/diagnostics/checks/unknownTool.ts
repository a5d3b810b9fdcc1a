/** unknown-tool: a call names a tool the request did not offer. */
import { makeDiagnostic, type Check } from '../context.ts';

export const unknownTool: Check = (ctx) => {
  if (!ctx.tools) return [];
  const offered = [...ctx.tools.keys()];
  return ctx.calls
    .filter((c) => c.name !== null && c.name !== '' && !ctx.tools?.has(c.name))
    .map((c) =>
      makeDiagnostic(ctx, 'unknown-tool', {
        where: c.where,
        charStart: c.start,
        charEnd: c.argumentsStart ?? c.end,
        callIndex: c.index,
        message: `call ${c.id ?? c.index} names "${c.name}", which the request does not offer${offered.length ? ` (offered: ${offered.join(', ')})` : ' (no tools offered)'}`,
        hint: 'The model hallucinated a tool name. Guided decoding with a structural tag restricts names to the offered tools.',
      }),
    );
};
