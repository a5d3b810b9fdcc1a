import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, call, completionResponse, ofKind, record, section } from './analyze.helpers.ts';

test('bad-call-id: ids without functions. prefix or index', () => {
  const text = section(
    call('search:2', '{"query":"a"}'),
    call('functions.search', '{"query":"b"}'),
    call('functions.search:3', '{"query":"c"}'),
  );
  const d = ofKind(analyze(record({ completion: { text } })), 'bad-call-id');
  assert.deepEqual(
    d.map((x) => x.callIndex),
    [0, 1],
  );
  assert.match(d[0]?.message ?? '', /"search:2"/);
});

test('bad-call-id: response id naming another tool than the call', () => {
  const r = analyze(
    record({
      response: completionResponse(null, [{ id: 'functions.web.search:0', name: 'search', arguments: '{"query":"x"}' }], 'tool_calls'),
    }),
  );
  const d = ofKind(r, 'bad-call-id');
  assert.equal(d.length, 1);
  assert.match(d[0]?.message ?? '', /names "web.search" but the call is to "search"/);
});
