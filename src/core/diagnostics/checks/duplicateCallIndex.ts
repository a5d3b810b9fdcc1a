/** duplicate-call-index: the `:index` of call ids repeats or goes backwards within one completion. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';

const DUPLICATE_CALL_INDEX = diagnosticKind({
  kind: 'duplicate-call-index',
  code: 'TS007',
  severity: 'warning',
  title: 'Duplicate or out-of-order call index',
});

export const duplicateCallIndex = defineCheck({
  stage: 'sync',
  kinds: [DUPLICATE_CALL_INDEX],
  run: (ctx) => {
    const rules = ctx.callIds;
    if (!rules) return [];
    const out = [];
    const seen = new Map<number, string>();
    let previous: number | null = null;
    for (const c of ctx.calls) {
      if (!c.id) continue;
      const idx = rules.indexOf(c.id);
      if (idx === null) continue;
      const anchor = { charStart: c.start, charEnd: c.argumentsStart ?? c.end };
      if (seen.has(idx)) {
        out.push(
          makeDiagnostic(ctx, DUPLICATE_CALL_INDEX, {
            where: c.where,
            ...anchor,
            callIndex: c.index,
            message: `call id "${c.id}" reuses index ${idx} (already used by "${seen.get(idx)}")`,
            hint: 'Tool results are matched to calls by id; two calls with one index make their results ambiguous.',
          }),
        );
      } else if (previous !== null && idx < previous) {
        out.push(
          makeDiagnostic(ctx, DUPLICATE_CALL_INDEX, {
            where: c.where,
            ...anchor,
            callIndex: c.index,
            message: `call id "${c.id}" has index ${idx} after index ${previous}: out of order`,
            hint: 'The model numbers calls in order; an out-of-order index usually means a template or history problem.',
          }),
        );
      }
      seen.set(idx, c.id);
      previous = idx;
    }
    return out;
  },
});
