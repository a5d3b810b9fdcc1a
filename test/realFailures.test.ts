/**
 * The corpus of public failure reports (test/fixtures/real/): each case's trace through the real pipeline, its
 * findings held to what the thread's own diagnosis says must and must not be reported. Prints the agreement
 * (M of N). A case that agrees must keep agreeing; a case listed in known-misses.json must still miss (remove it
 * from the list once it agrees). Expectations are never rewritten to fit the output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer, type AnalyzedRecord } from '../src/core/analysis.ts';
import { DIAGNOSTIC_KINDS } from '../src/core/diagnostics/registry.ts';
import { importText } from '../src/core/trace/importText.ts';
import { loadKnownMisses, loadRealCases, traceText, type RealCase } from './fixtures/real/realCase.ts';

const cases = loadRealCases();
const knownMisses = loadKnownMisses();

interface Verdict {
  agrees: boolean;
  missing: string[];
  unwanted: string[];
  found: string[];
}

function judge(c: RealCase, analysed: AnalyzedRecord[]): Verdict {
  const findings = analysed.flatMap((r) => r.diagnostics);
  const has = (want: string): boolean => {
    const [kind, detail] = want.split('@');
    return findings.some((d) => d.kind === kind && (detail === undefined || d.detail === detail));
  };
  const missing = c.expect.must.filter((m) => !m.split('|').some(has));
  const unwanted = c.expect.mustNot.filter((k) => findings.some((d) => d.kind === k));
  const found = [...new Set(findings.map((d) => (d.detail ? `${d.kind}@${d.detail}` : d.kind)))];
  return { agrees: missing.length === 0 && unwanted.length === 0, missing, unwanted, found };
}

function run(c: RealCase): { verdict: Verdict; errors: string[] } {
  const loaded = importText(traceText(c), c.id);
  const analyzer = new Analyzer({ startInReasoning: c.options?.startInReasoning, format: c.options?.format });
  const analysed = loaded.records.map((r) => analyzer.analyze(r));
  return { verdict: judge(c, analysed), errors: loaded.errors.map((e) => `line ${e.line}: ${e.message}`) };
}

test('every real case is complete: source, engine, format, diagnosis, cut, a trace that loads, known kinds', () => {
  assert.ok(cases.length > 0, 'no cases under test/fixtures/real/cases');
  for (const c of cases) {
    assert.match(c.source, /^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull|discussions)\/\d+/u, `${c.id}: source`);
    for (const field of ['engine', 'format', 'diagnosis', 'cut'] as const)
      assert.ok(typeof c[field] === 'string' && c[field].trim() !== '', `${c.id}: ${field}`);
    assert.ok(Array.isArray(c.trace) && c.trace.length > 0, `${c.id}: trace`);
    assert.ok(c.expect.must.length + c.expect.mustNot.length > 0, `${c.id}: an expectation`);
    for (const want of [...c.expect.must.flatMap((m) => m.split('|')), ...c.expect.mustNot]) {
      const kind = want.split('@')[0] as string;
      assert.ok(kind in DIAGNOSTIC_KINDS, `${c.id}: unknown kind ${kind}`);
    }
    const { errors } = run(c);
    assert.deepEqual(errors, [], `${c.id}: the trace does not load`);
  }
  for (const id of Object.keys(knownMisses))
    assert.ok(
      cases.some((c) => c.id === id),
      `known-misses.json names no case ${id}`,
    );
});

test("real failure reports: agreement with the threads' own diagnoses", () => {
  const rows = cases.map((c) => ({ c, ...run(c) }));
  const agreed = rows.filter((r) => r.verdict.agrees).length;
  const lines = rows.map(({ c, verdict }) => {
    const mark = verdict.agrees ? 'agrees' : knownMisses[c.id] ? 'known miss' : 'MISS';
    const why = verdict.agrees
      ? ''
      : ` — missing ${JSON.stringify(verdict.missing)}, unwanted ${JSON.stringify(verdict.unwanted)}, found ${JSON.stringify(verdict.found)}`;
    return `  ${mark.padEnd(10)} ${c.id}${why}`;
  });
  console.log(`Toolscope agrees with ${agreed} of ${cases.length} public failure reports\n${lines.join('\n')}`);
  const regressions = rows.filter((r) => !r.verdict.agrees && !knownMisses[r.c.id]).map((r) => r.c.id);
  assert.deepEqual(regressions, [], 'cases that disagree and are not known misses');
  const fixed = rows.filter((r) => r.verdict.agrees && knownMisses[r.c.id]).map((r) => r.c.id);
  assert.deepEqual(fixed, [], 'known misses that now agree: remove them from known-misses.json');
});
