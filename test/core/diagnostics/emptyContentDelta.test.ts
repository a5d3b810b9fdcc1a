import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, ofKind, record, stream } from './analyze.helpers.ts';

test('empty-content-delta: chunks with content "" are reported once with a count', () => {
  const chunks = stream([{ role: 'assistant', content: '' }, { content: 'Hi' }, { content: '' }, { content: '' }], 'stop');
  const d = ofKind(analyze(record({ response: chunks })), 'empty-content-delta');
  assert.equal(d.length, 1);
  assert.match(d[0]?.message ?? '', /^2 stream chunks carried content ""/);
  assert.equal(d[0]?.code, 'TS002');
});

test('empty-content-delta: the role chunk and null content are fine', () => {
  const chunks = stream([{ role: 'assistant', content: '' }, { content: 'Hi' }, { content: null }], 'stop');
  assert.deepEqual(ofKind(analyze(record({ response: chunks })), 'empty-content-delta'), []);
});
