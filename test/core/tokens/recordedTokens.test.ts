import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Completion, RecordedToken } from '../../../src/core/trace/record.ts';
import { distribute, tokenizeCompletion, type TokenizedCompletion } from '../../../src/core/tokens/index.ts';
import { KimiSplitter } from '../../../src/core/formats/kimiK2/kimiSplitter.ts';
import { kimiSpecialTokenTable } from '../../../src/core/formats/kimiK2/kimiSpecialTokens.ts';
import { seededRandom } from './sharedData.ts';
import { assertLinear16 } from '../../linearTime.ts';

const splitter = new KimiSplitter();
const run = (completion: Completion): TokenizedCompletion => tokenizeCompletion(completion, splitter, kimiSpecialTokenTable);

/** Offsets tile the returned text, and no token boundary cuts a surrogate pair. */
function assertConsistent(r: TokenizedCompletion): void {
  let at = 0;
  for (const [i, t] of r.tokens.entries()) {
    assert.equal(t.index, i);
    assert.equal(t.charStart, at, `token ${i} starts where the previous ended`);
    assert.equal(t.charEnd, at + t.text.length);
    assert.equal(r.text.slice(t.charStart, t.charEnd), t.text);
    at = t.charEnd;
    const before = r.text.charCodeAt(at - 1);
    const after = r.text.charCodeAt(at);
    assert.ok(!(before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff), `code point cut after token ${i}`);
  }
  assert.equal(at, r.text.length, 'tokens cover the whole text');
}

const CALL =
  'Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city":"Oslo"}<|tool_call_end|><|tool_calls_section_end|>';

test('no tokens: the splitter', () => {
  const r = run({ text: CALL });
  assert.equal(r.origin, 'splitter');
  assert.equal(r.warning, undefined);
  assertConsistent(r);
  assert.ok(r.tokens.some((t) => t.special && t.id === 163595));
});

test('an empty token list: recorded when the text is empty too, else the splitter with a warning', () => {
  assert.deepEqual(run({ text: '', tokens: [] }), { text: '', tokens: [], origin: 'recorded', source: 'recorded', tokenizer: 'recorded' });
  const r = run({ text: 'abc', tokens: [] });
  assert.equal(r.origin, 'splitter');
  assert.match(r.warning ?? '', /empty token list/);
});

test('(a) recorded texts that tile the completion are used as they are', () => {
  const tokens: RecordedToken[] = [
    {
      text: 'Hi ',
      id: 5,
      logprob: -0.1,
      top: [
        { text: 'Hi ', logprob: -0.1, id: 5 },
        { text: 'Hey', logprob: -2.5, id: 9 },
      ],
    },
    { text: '<|tool_calls_section_begin|>', id: 163595, logprob: -0.01 },
    { text: 'x', id: 6 },
    { text: '<|im_end|>' },
  ];
  const r = run({ text: tokens.map((t) => t.text).join(''), tokens });
  assert.equal(r.origin, 'recorded');
  assert.equal(r.rebuilt, undefined);
  assert.equal(r.warning, undefined);
  assertConsistent(r);
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.special, t.approximate, t.id]),
    [
      ['Hi ', false, false, 5],
      ['<|tool_calls_section_begin|>', true, false, 163595],
      ['x', false, false, 6],
      ['<|im_end|>', true, false, 163586],
    ],
  );
  assert.equal(r.tokens[0]?.logprob, -0.1);
  assert.deepEqual(r.tokens[0]?.top, tokens[0]?.top);
  assert.equal(r.tokens[1]?.logprob, -0.01);
});

test('(a) a special id marks a token special even when its recorded text is the reserved spelling', () => {
  const tokens = [
    { id: 163606, text: '<|reserved_token_163606|>' },
    { id: 10, text: 'hm' },
  ];
  const r = run({ text: '<|reserved_token_163606|>hm', tokens });
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.special, t.approximate]),
    [
      ['<|reserved_token_163606|>', true, false],
      ['hm', false, false],
    ],
  );
});

test('(a) a marker recorded as three text tokens stays three ordinary tokens', () => {
  const tokens = [
    { id: 1, text: '<|tool_calls_' },
    { id: 2, text: 'section_' },
    { id: 3, text: 'begin|>' },
  ];
  const r = run({ text: 'ok <|tool_calls_section_begin|>'.slice(3), tokens });
  assert.equal(r.origin, 'recorded');
  assertConsistent(r);
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.id, t.special, t.approximate]),
    [
      ['<|tool_calls_', 1, false, false],
      ['section_', 2, false, false],
      ['begin|>', 3, false, false],
    ],
  );
});

