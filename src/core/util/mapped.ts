/**
 * `items.map(f)`, as a loop pushing onto an array literal. For arrays that hot code reads afterwards (a record's calls,
 * its parse's notes): TurboFan's own map makes arrays of another element kind than the interpreter's, and the code
 * reading them, compiled while it had seen only one kind (most records have no calls, no notes), was thrown away at
 * the first record with the other (a wrong-map deopt) and compiled again, two or three times for the big checks. An
 * array literal's allocation site learns its element kind once, early, and the arrays it makes keep it.
 */
export function mapped<T, U>(items: readonly T[], f: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) out.push(f(items[i] as T, i));
  return out;
}
