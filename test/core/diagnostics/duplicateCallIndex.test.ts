import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, call, ofKind, record, section } from './analyze.helpers.ts';

test('duplicate-call-index: a repeated index and one going backwards', () => {
  const text = section(
    call('functions.search:1', '{"query":"a"}'),
    call('functions.search:1', '{"query":"b"}'),
    call('functions.search:0', '{"query":"c"}'),
  );
  const d = ofKind(analyze(record({ completion: { text } })), 'duplicate-call-index');
  assert.deepEqual(
    d.map((x) => x.callIndex),
    [1, 2],
  );
  assert.match(d[0]?.message ?? '', /reuses index 1/);
  assert.match(d[1]?.message ?? '', /out of order/);
});

test('duplicate-call-index: increasing indices from any start are fine', () => {
  const text = section(call('functions.search:4', '{"query":"a"}'), call('functions.search:5', '{"query":"b"}'));
  assert.deepEqual(ofKind(analyze(record({ completion: { text } })), 'duplicate-call-index'), []);
});
