/** The registry with the five added formats: names, detection order, and tokenizers that follow each format. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_FORMAT,
  detectFormat,
  findFormat,
  formatNames,
  getFormat,
  MarkerSplitter,
  tokenizerFor,
} from '../../../../src/core/formats/registry.ts';
import { KimiSplitter } from '../../../../src/core/formats/kimiK2/kimiSplitter.ts';

test('registry: Kimi K2 stays first and the default; the other formats are registered, GLM before Hermes, pythonic before Llama', () => {
  // GLM before Hermes: both write <tool_call>; GLM's detection is the stricter (its layout), so it decides ties.
  // Pythonic before Llama: a call list before Llama's <|eot_id|> is detected by both with no fragment of either.
  // MiniMax-M3 before Hermes: its <tool_call> holding an invoke (the namespace token skipped) is M3's.
  assert.deepEqual(formatNames(), [
    'kimi_k2',
    'harmony',
    'deepseek_v31',
    'deepseek_dsml',
    'qwen3_coder',
    'glm',
    'hy_v3',
    'minimax_m2',
    'minimax_m3',
    'seed_oss',
    'kimi_k3',
    'hermes',
    'pythonic',
    'llama',
    'gemma4',
    'functiongemma',
    'mistral',
    'lfm2',
    'granite',
  ]);
  assert.equal(DEFAULT_FORMAT, 'kimi_k2');
  assert.equal(detectFormat('').name, 'kimi_k2');
  assert.equal(findFormat('harmony'), getFormat('harmony'));
  assert.equal(findFormat('nope'), undefined);
  assert.equal(findFormat(42), undefined);
  assert.throws(
    () => getFormat('nope'),
    /known: kimi_k2, harmony, deepseek_v31, deepseek_dsml, qwen3_coder, glm, hy_v3, minimax_m2, minimax_m3, seed_oss, kimi_k3, hermes, pythonic, llama, gemma4, functiongemma, mistral, lfm2, granite/,
  );
});

test('registry: the format whose markup comes first wins when another format is quoted inside it', () => {
  const kimi =
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.doc:0<|tool_call_argument_begin|>{"text": "Hermes writes <tool_call>{…}</tool_call>"}<|tool_call_end|><|tool_calls_section_end|>';
  assert.equal(detectFormat(kimi).name, 'kimi_k2');
  const hermes =
    '<tool_call>\n{"name": "doc", "arguments": {"text": "Kimi writes <|tool_call_begin|> and gpt-oss <|channel|>"}}\n</tool_call>';
  assert.equal(detectFormat(hermes).name, 'hermes');
  const harmony = '<|channel|>commentary to=functions.doc <|constrain|>json<|message|>{"text": "<｜tool▁calls▁begin｜>"}<|call|>';
  assert.equal(detectFormat(harmony).name, 'harmony');
  // Only a raw-fallback look-alike of Kimi: real markup of another format comes first.
  assert.equal(detectFormat('<tool_call>{"name": "f", "arguments": {"id": "functions.f:0"}}</tool_call>').name, 'hermes');
});

test('MarkerSplitter: markers are single special tokens, the rest pre-tokenized, the text tiled exactly', () => {
  const text = 'Hi <|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": "<|ca"}<|call|>';
  const tokens = new MarkerSplitter(getFormat('harmony')).tokenize(text);
  assert.equal(tokens.map((t) => t.text).join(''), text);
  tokens.forEach((t, i) => {
    assert.equal(t.index, i);
    assert.equal(text.slice(t.charStart, t.charEnd), t.text);
    if (i > 0) assert.equal(tokens[i - 1]?.charEnd, t.charStart);
  });
  const specials = tokens.filter((t) => t.special).map((t) => t.text);
  assert.deepEqual(specials, ['<|start|>', '<|channel|>', '<|constrain|>', '<|message|>', '<|call|>']);
  assert.ok(tokens.filter((t) => t.special).every((t) => !t.approximate));
  assert.ok(tokens.filter((t) => !t.special).every((t) => t.approximate));
  assert.deepEqual(new MarkerSplitter(getFormat('hermes')).tokenize(''), []);
});

test('tokenizerFor: the Kimi splitter for Kimi K2, a marker splitter for the others, one each', () => {
  assert.ok(tokenizerFor(getFormat('kimi_k2')) instanceof KimiSplitter);
  for (const name of ['hermes', 'qwen3_coder', 'deepseek_v31', 'harmony', 'llama']) {
    const t = tokenizerFor(getFormat(name));
    assert.ok(t instanceof MarkerSplitter, name);
    assert.equal(t, tokenizerFor(getFormat(name)));
    assert.equal(t.approximate, true);
  }
  const ds = tokenizerFor(getFormat('deepseek_v31')).tokenize('a<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}');
  assert.deepEqual(
    ds.filter((t) => t.special).map((t) => t.text),
    ['<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>'],
  );
});
