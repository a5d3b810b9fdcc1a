/**
 * A copy of a parsed JSON value cut at a depth, made without recursion. JSON.parse reads any nesting, but
 * JSON.stringify, structured clone and every recursive walk overflow the stack a few thousand levels down: a record
 * holding a hostile 3,000-deep tool schema must still be shown (and written into a report), so what the views hold
 * is cut there, with a note in place of what was cut.
 */

export const VIEW_DEPTH = 256;
export const CUT_NOTE = '… (nested too deep to show: open the record in a text editor)';

/** True when `value` nests deeper than `limit` levels (counted without recursion). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ v: unknown; d: number }> = [{ v: value, d: 0 }];
  while (stack.length) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (v === null || typeof v !== 'object') continue;
    if (d >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push({ v: child, d: d + 1 });
  }
  return false;
}

/** `value` with everything below `limit` levels replaced by CUT_NOTE. */
export function pruned<T>(value: T, limit = VIEW_DEPTH): T {
  const root: { v: unknown } = { v: undefined };
  const stack: Array<{ from: unknown; into: Record<string | number, unknown>; key: string | number; d: number }> = [
    { from: value, into: root, key: 'v', d: 0 },
  ];
  while (stack.length) {
    const { from, into, key, d } = stack.pop() as (typeof stack)[number];
    if (from === null || typeof from !== 'object') {
      into[key] = from;
      continue;
    }
    if (d >= limit) {
      into[key] = CUT_NOTE;
      continue;
    }
    const copy = (Array.isArray(from) ? [] : {}) as Record<string | number, unknown>;
    into[key] = copy;
    for (const [k, child] of Object.entries(from))
      stack.push({ from: child, into: copy, key: Array.isArray(from) ? Number(k) : k, d: d + 1 });
  }
  return root.v as T;
}
