/** content-leak: tool-call markup, or a call's arguments, reached the client as `content`. */
import { makeDiagnostic, type Check } from '../context.ts';

export const contentLeak: Check = (ctx) => {
  const content = ctx.response?.content;
  if (!content) return [];
  const out = [];
  let earliest: { at: number; text: string } | null = null;
  // Fragments only the format's markup produces, so a hit is never a false alarm on prose.
  for (const f of ctx.format.leakFragments) {
    const at = content.indexOf(f);
    if (at >= 0 && (!earliest || at < earliest.at)) earliest = { at, text: f };
  }
  if (earliest) {
    out.push(
      makeDiagnostic(ctx, 'content-leak', {
        where: 'response',
        charStart: earliest.at,
        charEnd: earliest.at + earliest.text.length,
        message: `the client received tool-call markup as content: ${JSON.stringify(earliest.text)}`,
        hint: 'The server-side tool parser let markup through (markers split across tokens or deltas, or decoded as text). Parse by text, not by token id alone, and strip markers before emitting content.',
      }),
    );
  }
  // Arguments of a real call showing up verbatim in content: the parser streamed the section as text.
  for (const call of ctx.parse?.calls ?? []) {
    const args = call.arguments.trim();
    if (args.length < 8) continue;
    const at = content.indexOf(args);
    if (at < 0) continue;
    out.push(
      makeDiagnostic(ctx, 'content-leak', {
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
};