test('(b) ids without text (token_id:N): specials placed exactly, runs share the text between them', () => {
  const ids = [1001, 1002, 1003, 1004, 163595, 163597, 1005, 1006, 1007, 163598, 1008, 1009, 163599, 163596];
  const r = run({ text: CALL, tokens: ids.map((id) => ({ id, text: '', logprob: -1 })) });
  assert.equal(r.origin, 'recorded');
  assert.equal(r.text, CALL);
  assert.equal(r.rebuilt, undefined);
  assertConsistent(r);
  assert.deepEqual(
    r.tokens.map((t) => t.id),
    ids,
  );
  assert.ok(r.tokens.every((t) => t.logprob === -1));
  for (const t of r.tokens) assert.equal(t.approximate, !t.special, `${t.id}`);
  assert.deepEqual(
    r.tokens.filter((t) => t.special).map((t) => t.text),
    [
      '<|tool_calls_section_begin|>',
      '<|tool_call_begin|>',
      '<|tool_call_argument_begin|>',
      '<|tool_call_end|>',
      '<|tool_calls_section_end|>',
    ],
  );
  // "Let me check." is 5 pre-tokenizer pieces over 4 tokens; the others as evenly as the pieces allow.
  assert.deepEqual(
    r.tokens.slice(0, 4).map((t) => t.text),
    ['Let', ' me', ' check', '.'],
  );
  assert.deepEqual(
    r.tokens.slice(6, 9).map((t) => t.text),
    ['functions', '.get_weather', ':0'],
  );
  assert.deepEqual(
    r.tokens.slice(10, 12).map((t) => t.text),
    ['{"city', '":"Oslo"}'],
  );
});

test('(b) fewer pieces than tokens: code points, then empty tokens; surrogate pairs never cut', () => {
  assert.deepEqual(distribute('ab', 4), ['', 'a', '', 'b']);
  assert.deepEqual(distribute('😀', 3), ['', '', '😀']);
  assert.deepEqual(distribute('', 2), ['', '']);
  assert.deepEqual(distribute('x', 0), []);
  const r = run({
    text: '😀é<|im_end|>',
    tokens: [
      { id: 1, text: '' },
      { id: 2, text: '' },
      { id: 3, text: '' },
      { id: 4, text: '' },
      { id: 5, text: '' },
      { id: 163586, text: '' },
    ],
  });
  assertConsistent(r);
  assert.equal(
    r.tokens
      .slice(0, 5)
      .map((t) => t.text)
      .join(''),
    '😀é',
  );
  assert.equal(r.tokens[5]?.text, '<|im_end|>');
});

test('(c) the engine skipped special tokens: the text is rebuilt with them in place', () => {
  const tokens = [
    { id: 1, text: 'Sure.' },
    { id: 163595, text: '' },
    { id: 163597, text: '' },
    { id: 2, text: 'functions.f:0' },
    { id: 163598, text: '' },
    { id: 3, text: '{}' },
    { id: 163599, text: '' },
    { id: 163596, text: '' },
    { id: 163586, text: '' },
  ];
  const r = run({ text: 'Sure.functions.f:0{}', tokens });
  assert.equal(r.origin, 'recorded');
  assert.equal(r.rebuilt, true);
  assert.equal(r.warning, undefined);
  assert.equal(
    r.text,
    'Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|><|im_end|>',
  );
  assertConsistent(r);
  assert.ok(
    r.tokens.every((t) => !t.approximate),
    'every place is known exactly',
  );
  assert.deepEqual(
    r.tokens.map((t) => t.id),
    tokens.map((t) => t.id),
  );
});

test('(c) a special token recorded with its text but missing from the completion text', () => {
  const r = run({ text: 'Done.', tokens: [{ text: 'Done' }, { text: '.' }, { text: '<|im_end|>' }] });
  assert.equal(r.origin, 'recorded');
  assert.equal(r.rebuilt, true);
  assert.equal(r.text, 'Done.<|im_end|>');
  assert.equal(r.tokens[2]?.id, 163586);
  assertConsistent(r);
});

test('(b)+(c) ids only, end-of-turn token skipped: appended after the shared-out text', () => {
  const r = run({
    text: 'Hello world',
    tokens: [
      { id: 1, text: '' },
      { id: 2, text: '' },
      { id: 163586, text: '' },
    ],
  });
  assert.equal(r.rebuilt, true);
  assert.equal(r.text, 'Hello world<|im_end|>');
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.approximate]),
    [
      ['Hello', true],
      [' world', true],
      ['<|im_end|>', true],
    ],
  );
  assertConsistent(r);
});

