/**
 * A tokenizer.json's regular expressions (Split pre-tokenizers, Replace normalizers) run on V8's backtracking
 * engine, which has no step budget, and the patterns use lookahead (`\s+(?!\S)`), which linear engines (RE2)
 * refuse. A repetition of something that itself repeats — `(a+)+$`, `(\w*)*` — backtracks exponentially on a
 * text that almost matches: one record ran until killed. Such a pattern is refused when the file is loaded (the
 * records then get approximate tokens with the reason). This is a screen of the pattern's shape, not a step
 * budget: the pre-tokenizer patterns of the models Toolscope knows (GPT-2, Llama 3, Qwen2, DeepSeek-V3, o200k)
 * repeat only single characters or classes, and a pattern whose blow-up is polynomial (`\s*\s*$`) still runs.
 * The screen misses blow-ups of other shapes (`(a|aa)+$`: an alternation whose branches overlap), so the runs
 * themselves go under a `PatternBudget` as well, which the composition root hands in (the clock is Node's).
 */

/**
 * Runs `run` (a tokenizer's encoding of a text of `length` characters) and throws if it takes longer than the
 * budget allows: a pattern that backtracks without end is stopped instead of holding the thread for ever.
 */
export type PatternBudget = <T>(length: number, run: () => T) => T;

/** What a `PatternBudget` throws when a run goes past it. */
export class PatternBudgetExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`stopped after ${(limitMs / 1000).toFixed(1)} s`);
    this.name = 'PatternBudgetExceeded';
  }
}

/** The first nested repetition in `source` (its text), or null. */
export function nestedRepetition(source: string): string | null {
  // One frame per open group: where it starts and whether something inside it repeats without bound.
  const groups: Array<{ start: number; repeats: boolean }> = [];
  /** The last atom closed: a group (with its `repeats`) or a single character / class. */
  let last: { start: number; repeats: boolean } | null = null;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      last = { start: i, repeats: false };
      i++;
    } else if (c === '[') {
      const start = i;
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      last = { start, repeats: false };
    } else if (c === '(') {
      groups.push({ start: i, repeats: false });
      last = null;
    } else if (c === ')') {
      const group = groups.pop();
      last = group ? { start: group.start, repeats: group.repeats } : null;
      const outer = groups[groups.length - 1];
      if (outer && group?.repeats) outer.repeats = true;
    } else if (c === '*' || c === '+' || (c === '{' && /^\{\d+,\}/u.test(source.slice(i, i + 12)))) {
      if (last?.repeats) return source.slice(last.start, source.indexOf(c === '{' ? '}' : c, i) + 1);
      const outer = groups[groups.length - 1];
      if (outer) outer.repeats = true;
      last = null;
    } else if (c === '|') {
      last = null;
    } else {
      last = { start: i, repeats: false };
    }
  }
  return null;
}

/** Every `Regex` pattern in a tokenizer.json's normalizer, pre-tokenizer and decoder, walked without recursion. */
export function tokenizerPatterns(json: unknown): string[] {
  const found: string[] = [];
  const o = json as Record<string, unknown>;
  const stack: unknown[] = [o.normalizer, o.pre_tokenizer, o.decoder];
  let budget = 100_000;
  while (stack.length && budget-- > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    const regex = (v as { Regex?: unknown }).Regex;
    if (typeof regex === 'string') found.push(regex);
    stack.push(...(Array.isArray(v) ? v : Object.values(v)));
  }
  return found;
}
