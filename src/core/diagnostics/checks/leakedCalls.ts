/**
 * The call-level checks (unknown tool, invalid JSON, schema, call id) on calls that exist only inside markup leaked
 * into content: for a response-only record they are the calls the model wrote, and their flaws are often the root
 * cause of the leak (an id like `functionsexec5` the server's parser refused). Each finding says the call leaked and
 * was never delivered; `detail: "leaked"`, no `callIndex` (the calls are not the record's).
 */
import { defineCheck, type SyncCheck } from '../check.ts';
import type { CheckedCall } from '../context.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { attributeLeaks } from '../leakAttribution.ts';
import { badCallId } from './badCallId.ts';
import { isDelivered } from './callMatching.ts';
import { invalidArgumentsJson } from './invalidArgumentsJson.ts';
import { schemaViolation } from './schemaViolation.ts';
import { unknownTool } from './unknownTool.ts';

const CALL_CHECKS: readonly SyncCheck[] = [unknownTool, invalidArgumentsJson, schemaViolation, badCallId];

/** Its findings are of the call checks' kinds: it declares none of its own. */
export const leakedCalls = defineCheck({
  stage: 'sync',
  kinds: [],
  run: (ctx) => {
    // With a raw completion, the reference parse's calls are the calls, and they were checked.
    if (ctx.parse) return [];
    const content = ctx.response?.content;
    if (!content) return [];
    // The calls the leak rule attributes to a span's format, one format per span (leakAttribution.ts).
    const spans = attributeLeaks(content, ctx.record.request?.tools, ctx.format).filter((s) => s.format !== null && s.calls.length);
    const delivered = ctx.response?.calls ?? [];
    return spans.flatMap((span) => {
      const format = span.format!;
      const calls: CheckedCall[] = span.calls
        .filter((c) => !isDelivered(c, delivered))
        .map((c) => ({
          index: c.index,
          id: c.id || null,
          name: c.name,
          arguments: c.arguments,
          where: 'response',
          argumentsStart: c.argumentsStart,
          argumentsEnd: c.argumentsEnd,
          start: c.start,
          end: c.end,
        }));
      if (!calls.length) return [];
      const leakedCtx = { ...ctx, calls, callIds: format.callIds ?? null };
      return CALL_CHECKS.flatMap((check) => check.run(leakedCtx)).map((d): Diagnostic => {
        const { callIndex: _notTheRecords, ...rest } = d;
        return { ...rest, detail: 'leaked', message: `leaked ${format.displayName} call in content, never delivered: ${d.message}` };
      });
    });
  },
});
