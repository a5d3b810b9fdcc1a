/** The results files' hash chain: intact, an edited line, a removed line, a line added by hand, resume. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chainValue, lastLink, verifyChain, type ChainLink } from '../../../src/host/eval/resultsChain.ts';

function chained(values: Array<Record<string, unknown>>, start: ChainLink | null = null): string[] {
  let last = start;
  return values.map((v) => {
    const linked = chainValue(v, last);
    last = linked.toolscope_chain;
    return JSON.stringify(linked);
  });
}

const values = [1, 2, 3, 4].map((i) => ({ data_index: i, status: 'success', finish_reason: 'tool_calls', note: `é ${i}` }));

test('an intact chain verifies, and continues across a resume', () => {
  const lines = chained(values.slice(0, 2));
  const more = chained(values.slice(2), lastLink(lines.join('\n') + '\n'));
  const report = verifyChain([...lines, ...more].join('\n') + '\n');
  assert.deepEqual(report.problems, []);
  assert.equal(report.verified, 4);
  assert.equal(report.last?.seq, 4);
});

test('an edited line is reported with its line number', () => {
  const lines = chained(values);
  lines[1] = (lines[1] as string).replace('"tool_calls"', '"stop"');
  const report = verifyChain(lines.join('\n'));
  assert.equal(report.problems.length, 1);
  assert.equal(report.problems[0]?.line, 2);
  assert.match(report.problems[0]?.message ?? '', /edited/);
});

test('a removed line breaks the next link; a line without a link is named', () => {
  const lines = chained(values);
  const removed = verifyChain([lines[0], lines[2], lines[3]].join('\n'));
  assert.equal(removed.problems.length, 1);
  assert.equal(removed.problems[0]?.line, 2);
  assert.match(removed.problems[0]?.message ?? '', /1 line\(s\) removed/);
  const added = verifyChain([lines[0], JSON.stringify(values[1]), lines[1]].join('\n'));
  assert.deepEqual(
    added.problems.map((p) => p.line),
    [2],
  );
});

test('a line holding a key twice is refused, naming the key (a first-wins reader reads the other value)', () => {
  const lines = chained(values);
  // JSON.parse's reading (the last "status", in the same place) still matches the hash; a first-wins reader sees "failed".
  lines[2] = (lines[2] as string).replace('"status":"success"', '"status":"failed","status":"success"');
  const report = verifyChain(lines.join('\n'));
  assert.deepEqual(report.problems, [{ line: 3, message: 'holds the key "status" twice (in $): readers disagree on its value' }]);
  // Nested and escaped spellings of the same key are found too; equal keys in different objects are not duplicates.
  lines[2] = chained(values)[2] as string;
  lines[1] = (lines[1] as string).replace('"toolscope_chain":{', '"toolscope_chain":{"s\\u0065q":0,');
  assert.deepEqual(verifyChain(lines.join('\n')).problems, [
    { line: 2, message: 'holds the key "seq" twice (in $.toolscope_chain): readers disagree on its value' },
  ]);
  assert.deepEqual(verifyChain(chained([{ a: [{ k: 1 }, { k: 2 }], b: { k: '"k"' } }]).join('\n')).problems, []);
});
