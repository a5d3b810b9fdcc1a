/**
 * A record's recorded tokens are special by its own format's vocabulary alone: each format's special token is
 * recognised by id and by text under that format, and another vocabulary's is not (an id that is special there is
 * ordinary here). Hermes and Qwen3-Coder share Qwen's vocabulary; Llama 3's special ids fall among DeepSeek's
 * placeholder slots.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNames, getFormat } from '../../../src/core/formats/registry.ts';
import { recordedSpecialTokens } from '../../../src/core/formats/recordedSpecialTokens.ts';
import { tokenizeCompletion } from '../../../src/core/tokens/index.ts';
import { NO_SPECIAL_TOKENS } from '../../../src/core/tokens/specialTokenTable.ts';
import type { Completion } from '../../../src/core/trace/record.ts';
import type { ToolCallFormat } from '../../../src/core/formats/toolCallFormat.ts';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';
import { LLAMA3_TEST_DECODE } from '../../fixtures/llama3RecordedIds.ts';

/** One special token of each format's vocabulary, with its id there. */
const OWN: Record<string, readonly [text: string, id: number]> = {
  kimi_k2: ['<|tool_calls_section_begin|>', 163595],
  harmony: ['<|call|>', 200012],
  deepseek_v31: ['<｜tool▁calls▁begin｜>', 128806],
  qwen3_coder: ['<tool_call>', 151657],
  hermes: ['</tool_call>', 151658],
  llama: ['<|python_tag|>', 128010],
  mistral: ['[TOOL_CALLS]', 9],
};
const QWEN = ['hermes', 'qwen3_coder'];

function tokens(format: ToolCallFormat, completion: Completion) {
  return tokenizeCompletion(completion, format.tokenizer.approximate(), recordedSpecialTokens(format)).tokens;
}

/**
 * Formats with no special-token table Toolscope can source (GLM, DeepSeek DSML, MiniMax-M2, Hy3, Seed-OSS, Kimi K3,
 * LFM2: no public tokenizer_config.json copy with their ids was read; Gemma 4, FunctionGemma: their vocabularies' ids
 * were not read from a file that could be named; pythonic: its models span vocabularies — Llama 3.2, Llama 4, Olmo 3 —
 * and one table cannot serve them all).
 */
const WITHOUT_TABLE = [
  'glm',
  'deepseek_dsml',
  'minimax_m2',
  'minimax_m3',
  'hy_v3',
  'seed_oss',
  'kimi_k3',
  'gemma4',
  'functiongemma',
  'pythonic',
  'lfm2',
  'granite',
];

test('every registered format declares its special tokens (or is listed without a table), and each sample is its own', () => {
  assert.deepEqual([...Object.keys(OWN), ...WITHOUT_TABLE].sort(), formatNames().sort());
  for (const name of WITHOUT_TABLE) assert.equal(getFormat(name).tokenizer.specialTokens, undefined, name);
  for (const [name, [text, id]] of Object.entries(OWN)) {
    const table = recordedSpecialTokens(getFormat(name));
    assert.equal(table.idOf(text), id, name);
    assert.equal(table.textOf(id), text, name);
  }
});

for (const name of WITHOUT_TABLE) {
  test(`${name}: without a table, no recorded token is special, by id or by text`, () => {
    const format = getFormat(name);
    for (const [text, id] of Object.values(OWN)) {
      const [byId] = tokens(format, { text: '', tokens: [{ id, text: '' }] });
      assert.equal(byId?.special, false, `${name} reading id ${id}`);
      const [byText] = tokens(format, { text, tokens: [{ text }] });
      assert.equal(byText?.special, false, `${name} reading ${text}`);
    }
  });
}

for (const name of Object.keys(OWN)) {
  test(`${name}: its special is recognised by id and by text, the other vocabularies' are not`, () => {
    const format = getFormat(name);
    for (const [other, [text, id]] of Object.entries(OWN)) {
      const sameVocabulary = other === name || (QWEN.includes(name) && QWEN.includes(other));
      // By id, without text (skip_special_tokens): the text is rebuilt from the table when the id is special here.
      const [byId] = tokens(format, { text: '', tokens: [{ id, text: '' }] });
      const placeholder = name === 'deepseek_v31' && other === 'llama';
      assert.equal(byId?.special, sameVocabulary || placeholder, `${name} reading ${other}'s id ${id}`);
      if (sameVocabulary) assert.equal(byId?.text, text);
      // By text, without id: special with this vocabulary's id, or an ordinary token without one.
      const [byText] = tokens(format, { text, tokens: [{ text }] });
      assert.equal(byText?.special, sameVocabulary, `${name} reading ${other}'s text ${text}`);
      assert.equal(byText?.id, sameVocabulary ? id : undefined);
    }
  });
}

