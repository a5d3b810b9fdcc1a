/** Real K2-Vendor-Verifier data (read from ../shared, never copied) loads cleanly and gives sensible findings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Analyzer, type AnalyzedRecord } from '../../src/core/analysis.ts';
import { readTraceItems } from '../../src/io/trace/traceIndex.ts';

const dir = fileURLToPath(new URL('../../../shared/data/k2vv/', import.meta.url));

async function analyseFile(path: string): Promise<{ records: AnalyzedRecord[]; errors: number }> {
  const analyzer = new Analyzer();
  const records: AnalyzedRecord[] = [];
  let errors = 0;
  for await (const item of readTraceItems(path)) {
    if (item.kind === 'error') errors++;
    else records.push(analyzer.analyze(item.loaded));
  }
  return { records, errors };
}

test("K2VV results (Groq run): 99 records, no unreadable lines, findings agree with K2VV's summary", async (t) => {
  if (!existsSync(dir)) {
    t.skip('../shared not present: K2VV results not analysed');
    return;
  }
  const { records, errors } = await analyseFile(dir + 'results-99.groq-2025-09.jsonl');
  assert.equal(errors, 0);
  assert.equal(records.length, 99);
  // K2VV counted 30 tool-call responses and 0 schema errors on this run: so must we.
  const withCalls = records.filter((r) => r.response?.finishReason === 'tool_calls' && r.calls.length > 0);
  assert.equal(withCalls.length, 30);
  const schemaErrors = records
    .flatMap((r) => r.diagnostics)
    .filter((d) => ['schema-violation', 'unknown-tool', 'invalid-arguments-json'].includes(d.kind) && d.severity === 'error');
  assert.deepEqual(schemaErrors, []);
  const failed = records.filter((r) => r.error !== null);
  assert.deepEqual(
    failed.map((r) => r.id),
    ['33'],
  );
  assert.match(failed[0]?.error ?? '', /429/);
});

test('K2VV samples: 99 chat requests load; the only findings are the old malformed history ids', async (t) => {
  if (!existsSync(dir)) {
    t.skip('../shared not present: K2VV samples not analysed');
    return;
  }
  const { records, errors } = await analyseFile(dir + 'samples-99.jsonl');
  assert.equal(errors, 0);
  assert.equal(records.length, 99);
  assert.ok(records.every((r) => r.calls.length === 0));
  const kinds = new Set(records.flatMap((r) => r.diagnostics.map((d) => d.kind)));
  assert.deepEqual([...kinds], ['template-bad-history-id']);
  // K2VV's README: old lines carry ids like `search:0`; the first samples are the newer format.
  const flagged = records.filter((r) => r.diagnostics.length > 0);
  assert.ok(flagged.length > 10 && flagged.length < 99, `${flagged.length} requests flagged`);
  assert.ok(flagged.every((r) => /search:\d|:\d/.test(r.diagnostics[0]?.message ?? '')));
  assert.ok(records.every((r) => (r as AnalyzedRecord).source === 'chat-request'));
});
