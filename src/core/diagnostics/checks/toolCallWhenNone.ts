/** tool-call-when-none: `tool_choice: "none"` but calls were emitted. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const TOOL_CALL_WHEN_NONE = diagnosticKind({
  kind: 'tool-call-when-none',
  code: 'TS017',
  severity: 'error',
  title: 'Tool call although tool_choice is "none"',
});

export const toolCallWhenNone = defineCheck({
  stage: 'sync',
  kinds: [TOOL_CALL_WHEN_NONE],
  run: (ctx) => {
    if (ctx.record.request?.tool_choice !== 'none' || ctx.calls.length === 0) return [];
    const first = ctx.calls[0];
    return [
      makeDiagnostic(ctx, TOOL_CALL_WHEN_NONE, {
        where: first?.where ?? 'completion',
        charStart: first?.start ?? null,
        charEnd: first?.end ?? null,
        message: `${ctx.calls.length} tool call${ctx.calls.length === 1 ? '' : 's'} although the request set tool_choice "none"`,
        hint: 'The template still declared the tools, or the server ignored tool_choice. With "none", drop the tool declarations from the prompt or constrain decoding.',
      }),
    ];
  },
});
