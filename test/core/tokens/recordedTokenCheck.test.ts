/**
 * checkRecordedTokens: a token that already is a RecordedToken is used as it stands (no copy), and the list is copied
 * only from the first token that needs cleaning; what a token needing it becomes, and the problem text, are as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRecordedTokens } from '../../../src/core/tokens/recordedTokenCheck.ts';

test('a list of clean tokens is used as it is: the same array, the same objects, no problem', () => {
  const tokens = [{ text: 'a', id: 1 }, { text: 'b', id: 2, logprob: -0.5 }, { text: 'c' }, { text: '', id: 0 }];
  const checked = checkRecordedTokens(tokens);
  assert.equal(checked.tokens, tokens);
  assert.equal(checked.problem, null);
});

test('the list is copied from the first token that needs cleaning; those before it are the same objects', () => {
  const before = { text: 'a', id: 1 };
  const after = { text: 'c', id: 3 };
  const tokens: unknown[] = [
    before,
    { text: 'b', id: -1, logprob: null },
    after,
    { id: 4 },
    { text: 'e', top: [{ text: 'e', logprob: -1, id: 1.5 }] },
  ];
  const checked = checkRecordedTokens(tokens);
  assert.notEqual(checked.tokens, tokens);
  assert.equal(checked.tokens?.[0], before);
  assert.deepEqual(checked.tokens, [
    { text: 'a', id: 1 },
    { text: 'b' },
    { text: 'c', id: 3 },
    { text: '', id: 4 },
    { text: 'e', top: [{ text: 'e', logprob: -1 }] },
  ]);
  assert.equal(
    checked.problem,
    '1 recorded token field is invalid and left out (first: completion.tokens[1] has id -1 (an id is a whole number, 0 or more))',
  );
});

test('a clean prefix does not hide a token that makes the list unusable', () => {
  const checked = checkRecordedTokens([{ text: 'a', id: 1 }, { text: 'b' }, { text: 7 }]);
  assert.equal(checked.tokens, undefined);
  assert.match(checked.problem ?? '', /^completion\.tokens\[2\] has text 7, not a string/);
  assert.match(checkRecordedTokens([{ text: 'a' }, null]).problem ?? '', /^completion\.tokens\[1\] is null, not a token object/);
});

test('a non-finite logprob or a bad id on an otherwise clean token is cleaned, not passed through', () => {
  const checked = checkRecordedTokens([
    { text: 'a', logprob: Number.NaN },
    { text: 'b', id: '2' },
  ]);
  assert.deepEqual(checked.tokens, [{ text: 'a' }, { text: 'b' }]);
  assert.match(
    checked.problem ?? '',
    /^2 recorded token fields are invalid and left out \(first: completion\.tokens\[0\] has logprob NaN\)$/,
  );
});