test('(d) texts that do not match and no ids: the splitter, with a warning', () => {
  const r = run({ text: 'abc<|im_end|>', tokens: [{ text: 'zzz' }, { text: '<|tool_call_end|>' }] });
  assert.equal(r.origin, 'splitter');
  assert.match(r.warning ?? '', /do(es)? not match.*no ids/);
  assert.equal(r.text, 'abc<|im_end|>');
  assertConsistent(r);
});

test('(d) text no token covers, no ids: the splitter, with a warning', () => {
  const r = run({ text: 'Hi there<|im_end|>', tokens: [{ text: 'Hi' }, { text: '<|im_end|>' }] });
  assert.equal(r.origin, 'splitter');
  assert.match(r.warning ?? '', /covered by no recorded token/);
});

test('mismatched texts with ids: recorded, those tokens approximate, with a warning', () => {
  const r = run({
    text: 'Hello world!',
    tokens: [
      { id: 1, text: 'Hello' },
      { id: 2, text: ' wrold' },
      { id: 3, text: '!' },
    ],
  });
  assert.equal(r.origin, 'recorded');
  assert.match(r.warning ?? '', /1 recorded token text does not match/);
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.approximate, t.id]),
    [
      ['Hello', false, 1],
      [' world', true, 2],
      ['!', false, 3],
    ],
  );
  assertConsistent(r);
});

test('text no token covers, with ids: the previous token takes it, with a warning', () => {
  const r = run({
    text: 'Hi there<|im_end|>',
    tokens: [
      { id: 1, text: 'Hi' },
      { id: 163586, text: '<|im_end|>' },
    ],
  });
  assert.equal(r.origin, 'recorded');
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.approximate]),
    [
      ['Hi there', true],
      ['<|im_end|>', false],
    ],
  );
  assert.match(r.warning ?? '', /covered by no recorded token/);
  assertConsistent(r);
});

test('text before the first token that no token can take: the splitter', () => {
  const r = run({
    text: 'xx<|im_end|>',
    tokens: [
      { id: 163586, text: '' },
      { id: 163585, text: '' },
    ],
  });
  assert.equal(r.origin, 'splitter');
  assert.match(r.warning ?? '', /covered by no recorded token/);
});

test('byte-fragment tokens are repaired locally, without a warning even without ids', () => {
  const tokens = [
    { text: 'Hi ' },
    { text: '\\xf0\\x9f' },
    { text: '\\x98\\x80' },
    { text: ' there' },
    { text: '\ufffd' },
    { text: '\ufffd' },
    { text: '!' },
  ];
  const r = run({ text: 'Hi 😀 there中!', tokens });
  assert.equal(r.origin, 'recorded');
  assert.equal(r.warning, undefined);
  assertConsistent(r);
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.approximate]),
    [
      ['Hi ', false],
      ['', true],
      ['😀', true],
      [' there', false],
      ['', true],
      ['中', true],
      ['!', false],
    ],
  );
});

test('surrogate halves recorded as tokens are not used to cut a code point', () => {
  const r = run({
    text: 'a😀b',
    tokens: [
      { id: 1, text: 'a' },
      { id: 2, text: '\ud83d' },
      { id: 3, text: '\ude00' },
      { id: 4, text: 'b' },
    ],
  });
  assert.equal(r.origin, 'recorded');
  assert.equal(r.warning, undefined);
  assertConsistent(r);
  assert.deepEqual(
    r.tokens.map((t) => [t.text, t.approximate]),
    [
      ['a', false],
      ['', true],
      ['😀', true],
      ['b', false],
    ],
  );
});

test('a short token after a mismatch is placed by what follows it, not its first occurrence', () => {
  const r = run({
    text: 'é a a bc',
    tokens: [
      { id: 1, text: '\ufffd' },
      { id: 2, text: '\ufffd' },
      { id: 3, text: ' a' },
      { id: 4, text: ' a' },
      { id: 5, text: ' bc' },
    ],
  });
  assert.deepEqual(
    r.tokens.map((t) => t.text),
    ['', 'é', ' a', ' a', ' bc'],
  );
  assert.ok(r.tokens.slice(2).every((t) => !t.approximate));
});

