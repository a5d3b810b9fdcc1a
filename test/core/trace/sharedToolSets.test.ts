import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLineText } from '../../../src/core/trace/importers/importLineText.ts';
import { shareRepeatedToolSets } from '../../../src/core/trace/importers/sharedToolSets.ts';

const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } } } }];
const toolsText = JSON.stringify(tools);
const native = (id: string, rest = `"request":{"messages":[{"role":"user","content":"hi"}],"tools":${toolsText}}`) =>
  `{"toolscope":1,"id":"${id}",${rest},"completion":{"text":"ok"}}`;

/** Every line read with sharing on gives what it gives with sharing off; returns the tools of each record read with it on. */
function readBoth(lines: string[]): unknown[] {
  shareRepeatedToolSets(false);
  const whole = lines.map((l, i) => readLineText(l, i + 1, false));
  shareRepeatedToolSets(true);
  try {
    const sharing = lines.map((l, i) => readLineText(l, i + 1, false));
    for (const [i, r] of sharing.entries()) assert.deepEqual(r, whole[i], `line ${i + 1}: ${lines[i]}`);
    return sharing.map((r) => r.records[0]?.record.request?.tools);
  } finally {
    shareRepeatedToolSets(false);
  }
}

test('shared tool sets: repeated tools are one parsed value, each record otherwise as parsed whole', () => {
  const got = readBoth([native('a'), native('b'), native('c')]);
  assert.notEqual(got[0], got[1], 'the first line is parsed whole');
  assert.equal(got[1], got[2], 'the lines after it share the tool set parsed once');
  shareRepeatedToolSets(false);
  const off = [native('a'), native('b')].map((l, i) => readLineText(l, i + 1, false).records[0]?.record.request?.tools);
  assert.notEqual(off[0], off[1], 'a reader that did not opt in parses each line whole');
});

test('shared tool sets: the kept text elsewhere in a line, a NUL escape, duplicate keys, other shapes and broken lines read as parsed whole', () => {
  const other = JSON.stringify([{ type: 'function', function: { name: 'g' } }]);
  const lines = [
    native('learn'),
    native('learn-again'),
    // The kept text under another key, the request's tools another set.
    native('elsewhere', `"meta":{"tools":${toolsText}},"request":{"messages":[],"tools":${other}}`),
    // A line holding the marker itself (its NUL written as JSON writes it).
    native('nul', `"request":{"messages":[{"role":"user","content":"\\u0000toolscope:kept-tools"}],"tools":${toolsText}}`),
    // Duplicate keys: JSON.parse keeps the last.
    native('dup-first', `"request":{"messages":[],"tools":${toolsText},"tools":${other}}`),
    native('dup-last', `"request":{"messages":[],"tools":${other},"tools":${toolsText}}`),
    // Not a native record: an OpenAI-style request log.
    `{"request":{"model":"m","messages":[{"role":"user","content":"x"}],"tools":${toolsText}},"response":{"choices":[{"message":{"role":"assistant","content":"y"}}]}}`,
    // Broken after the tools.
    native('broken').slice(0, -3),
    // Inside a string: escaped, never the kept text.
    native('quoted', `"request":{"messages":[{"role":"user","content":${JSON.stringify(`"tools":${toolsText}`)}}],"tools":${toolsText}}`),
  ];
  const got = readBoth(lines);
  assert.equal(got[5], got[1], 'the last of duplicate keys, the kept text: shared');
  assert.equal(got[8], got[1], 'the kept text quoted in a message does not stop the real one being shared');
  assert.deepEqual(got[2], JSON.parse(other));
  assert.notEqual(got[3], got[1], 'a line holding the marker’s NUL is parsed whole');
  assert.deepEqual(got[3], tools);
});
