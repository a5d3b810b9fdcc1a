import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, arrayItems, JsonScanError, nullChoiceFieldEdits, objectMembers } from '../../../src/net/capture/jsonValueSpans.ts';

test('members and items are found with their exact value ranges, strings with brackets and escapes included', () => {
  const text = '{ "a" : 1e-05 , "b\\"": "x}]\\"", "c": [1, {"d": [2]}, "]"], "e": null }';
  const members = objectMembers(text, 0);
  assert.deepEqual(
    members.map((m) => [m.key, text.slice(m.valueStart, m.valueEnd)]),
    [
      ['a', '1e-05'],
      ['b"', '"x}]\\""'],
      ['c', '[1, {"d": [2]}, "]"]'],
      ['e', 'null'],
    ],
  );
  const c = members[2];
  assert.ok(c);
  assert.deepEqual(
    arrayItems(text, c.valueStart).map((i) => text.slice(i.start, i.end)),
    ['1', '{"d": [2]}', '"]"'],
  );
  assert.deepEqual(objectMembers('{}', 0), []);
  assert.throws(() => objectMembers('{"a": ', 0), JsonScanError);
  assert.throws(() => objectMembers('[1]', 0), JsonScanError);
});

test('nulling choice fields leaves every other byte as the server wrote it (Python float format, spacing, unicode)', () => {
  // What vLLM (pydantic) writes: floats Python's way, non-ASCII raw, and the key order of the model.
  const chunk =
    '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"k2","choices":[{"index":0,"delta":{"content":"é"},"logprobs":{"content":[{"token":"é","logprob":-1.1920928955078125e-07,"bytes":[195,169],"top_logprobs":[]}]},"finish_reason":null}]}';
  const out = applyEdits(chunk, nullChoiceFieldEdits(chunk, ['logprobs']));
  assert.equal(
    out,
    '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"k2","choices":[{"index":0,"delta":{"content":"é"},"logprobs":null,"finish_reason":null}]}',
  );
  // Already null, or absent: no edit.
  assert.deepEqual(nullChoiceFieldEdits(out, ['logprobs']), []);
  assert.deepEqual(nullChoiceFieldEdits('{"choices":[{"index":0,"text":"x"}]}', ['logprobs']), []);
  // Every choice, pretty-printed bodies too.
  const two =
    '{\n  "choices": [\n    {"index": 0, "logprobs": {"tokens": ["a"]}},\n    {"index": 1, "logprobs": {"tokens": ["b"]}}\n  ]\n}';
  assert.equal(
    applyEdits(two, nullChoiceFieldEdits(two, ['logprobs'])),
    '{\n  "choices": [\n    {"index": 0, "logprobs": null},\n    {"index": 1, "logprobs": null}\n  ]\n}',
  );
});
