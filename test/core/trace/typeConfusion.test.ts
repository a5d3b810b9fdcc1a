/**
 * Type confusion, generated: every record of samples/*.jsonl with one value at a time (a leaf, an array element,
 * an object) replaced by null, a number, a string, an array or an object. Whatever the record then holds, importing
 * it, analysing it (with and without the guided what-if) and building its record view never throw, and every line
 * yields a record or an error naming that line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { recordSummary, recordView } from '../../../src/host/view/recordView.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';

const SAMPLES = join(import.meta.dirname, '..', '..', '..', 'samples');
const REPLACEMENTS: unknown[] = [null, -1.5, 'x', [null, 5], { text: null, id: 'x' }];
/** Paths mutated per record: all those under the keys the issue names first, then evenly spaced others. */
const PATHS_PER_RECORD = 10;
const PRIORITY = /(^|\.)(tokens|tools|response|choices|tool_calls|message|delta|function|messages|completion|logprobs)(\.|$)/u;

type Path = Array<string | number>;

function pathsOf(root: unknown): Path[] {
  const out: Path[] = [];
  const stack: Array<{ value: unknown; path: Path }> = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop() as { value: unknown; path: Path };
    if (path.length) out.push(path);
    if (Array.isArray(value)) value.slice(0, 3).forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) stack.push({ value: v, path: [...path, k] });
  }
  return out;
}

function pick(paths: Path[]): Path[] {
  const priority = paths.filter((p) => PRIORITY.test(p.join('.')));
  const others = paths.filter((p) => !PRIORITY.test(p.join('.')));
  const chosen = spread(priority, Math.ceil((PATHS_PER_RECORD * 2) / 3));
  return [...chosen, ...spread(others, PATHS_PER_RECORD - chosen.length)];
}

function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)] as T);
}

function replaced(root: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const seg of path.slice(0, -1)) at = at[seg] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = structuredClone(value);
  return copy;
}

/** Every variant of every sample line: the whole file text with that one line changed. */
/**
 * Lines of the unchanged sample that give neither a record nor an error: exported rows that are no model call (a
 * Langfuse SPAN, a LangSmith chain run, a verifier's manifest), skipped by design. Changed, they may stay skipped.
 */
function skippedLines(file: string, text: string): Set<number> {
  const loaded = importText(text, file);
  const lines = text.split('\n');
  const skipped = new Set<number>();
  for (let line = 1; line <= lines.length; line++) {
    if (!lines[line - 1]?.trim()) continue;
    const covered = loaded.records.some((r) => r.line <= line && line <= r.lastLine) || loaded.errors.some((e) => e.line === line);
    if (!covered) skipped.add(line);
  }
  return skipped;
}

function* variants(): Generator<{ name: string; text: string; line: number; skipped: boolean }> {
  for (const file of readdirSync(SAMPLES)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const whole = readFileSync(join(SAMPLES, file), 'utf8');
    const lines = whole.split('\n');
    const skipped = skippedLines(file, whole);
    for (const [i, raw] of lines.entries()) {
      const sse = raw.startsWith('data: {');
      let value: unknown;
      try {
        value = JSON.parse(sse ? raw.slice(6) : raw);
      } catch {
        continue;
      }
      for (const path of pick(pathsOf(value))) {
        for (const r of REPLACEMENTS) {
          const line = JSON.stringify(replaced(value, path, r));
          const text = [...lines.slice(0, i), sse ? `data: ${line}` : line, ...lines.slice(i + 1)].join('\n');
          yield { name: `${file}:${i + 1} ${path.join('.')} = ${JSON.stringify(r)}`, text, line: i + 1, skipped: skipped.has(i + 1) };
        }
      }
    }
  }
}

test('type-confused sample records: import, analyse (sync and guided) and view never throw; every line is accounted for', async () => {
  const analyzer = new Analyzer({}, nodeServices());
  const failures: string[] = [];
  /** Failures by their first line and stack frame: one line per class of input, with its count. */
  const classes = new Map<string, { count: number; example: string }>();
  let count = 0;
  let guidedRuns = 0;
  for (const v of variants()) {
    count++;
    try {
      const loaded = importText(v.text, v.name);
      // The changed line gives a record covering it or an error naming it.
      const covered =
        loaded.records.some((r) => r.line <= v.line && v.line <= r.lastLine) ||
        loaded.errors.some((e) => e.line === v.line && e.message.startsWith(`line ${e.line}`));
      if (!covered && !v.skipped) failures.push(`${v.name}: line ${v.line} gave neither a record nor an error`);
      for (const [k, r] of loaded.records.entries()) {
        if (r.line > v.line || r.lastLine < v.line) continue;
        // The guided what-if compiles a grammar per tool set: every seventh variant, to stay fast. Schemas xgrammar
        // cannot compile are the guided-isolation fuzz corpus's (test/core/guided), not this test's.
        const guided = count % 7 === 0 && !v.name.includes('.parameters');
        if (guided) guidedRuns++;
        const analysed = guided ? await analyzer.analyzeWithGuided(r) : analyzer.analyze(r);
        recordView(`0:${k}`, analysed, r.record);
        recordSummary(`0:${k}`, 0, analysed, r.record);
      }
    } catch (err) {
      const where = err instanceof Error ? (err.stack ?? err.message).split('\n').slice(0, 2).join(' ') : String(err);
      const c = classes.get(where) ?? { count: 0, example: v.name };
      c.count++;
      classes.set(where, c);
      failures.push(v.name);
    }
  }
  assert.ok(count > 2000, `only ${count} variants`);
  assert.ok(guidedRuns > 50, `only ${guidedRuns} guided runs`);
  const report = [...classes.entries()].map(([where, c]) => `${c.count}× ${where} (e.g. ${c.example})`);
  assert.equal(
    failures.length,
    0,
    `${failures.length} of ${count} variants failed:\n${[...failures.filter((f) => f.includes(' gave neither')).slice(0, 5), ...report].join('\n')}`,
  );
});
