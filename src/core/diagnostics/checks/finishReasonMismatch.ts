/** finish-reason-mismatch: calls were delivered but `finish_reason` is not `tool_calls`, or the reverse. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const FINISH_REASON_MISMATCH = diagnosticKind({
  kind: 'finish-reason-mismatch',
  code: 'TS016',
  severity: 'warning',
  title: 'finish_reason does not match the calls',
});

export const finishReasonMismatch = defineCheck({
  stage: 'sync',
  kinds: [FINISH_REASON_MISMATCH],
  run: (ctx) => {
    // Only the response's finish reason is the client's: /v1/completions knows nothing of tools.
    const response = ctx.response;
    if (!response || response.finishReason === null) return [];
    const calls = response.calls.length;
    if (calls > 0 && response.finishReason !== 'tool_calls') {
      return [
        makeDiagnostic(ctx, FINISH_REASON_MISMATCH, {
          where: 'response',
          message: `${calls} tool call${calls === 1 ? '' : 's'} delivered with finish_reason "${response.finishReason}"`,
          hint: 'Agent loops that branch on finish_reason === "tool_calls" will not run these calls. The server should set tool_calls whenever it returns calls.',
        }),
      ];
    }
    if (calls === 0 && response.finishReason === 'tool_calls') {
      return [
        makeDiagnostic(ctx, FINISH_REASON_MISMATCH, {
          where: 'response',
          message: 'finish_reason is "tool_calls" but the response has no tool calls',
          hint: 'The model emitted markup the server could not parse into calls; look at the raw completion.',
        }),
      ];
    }
    return [];
  },
});
