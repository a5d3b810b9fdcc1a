/**
 * Real K2-Vendor-Verifier data beside the repository (`../shared`, never shipped): both files load whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';

const K2VV = resolve(import.meta.dirname, '../../../../shared/data/k2vv');
const EXPECTED_IDS = Array.from({ length: 99 }, (_, i) => String(i + 1));

test('K2VV samples-99.jsonl: 99 chat requests, ids 1..99', async (t) => {
  const path = resolve(K2VV, 'samples-99.jsonl');
  if (!existsSync(path)) return t.skip(`../shared not present: ${path}`);
  const { records, errors } = await loadAll(path);
  assert.deepEqual(errors, []);
  assert.equal(records.length, 99);
  assert.deepEqual(
    records.map((r) => r.record.id),
    EXPECTED_IDS,
  );
  for (const r of records) {
    assert.equal(r.source, 'chat-request');
    assert.ok(Array.isArray(r.record.request?.messages));
  }
});

test('K2VV results-99 (Groq): 99 results, ids 1..99, data_index 33 failed with an error', async (t) => {
  const path = resolve(K2VV, 'results-99.groq-2025-09.jsonl');
  if (!existsSync(path)) return t.skip(`../shared not present: ${path}`);
  const { records, errors } = await loadAll(path);
  assert.deepEqual(errors, []);
  assert.equal(records.length, 99);
  assert.deepEqual(
    records.map((r) => r.record.id),
    EXPECTED_IDS,
  );
  const failed = records.filter((r) => r.record.error !== undefined);
  assert.deepEqual(
    failed.map((r) => r.record.id),
    ['33'],
  );
  const r33 = records.find((r) => r.record.id === '33');
  assert.equal(r33?.record.meta?.status, 'failed');
  assert.equal(r33?.record.response, undefined);
  assert.match(r33?.record.error ?? '', /429/);
  for (const r of records) {
    assert.equal(r.source, 'k2vv-result');
    assert.equal(r.record.meta?.source, 'k2vv');
    if (r.record.id !== '33') assert.ok(r.record.response !== undefined && !Array.isArray(r.record.response));
  }
});
