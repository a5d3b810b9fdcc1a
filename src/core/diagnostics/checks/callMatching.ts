/** Pairs the reference parse's calls with the response's calls: by id where ids agree, else by position. */
import type { AccumulatedCall } from '../../trace/deltaAccumulator.ts';
import type { ParsedCall } from '../../formats/toolCallFormat.ts';
import { canonicalJson } from '../../util/canonicalJson.ts';
import { mapped } from '../../util/mapped.ts';

export interface CallPair {
  raw: ParsedCall;
  response: AccumulatedCall | null;
}

export function matchCalls(raw: readonly ParsedCall[], response: readonly AccumulatedCall[]): CallPair[] {
  const used = new Set<AccumulatedCall>();
  // mapped and a loop, not map and filter: the checks that pair calls were deoptimised (util/mapped.ts).
  const pairs: CallPair[] = mapped(raw, (r) => {
    const byId = response.find((c) => !used.has(c) && c.id !== null && c.id === r.id);
    if (byId) used.add(byId);
    return { raw: r, response: byId ?? null };
  });
  // Unmatched calls pair up in order (ids rewritten by the server, e.g. chatcmpl-tool-…).
  const rest: AccumulatedCall[] = [];
  for (const c of response) if (!used.has(c)) rest.push(c);
  for (const pair of pairs) {
    if (pair.response || rest.length === 0) continue;
    pair.response = rest.shift() ?? null;
  }
  return pairs;
}

/** Arguments as data when they are JSON (so `{"a":1}` and `{ "a": 1 }` are the same), else as trimmed text. */
function argumentsKey(args: string): string {
  try {
    return canonicalJson(JSON.parse(args));
  } catch {
    return args.trim();
  }
}

/**
 * A call written in leaked markup was delivered when the client received a call of the same name and arguments as
 * tool_calls: only then is the markup the sole thing that leaked.
 */
export function isDelivered(call: { name: string; arguments: string }, delivered: readonly AccumulatedCall[]): boolean {
  const key = argumentsKey(call.arguments);
  return delivered.some((d) => d.name === call.name && argumentsKey(d.arguments) === key);
}
