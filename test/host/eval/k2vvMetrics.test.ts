import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadK2vvResults } from '../../../src/host/eval/loadResults.ts';
import { summarize, triggerScores, type K2vvResult } from '../../../src/host/eval/k2vvMetrics.ts';

const shared = fileURLToPath(new URL('../../../../shared/data/k2vv/', import.meta.url));
const samples = fileURLToPath(new URL('../../../samples/k2vv-results.jsonl', import.meta.url));

test("the shipped Groq run: every field of K2VV's own summary comes out equal", async (t) => {
  if (!existsSync(shared)) {
    t.skip('../shared not present: K2VV summary not reproduced');
    return;
  }
  const { results, errors } = await loadK2vvResults(shared + 'results-99.groq-2025-09.jsonl');
  assert.deepEqual(errors, []);
  const ours = summarize(results) as unknown as Record<string, unknown>;
  const theirs = JSON.parse(readFileSync(shared + 'summary-99.groq-2025-09.json', 'utf8')) as Record<string, unknown>;
  for (const [k, v] of Object.entries(theirs)) assert.deepEqual(ours[k], v, k);
  assert.equal(ours.schema_accuracy, 1);
});

test('the samples: a schema break counts as a schema error, the 429 as a failure', async () => {
  const { results } = await loadK2vvResults(samples);
  const s = summarize(results);
  assert.deepEqual(
    {
      success: s.success_count,
      failure: s.failure_count,
      stop: s.finish_stop,
      tool_calls: s.finish_tool_calls,
      others: s.finish_others_detail,
      errors: s.schema_validation_error_count,
      ok: s.successful_tool_call_count,
    },
    { success: 4, failure: 1, stop: 1, tool_calls: 2, others: { length: 1 }, errors: 1, ok: 1 },
  );
  assert.equal(s.schema_accuracy, 0.5);
});

test('trigger scores: join on data_index, zero when a denominator is zero', () => {
  const r = (dataIndex: number, finishReason: string): K2vvResult => ({
    dataIndex,
    finishReason,
    status: 'success',
    run: 1,
    record: { toolscope: 1, id: String(dataIndex) },
  });
  const vendor = [r(1, 'tool_calls'), r(2, 'tool_calls'), r(3, 'stop'), r(4, 'stop'), r(9, 'tool_calls')];
  const official = [r(1, 'tool_calls'), r(2, 'stop'), r(3, 'tool_calls'), r(4, 'stop')];
  const s = triggerScores(vendor, official);
  assert.deepEqual({ tp: s.tp, fp: s.fp, fn: s.fn, compared: s.compared }, { tp: 1, fp: 1, fn: 1, compared: 4 });
  assert.equal(s.precision, 0.5);
  assert.equal(s.recall, 0.5);
  assert.equal(s.f1, 0.5);
  assert.deepEqual(triggerScores([r(1, 'stop')], [r(1, 'stop')]), { precision: 0, recall: 0, f1: 0, tp: 0, fp: 0, fn: 0, compared: 1 });
});
