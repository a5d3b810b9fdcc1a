/** bad-call-id: an id not of the form `functions.<name>:<index>`, or naming another tool than the call. */
import { CANONICAL_CALL_ID, nameFromCallId } from '../../formats/kimiK2/kimiK2Markers.ts';
import { makeDiagnostic, type Check } from '../context.ts';

export const badCallId: Check = (ctx) =>
  ctx.calls.flatMap((c) => {
    if (c.id === null || c.id === '') return [];
    const anchor = { charStart: c.start, charEnd: c.argumentsStart ?? c.end };
    if (!CANONICAL_CALL_ID.test(c.id)) {
      return [
        makeDiagnostic(ctx, 'bad-call-id', {
          where: c.where,
          ...anchor,
          callIndex: c.index,
          message: `call id "${c.id}" is not of the form functions.<name>:<index>`,
          hint: 'Kimi K2 expects ids like functions.search:2; ids such as "search:2" in the history derail later turns. Keep the model\'s id and fix the history ids the client sends back.',
        }),
      ];
    }
    if (c.where === 'response' && c.name && nameFromCallId(c.id) !== c.name) {
      return [
        makeDiagnostic(ctx, 'bad-call-id', {
          where: c.where,
          callIndex: c.index,
          message: `call id "${c.id}" names "${nameFromCallId(c.id)}" but the call is to "${c.name}"`,
          hint: 'The server derived the name differently from the id (e.g. kept only the last dotted segment). Derive the name by removing only "functions." and ":index".',
        }),
      ];
    }
    return [];
  });
