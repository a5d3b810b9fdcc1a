/**
 * An engine profile's calls lined up with the reference parse's (same id, else same name in order, else in order):
 * what vllm-divergence compares and what the editor's side by side shows line by line.
 */
import type { VllmCall } from './engineRun.ts';
import type { ParsedCall } from './toolCallFormat.ts';

/** Pairs reference calls with the profile's: same id, else same name in order, else in order. */
export function pairCalls(
  ref: readonly ParsedCall[],
  got: readonly VllmCall[],
): { pairs: Array<{ ref: ParsedCall; got: VllmCall | null }>; extra: VllmCall[] } {
  const used = new Set<VllmCall>();
  const pairs = ref.map((r) => {
    const byId = got.find((c) => !used.has(c) && c.id !== '' && c.id === r.id);
    if (byId) used.add(byId);
    return { ref: r, got: byId ?? null };
  });
  for (const match of [(r: ParsedCall, c: VllmCall) => c.name === r.name, () => true]) {
    for (const p of pairs) {
      if (p.got) continue;
      const c = got.find((c) => !used.has(c) && match(p.ref, c));
      if (c) {
        used.add(c);
        p.got = c;
      }
    }
  }
  return { pairs, extra: got.filter((c) => !used.has(c)) };
}