test("a Harmony record's id 163586 (Kimi K2's <|im_end|>) is an ordinary o200k token; its own specials are rebuilt", () => {
  // The server skipped special tokens: only the ids say where <|channel|> and <|message|> were.
  const completion: Completion = {
    text: 'finalHi',
    tokens: [
      { id: 200005, text: '' },
      { id: 17196, text: 'final' },
      { id: 200008, text: '' },
      { id: 163586, text: 'Hi' },
    ],
  };
  const got = tokens(getFormat('harmony'), completion).map((t) => [t.text, t.special, t.id]);
  assert.deepEqual(got, [
    ['<|channel|>', true, 200005],
    ['final', false, 17196],
    ['<|message|>', true, 200008],
    ['Hi', false, 163586],
  ]);
});

test("a Qwen record's <think> recorded with Qwen3's id is special with that id, and by text alone takes Qwen's id", () => {
  const completion: Completion = {
    text: '<think>hm',
    tokens: [
      { id: 151667, text: '<think>' },
      { id: 71, text: 'hm' },
    ],
  };
  const [think] = tokens(getFormat('hermes'), completion);
  assert.deepEqual([think?.special, think?.id], [true, 151667]);
  // By text alone Qwen's id is given, not Kimi K2's 163606.
  const [byText] = tokens(getFormat('hermes'), { text: '<think>hm', tokens: [{ text: '<think>' }, { text: 'hm' }] });
  assert.deepEqual([byText?.special, byText?.id], [true, 151667]);
});

test("Meta's Llama 3 tokenizer test: ids alone rebuild the decoded text under Llama, and are ordinary under Harmony", () => {
  const { ids, decoded, withoutSpecials } = LLAMA3_TEST_DECODE;
  const completion: Completion = { text: withoutSpecials, tokens: ids.map((id) => ({ id, text: '' })) };
  const llama = tokenizeCompletion(completion, getFormat('llama').tokenizer.approximate(), recordedSpecialTokens(getFormat('llama')));
  assert.equal(llama.text, decoded);
  assert.deepEqual(
    llama.tokens.filter((t) => t.special).map((t) => [t.text, t.id]),
    [
      ['<|begin_of_text|>', 128000],
      ['<|end_of_text|>', 128001],
    ],
  );
  // 128000 and 128001 are ordinary o200k ids: nothing is special, nothing is added to the text.
  const harmony = tokenizeCompletion(completion, getFormat('harmony').tokenizer.approximate(), recordedSpecialTokens(getFormat('harmony')));
  assert.equal(harmony.text, withoutSpecials);
  assert.ok(harmony.tokens.every((t) => !t.special));
});

test('a format without a table recognises no recorded token as special, by id or by text', () => {
  const format: ToolCallFormat = { ...getFormat('hermes'), tokenizer: { approximate: getFormat('hermes').tokenizer.approximate } };
  assert.equal(recordedSpecialTokens(format), NO_SPECIAL_TOKENS);
  const got = tokens(format, { text: '<tool_call>x', tokens: [{ id: 151657, text: '<tool_call>' }, { text: 'x' }] });
  assert.deepEqual(
    got.map((t) => [t.text, t.special]),
    [
      ['<tool_call>', false],
      ['x', false],
    ],
  );
});

test("the analysis reads a record's tokens against the format it resolved for it", () => {
  const analyzer = new Analyzer({}, nodeServices());
  const line = (format: string) =>
    JSON.stringify({
      toolscope: 1,
      id: format,
      meta: { format },
      completion: {
        text: 'Hi',
        tokens: [
          { id: 163586, text: '' },
          { id: 12194, text: 'Hi' },
        ],
      },
    });
  const read = (format: string) => {
    const [loaded] = importText(line(format), `${format}.jsonl`).records;
    return analyzer.analyze(loaded!).completion?.tokens.map((t) => [t.text, t.special, t.id]);
  };
  // Kimi K2 as before: the id is its <|im_end|>, put back into the text.
  assert.deepEqual(read('kimi_k2'), [
    ['<|im_end|>', true, 163586],
    ['Hi', false, 12194],
  ]);
  // Harmony: an ordinary o200k id whose text was not recorded; it takes no text and is not special.
  assert.ok(read('harmony')?.every(([, special]) => special === false));
});
