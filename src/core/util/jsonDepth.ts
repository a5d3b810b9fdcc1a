/**
 * How deep a parsed JSON value nests, measured without recursion. `JSON.parse` takes any depth, but
 * `JSON.stringify` and every recursive walk overflow the stack a few thousand levels down: values deeper than a
 * limit are kept as text instead of being walked.
 */

/** Deepest nesting Toolscope walks; real requests stay far below (a chat request is about 8 levels). */
export const MAX_JSON_DEPTH = 256;

/** True when `value` nests objects or arrays more than `max` levels deep. */
export function deeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop() as { value: unknown; depth: number };
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
