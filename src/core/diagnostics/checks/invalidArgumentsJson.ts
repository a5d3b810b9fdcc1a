/** invalid-arguments-json: a call's arguments are not a JSON object. */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic, type CheckedCall } from '../context.ts';

const INVALID_ARGUMENTS_JSON = diagnosticKind({
  kind: 'invalid-arguments-json',
  code: 'TS004',
  severity: 'error',
  title: 'Arguments are not a JSON object',
});

type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** Answers by the arguments' text (the same text parses the same), so this and schema-violation parse a call once. */
const parsedByText = new Map<string, ParsedArguments>();

/** Texts kept at most (then the cache starts over), and the longest kept: arguments of a call are short. */
const PARSED_LIMIT = 256;
const PARSED_MAX_LENGTH = 4096;

/**
 * Parses arguments as a JSON object, or says why they are not one: `reason` completes "the arguments … are" (`empty`,
 * `not valid JSON: …`, `valid JSON but not an object (…)`). The answer may be given again for the same text: its
 * value is not to be changed.
 */
export function parseArguments(args: string): ParsedArguments {
  const kept = parsedByText.get(args);
  if (kept) return kept;
  const parsed = parseNow(args);
  if (args.length <= PARSED_MAX_LENGTH) {
    if (parsedByText.size >= PARSED_LIMIT) parsedByText.clear();
    parsedByText.set(args, parsed);
  }
  return parsed;
}

function parseNow(args: string): ParsedArguments {
  if (args.trim() === '') return { ok: false, reason: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch (err) {
    return { ok: false, reason: `not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      reason: `valid JSON but not an object (${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`,
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export function argumentsAnchor(c: CheckedCall): { charStart: number | null; charEnd: number | null } {
  return { charStart: c.argumentsStart ?? c.start, charEnd: c.argumentsEnd ?? c.end };
}

export const invalidArgumentsJson = defineCheck({
  stage: 'sync',
  kinds: [INVALID_ARGUMENTS_JSON],
  run: (ctx) =>
    ctx.calls.flatMap((c) => {
      const parsed = parseArguments(c.arguments);
      if (parsed.ok) return [];
      return [
        makeDiagnostic(ctx, INVALID_ARGUMENTS_JSON, {
          where: c.where,
          ...argumentsAnchor(c),
          callIndex: c.index,
          message: `the arguments of call ${c.id ?? c.index}${c.name ? ` (${c.name})` : ''} are ${parsed.reason}`,
          hint: 'Truncated output (finish_reason "length") or a model error. Guided decoding with the tool schema guarantees well-formed JSON.',
        }),
      ];
    }),
});
