/** bad-call-id: an id not of the format's form (Kimi K2's `functions.<name>:<index>`), or naming another tool than the call. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const BAD_CALL_ID = diagnosticKind({
  kind: 'bad-call-id',
  code: 'TS006',
  severity: 'warning',
  title: "Call id not in the format's form",
});

export const badCallId = defineCheck({
  stage: 'sync',
  kinds: [BAD_CALL_ID],
  run: (ctx) => {
    const rules = ctx.callIds;
    // Formats without an id convention (Hermes, Harmony…): the server's ids are its own business. Same when the
    // format was only assumed: an unknown model's ids are not held to the default's convention.
    if (!rules) return [];
    return ctx.calls.flatMap((c) => {
      if (c.id === null || c.id === '') return [];
      const anchor = { charStart: c.start, charEnd: c.argumentsStart ?? c.end };
      const problem = rules.problem(c.id);
      if (problem) {
        return [
          makeDiagnostic(ctx, BAD_CALL_ID, {
            where: c.where,
            ...anchor,
            callIndex: c.index,
            message: problem,
            hint: rules.hint,
          }),
        ];
      }
      const named = rules.nameOf(c.id);
      if (c.where === 'response' && c.name && named !== null && named !== c.name) {
        return [
          makeDiagnostic(ctx, BAD_CALL_ID, {
            where: c.where,
            callIndex: c.index,
            message: `call id "${c.id}" names "${named}" but the call is to "${c.name}"`,
            hint: 'The server derived the name differently from the id (e.g. kept only the last dotted segment). Derive the name by removing only "functions." and ":index".',
          }),
        ];
      }
      return [];
    });
  },
});
