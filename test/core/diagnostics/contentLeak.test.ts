import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, call, completionResponse, ofKind, record, section } from './analyze.helpers.ts';

test('content-leak: marker text in the response content', () => {
  const r = analyze(record({ response: completionResponse('I will check. <|tool_call_begin|> functions.get_weather:0', [], 'stop') }));
  const d = ofKind(r, 'content-leak');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.code, 'TS001');
  assert.equal(d[0]?.severity, 'error');
  assert.equal(d[0]?.where, 'response');
  assert.equal(d[0]?.charStart, 'I will check. '.length);
});

test('content-leak: the arguments of a raw call appear in content', () => {
  const args = '{"city": "Paris"}';
  const text = `Checking. ${section(call('functions.get_weather:0', args))}`;
  const r = analyze(
    record({ completion: { text }, response: completionResponse(`Checking. functions.get_weather:0 ${args}`, [], 'stop') }),
  );
  assert.equal(ofKind(r, 'content-leak').length, 1);
  assert.equal(ofKind(r, 'content-leak')[0]?.callIndex, 0);
});

test('content-leak: clean content is not flagged', () => {
  const r = analyze(record({ response: completionResponse('The weather in Paris is sunny (use <b> tags?)', [], 'stop') }));
  assert.deepEqual(ofKind(r, 'content-leak'), []);
});
