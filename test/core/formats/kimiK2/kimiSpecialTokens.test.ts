import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FIRST_SPECIAL_ID,
  KIMI_LATER_SPECIAL_TOKENS,
  KIMI_NON_TOKEN_MARKERS,
  KIMI_SPECIAL_TOKENS,
  LAST_SPECIAL_ID,
  MAX_SPECIAL_LENGTH,
  isSpecialTokenId,
  isSpecialTokenText,
  specialTokenId,
  specialTokenText,
} from '../../../../src/core/formats/kimiK2/kimiSpecialTokens.ts';
import { readKimiReference } from '../../tokens/sharedData.ts';

test('special token table agrees with the K2-Instruct config in ../shared', (t) => {
  const json = readKimiReference('special_tokens.K2-Instruct.json');
  if (json === null) {
    t.skip('../shared not present: special-token ids not compared');
    return;
  }
  const table = JSON.parse(json) as Record<string, number>;
  for (const [text, id] of KIMI_SPECIAL_TOKENS) {
    if (KIMI_LATER_SPECIAL_TOKENS.includes(text)) {
      // <think>, </think> and the media tokens are reserved slots in K2-Instruct.
      assert.equal(table[`<|reserved_token_${id}|>`], id, `${text} sits in reserved slot ${id}`);
      assert.equal(table[text], undefined, `${text} is not named in K2-Instruct`);
    } else {
      assert.equal(table[text], id, text);
    }
  }
  // And the other way: every string of the K2-Instruct table is recognised with its id.
  const ids = Object.values(table).sort((a, b) => a - b);
  assert.equal(ids.length, LAST_SPECIAL_ID - FIRST_SPECIAL_ID + 1);
  assert.equal(ids[0], FIRST_SPECIAL_ID);
  assert.equal(ids.at(-1), LAST_SPECIAL_ID);
  for (const [text, id] of Object.entries(table)) assert.equal(specialTokenId(text), id, text);
});

test('the table: unique texts and ids, all in the special range', () => {
  const texts = new Set(KIMI_SPECIAL_TOKENS.map(([text]) => text));
  const ids = new Set(KIMI_SPECIAL_TOKENS.map(([, id]) => id));
  assert.equal(texts.size, KIMI_SPECIAL_TOKENS.length);
  assert.equal(ids.size, KIMI_SPECIAL_TOKENS.length);
  for (const id of ids) assert.ok(isSpecialTokenId(id), String(id));
  for (const text of texts) assert.ok(text.length <= MAX_SPECIAL_LENGTH);
});

test('lookups both ways for named tokens', () => {
  const expected: Array<[string, number]> = [
    ['[BOS]', 163584],
    ['[EOS]', 163585],
    ['<|im_end|>', 163586],
    ['<|im_user|>', 163587],
    ['<|im_assistant|>', 163588],
    ['<|start_header_id|>', 163590],
    ['<|end_header_id|>', 163591],
    ['[EOT]', 163593],
    ['<|im_system|>', 163594],
    ['<|tool_calls_section_begin|>', 163595],
    ['<|tool_calls_section_end|>', 163596],
    ['<|tool_call_begin|>', 163597],
    ['<|tool_call_argument_begin|>', 163598],
    ['<|tool_call_end|>', 163599],
    ['<|im_middle|>', 163601],
    ['<think>', 163606],
    ['</think>', 163607],
  ];
  for (const [text, id] of expected) {
    assert.equal(specialTokenId(text), id, text);
    assert.equal(specialTokenText(id), text, String(id));
    assert.ok(isSpecialTokenText(text));
  }
});

test('reserved slots are recognised by pattern, with id = N', () => {
  assert.equal(specialTokenId('<|reserved_token_163589|>'), 163589);
  assert.equal(specialTokenId('<|reserved_token_163700|>'), 163700);
  assert.equal(specialTokenText(163700), '<|reserved_token_163700|>');
  assert.equal(specialTokenText(163589), '<|reserved_token_163589|>');
  // <think> is a reserved slot in K2-Instruct: both spellings are that id; the name is preferred.
  assert.equal(specialTokenId('<|reserved_token_163606|>'), 163606);
  assert.equal(specialTokenText(163606), '<think>');
  // Not tokens: out of range, leading zeros, and a reserved spelling of an id that has a name everywhere.
  for (const text of [
    '<|reserved_token_163583|>',
    '<|reserved_token_163840|>',
    '<|reserved_token_0163600|>',
    '<|reserved_token_163586|>',
    '<|reserved_token_|>',
  ]) {
    assert.equal(specialTokenId(text), undefined, text);
  }
});

test('ordinary ids and strings are not special', () => {
  for (const id of [0, 1, 163583, 163840, 163590.5, -1]) {
    assert.equal(isSpecialTokenId(id), false, String(id));
    assert.equal(specialTokenText(id), undefined, String(id));
  }
  for (const text of ['', '<|', 'im_end', '<|im_end|> ', ' <|im_end|>', '<|IM_END|>', '<think >'])
    assert.equal(specialTokenId(text), undefined, JSON.stringify(text));
});

test('the singular section spellings are listed as markers that are not single tokens', () => {
  assert.deepEqual([...KIMI_NON_TOKEN_MARKERS].sort(), ['<|tool_call_section_begin|>', '<|tool_call_section_end|>']);
  for (const text of KIMI_NON_TOKEN_MARKERS) assert.equal(specialTokenId(text), undefined, text);
});
