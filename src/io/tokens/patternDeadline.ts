/**
 * The clock for a tokenizer file's patterns (core/tokens/regexBacktracking.ts): a run goes through `vm` with a
 * timeout, whose watchdog stops V8 mid-match — the only way to stop a backtracking RegExp, which checks no budget
 * of its own, without moving the tokenizer to another thread. A stopped run throws `PatternBudgetExceeded`.
 */
import { Script, createContext, type Context } from 'node:vm';
import { PatternBudgetExceeded, type PatternBudget } from '../../core/tokens/regexBacktracking.ts';

/** The budget of a run: a base for any text and more per character (a long completion takes its time honestly). */
export interface PatternDeadline {
  baseMs: number;
  perKiloCharMs: number;
}

/**
 * Generous: on a machine at load average 16 the Qwen2 pattern and its merges take about 9 ms per 1,000 characters;
 * a pattern that backtracks without end takes minutes on 60.
 */
export const DEFAULT_PATTERN_DEADLINE: PatternDeadline = { baseMs: 10_000, perKiloCharMs: 20 };

/** Made on the first run: a V8 context costs a few milliseconds, which every start paid for no tokenizer file. */
let context: Context | undefined;
/** Calls the run handed in through the context (the timeout covers everything it calls). */
const call = new Script('run()');

export function patternDeadline(deadline: PatternDeadline = DEFAULT_PATTERN_DEADLINE): PatternBudget {
  return <T>(length: number, run: () => T): T => {
    const limitMs = Math.ceil(deadline.baseMs + (length / 1000) * deadline.perKiloCharMs);
    const ctx = (context ??= createContext({}));
    const slot = ctx as { run?: () => unknown };
    const outer = slot.run;
    slot.run = run;
    try {
      return call.runInContext(ctx, { timeout: limitMs }) as T;
    } catch (err) {
      if ((err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new PatternBudgetExceeded(limitMs);
      throw err;
    } finally {
      slot.run = outer;
    }
  };
}
