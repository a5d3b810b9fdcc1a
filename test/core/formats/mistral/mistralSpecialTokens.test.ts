/**
 * Mistral's special-token table: the Tekken control tokens mistral-common's tekken.py names by rank
 * (DEPRECATED_SPECIAL_TOKENS @ aa5223c), and only those: the v11+ tokens whose ids no read file states stay unknown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../../src/core/formats/registry.ts';
import { recordedSpecialTokens } from '../../../../src/core/formats/recordedSpecialTokens.ts';
import { tokenizeCompletion } from '../../../../src/core/tokens/index.ts';

const format = getFormat('mistral');
const table = recordedSpecialTokens(format);

test('the stated ids: </s> 2, [TOOL_CALLS] 9, [INST] 3, [TOOL_RESULTS] 7, <pad> 11, [TOOL_CONTENT] 19', () => {
  for (const [text, id] of [
    ['</s>', 2],
    ['[TOOL_CALLS]', 9],
    ['[INST]', 3],
    ['[TOOL_RESULTS]', 7],
    ['<pad>', 11],
    ['[TOOL_CONTENT]', 19],
  ] as const) {
    assert.equal(table.idOf(text), id, text);
    assert.equal(table.textOf(id), text, text);
  }
  for (const text of ['[ARGS]', '[CALL_ID]', '[THINK]', '[/THINK]']) assert.equal(table.idOf(text), undefined, text);
  assert.equal(table.textOf(20), undefined);
});

test('a recorded [TOOL_CALLS] and </s> are special by id and by text; [ARGS] is not claimed', () => {
  const text = '[TOOL_CALLS]f[ARGS]{}</s>';
  const recorded = [{ id: 9, text: '[TOOL_CALLS]' }, { text: 'f' }, { text: '[ARGS]' }, { text: '{}' }, { id: 2, text: '</s>' }];
  const { tokens } = tokenizeCompletion({ text, tokens: recorded }, format.tokenizer.approximate(), table);
  assert.deepEqual(
    tokens.map((t) => [t.text, t.special]),
    [
      ['[TOOL_CALLS]', true],
      ['f', false],
      ['[ARGS]', false],
      ['{}', false],
      ['</s>', true],
    ],
  );
});
