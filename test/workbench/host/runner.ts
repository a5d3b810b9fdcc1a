/**
 * A small test runner for inside the extension host (no test framework is loaded there). Tests run in order;
 * the results go to a JSON file the harness reads, because the host exits 0 even when a test fails.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

/** What the harness passes through TOOLSCOPE_HOST_TEST_CONFIG (a JSON file). */
export interface HostTestConfig {
  mode: 'trusted' | 'untrusted';
  /** Where run() writes its HostResults. */
  results: string;
  /** Prompts the harness answers in the workbench's quick input, one JSON object per line (see `expectPrompts`). */
  prompts: string;
  workspace: string;
  userDataDir: string;
}

export interface HostTestResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

export interface HostResults {
  mode: string;
  passed: number;
  failed: number;
  tests: HostTestResult[];
  /** Figures measured inside the host (activation time…). */
  figures: Record<string, number | string | boolean>;
}

export function config(): HostTestConfig {
  const path = process.env.TOOLSCOPE_HOST_TEST_CONFIG;
  if (!path) throw new Error('TOOLSCOPE_HOST_TEST_CONFIG is not set');
  return JSON.parse(readFileSync(path, 'utf8')) as HostTestConfig;
}

type TestFn = () => Promise<void> | void;
const tests: Array<{ name: string; fn: TestFn; timeoutMs: number }> = [];
export const figures: HostResults['figures'] = {};

export function test(name: string, fn: TestFn, timeoutMs = 60_000): void {
  tests.push({ name, fn, timeoutMs });
}

/** A prompt the harness should answer: pick the quick-pick row with this label, or type this into the input box. */
export interface Prompt {
  title: string;
  kind: 'pick' | 'input';
  answer: string;
}

let promptSeq = 0;
let announced: Array<Prompt & { id: number }> = [];

/**
 * Tells the harness which prompts to answer next (it answers each once its title shows). Whatever an earlier call
 * announced and was never asked is dropped.
 */
export function expectPrompts(...prompts: Prompt[]): void {
  const file = config().prompts;
  announced = prompts.map((p) => ({ id: ++promptSeq, ...p }));
  appendFileSync(file, `${JSON.stringify({ clear: true })}\n${announced.map((p) => `${JSON.stringify(p)}\n`).join('')}`);
}

/** Fails unless the harness answered every prompt of the last `expectPrompts` (the command asked what it should). */
export async function promptsAnswered(timeoutMs = 5000): Promise<void> {
  const file = `${config().prompts}.answered`;
  const unanswered = () => {
    const done = new Set(existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : []);
    return announced.filter((p) => !done.has(p.id));
  };
  try {
    await waitFor('the prompts to be answered', () => unanswered().length === 0, timeoutMs);
  } catch {
    throw new Error(
      `the command did not ask: ${unanswered()
        .map((p) => `"${p.title}"`)
        .join(', ')}`,
    );
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function runAll(mode: string): Promise<void> {
  const cfg = config();
  const results: HostResults = { mode, passed: 0, failed: 0, tests: [], figures };
  for (const t of tests) {
    const t0 = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(t.fn),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${t.timeoutMs} ms`)), t.timeoutMs))),
      ]);
      results.tests.push({ name: t.name, ok: true, ms: Math.round(performance.now() - t0) });
      results.passed++;
    } catch (err) {
      results.tests.push({
        name: t.name,
        ok: false,
        ms: Math.round(performance.now() - t0),
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      results.failed++;
    } finally {
      clearTimeout(timer);
    }
  }
  writeFileSync(cfg.results, JSON.stringify(results, null, 2));
}
