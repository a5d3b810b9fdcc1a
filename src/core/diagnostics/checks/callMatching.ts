/** Pairs the reference parse's calls with the response's calls: by id where ids agree, else by position. */
import type { AccumulatedCall } from '../../trace/deltaAccumulator.ts';
import type { ParsedCall } from '../../formats/toolCallFormat.ts';

export interface CallPair {
  raw: ParsedCall;
  response: AccumulatedCall | null;
}

export function matchCalls(raw: readonly ParsedCall[], response: readonly AccumulatedCall[]): CallPair[] {
  const used = new Set<AccumulatedCall>();
  const pairs: CallPair[] = raw.map((r) => {
    const byId = response.find((c) => !used.has(c) && c.id !== null && c.id === r.id);
    if (byId) used.add(byId);
    return { raw: r, response: byId ?? null };
  });
  // Unmatched calls pair up in order (ids rewritten by the server, e.g. chatcmpl-tool-…).
  const rest = response.filter((c) => !used.has(c));
  for (const pair of pairs) {
    if (pair.response || rest.length === 0) continue;
    pair.response = rest.shift() ?? null;
  }
  return pairs;
}