/** A completion as the splitter cuts it, with made-up ids for the ordinary pieces. */
function randomCompletion(next: (n: number) => number): { text: string; tokens: Array<{ id: number; text: string; special: boolean }> } {
  const parts = [
    'Hi',
    ' there',
    '中文',
    '😀',
    '\n',
    ' {"a": 1}',
    'functions.f:0',
    '<|tool_calls_section_begin|>',
    '<|tool_call_begin|>',
    '<|tool_call_argument_begin|>',
    '<|tool_call_end|>',
    '<|tool_calls_section_end|>',
    '<think>',
    '</think>',
    '<|im_end|>',
    'x',
  ];
  let text = '';
  for (let i = next(20); i > 0; i--) text += parts[next(parts.length)];
  const tokens = splitter.tokenize(text).map((t) => ({ id: t.id ?? 1000 + next(100_000), text: t.text, special: t.special }));
  return { text, tokens };
}

test('property: ids-only and skip_special_tokens records rebuild the original text and keep every id', () => {
  const next = seededRandom(5);
  for (let n = 0; n < 500; n++) {
    const { text, tokens } = randomCompletion(next);
    // token_id:N: no texts; the completion text still has the specials.
    const idsOnly = run({ text, tokens: tokens.map(({ id }) => ({ id, text: '' })) });
    assert.equal(idsOnly.origin, 'recorded');
    assert.equal(idsOnly.text, text);
    assertConsistent(idsOnly);
    assert.deepEqual(
      idsOnly.tokens.map((t) => t.id),
      tokens.map((t) => t.id),
    );
    assert.deepEqual(
      idsOnly.tokens.filter((t) => t.special).map((t) => t.text),
      tokens.filter((t) => t.special).map((t) => t.text),
    );
    // skip_special_tokens: specials absent from the text, ordinary tokens with their text.
    const skipped = run({
      text: tokens
        .filter((t) => !t.special)
        .map((t) => t.text)
        .join(''),
      tokens: tokens.map(({ id, text: t, special }) => ({ id, text: special ? '' : t })),
    });
    assert.equal(skipped.origin, 'recorded');
    assert.equal(skipped.text, text, JSON.stringify(text));
    assert.equal(skipped.rebuilt, tokens.some((t) => t.special) ? true : undefined);
    assertConsistent(skipped);
  }
});

test('property: characters recorded as byte fragments are repaired locally, the rest stays exact', () => {
  const next = seededRandom(9);
  for (let n = 0; n < 500; n++) {
    const { text, tokens } = randomCompletion(next);
    const recorded: RecordedToken[] = [];
    const exact: boolean[] = [];
    for (const t of tokens) {
      // A piece of non-ASCII characters only, as 2 or 3 tokens that each end inside a character.
      if (!t.special && /^\P{ASCII}+$/u.test(t.text) && next(2) === 0) {
        for (let k = 2 + next(2); k > 0; k--) {
          recorded.push({ id: t.id, text: next(2) === 0 ? '\ufffd' : '\\xe4\\xbd' });
          exact.push(false);
        }
      } else {
        recorded.push({ id: t.id, text: t.text });
        exact.push(true);
      }
    }
    const r = run({ text, tokens: recorded });
    assert.equal(r.origin, 'recorded', JSON.stringify(text));
    assert.equal(r.warning, undefined, JSON.stringify(text));
    assert.equal(r.text, text);
    assertConsistent(r);
    assert.deepEqual(
      r.tokens.map((t) => !t.approximate),
      exact,
      JSON.stringify(text),
    );
  }
});

// Linear as a ratio of CPU times (test/linearTime.ts): fixed bounds in ms failed under load.
test('linear time: 100k recorded tokens, ids only or with texts', () => {
  const make = (scale: number) => {
    const text = 'word '.repeat(3125 * scale) + '<|tool_call_begin|>' + 'x, '.repeat(1563 * scale) + '<|im_end|>';
    const pieces = splitter.tokenize(text);
    return {
      text,
      withTexts: pieces.map((t, i) => ({ id: t.id ?? i, text: t.text })),
      idsOnly: pieces.map((t, i) => ({ id: t.id ?? i, text: '' })),
      // Every ordinary text wrong: the worst case for re-anchoring.
      wrong: pieces.map((t, i) => ({ id: t.id ?? i, text: t.special ? t.text : 'q' })),
    };
  };
  const small = make(1);
  const big = make(16);
  assert.ok(big.withTexts.length > 100_000, `${big.withTexts.length} tokens`);
  assert.equal(run({ text: big.text, tokens: big.withTexts }).tokens.length, big.withTexts.length);
  assert.equal(run({ text: big.text, tokens: big.idsOnly }).text, big.text);
  assertConsistent(run({ text: big.text, tokens: big.wrong }));
  for (const kind of ['withTexts', 'idsOnly', 'wrong'] as const)
    assertLinear16(
      kind,
      () => run({ text: small.text, tokens: small[kind] }),
      () => run({ text: big.text, tokens: big[kind] }),
      3,
    );
});
