import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, call, completionResponse, ofKind, record, section } from './analyze.helpers.ts';

test('invalid-arguments-json: broken JSON, empty arguments and non-objects', () => {
  const text = section(
    call('functions.search:0', '{"query": "kimi'),
    call('functions.search:1', ''),
    call('functions.search:2', '["a"]'),
    call('functions.search:3', '{"query": "ok"}'),
  );
  const d = ofKind(analyze(record({ completion: { text } })), 'invalid-arguments-json');
  assert.deepEqual(
    d.map((x) => x.callIndex),
    [0, 1, 2],
  );
  assert.match(d[0]?.message ?? '', /not valid JSON/);
  assert.match(d[1]?.message ?? '', /empty/);
  assert.match(d[2]?.message ?? '', /not an object \(an array\)/);
});

test('invalid-arguments-json: checks response calls when there is no completion', () => {
  const r = analyze(
    record({ response: completionResponse(null, [{ id: 'functions.search:0', name: 'search', arguments: '{"query":' }], 'tool_calls') }),
  );
  const d = ofKind(r, 'invalid-arguments-json');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.where, 'response');
});
