/** The pre-tokenizers formats declare for GGUF vocabularies (which name a pre-tokenizer but hold no pattern). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import type { PieceSplitter } from '../../../src/core/tokens/token.ts';

function pieces(split: PieceSplitter | undefined, text: string): string[] {
  assert.ok(split);
  const out: string[] = [];
  split(text, 0, text.length, (start, end) => out.push(text.slice(start, end)));
  assert.equal(out.join(''), text);
  return out;
}

test('deepseek-v3: digits in threes first, then CJK runs, then words, punctuation and whitespace', () => {
  const split = getFormat('deepseek_v31').tokenizer.gguf?.['deepseek-v3'];
  assert.deepEqual(pieces(split, '東京abc 1234567'), ['東京', 'abc', ' ', '123', '456', '7']);
  assert.deepEqual(pieces(split, 'x.foo({"a": 1})\n\n  end'), ['x', '.foo', '({"', 'a', '":', ' ', '1', '})\n\n', ' ', ' end']);
});

test('qwen2: single digits, contractions, a space joined to the next word', () => {
  const split = getFormat('hermes').tokenizer.gguf?.qwen2;
  assert.deepEqual(pieces(split, "I'm at 123 Main St."), ['I', "'m", ' at', ' ', '1', '2', '3', ' Main', ' St', '.']);
  assert.equal(getFormat('qwen3_coder').tokenizer.gguf?.qwen2, split);
});

test('llama-bpe (Llama 3, cl100k pattern): digits in threes, contractions, punctuation with its line breaks', () => {
  const split = getFormat('llama').tokenizer.gguf?.['llama-bpe'];
  assert.deepEqual(pieces(split, "I'M at 1234567 Main St.\n\n"), ['I', "'M", ' at', ' ', '123', '456', '7', ' Main', ' St', '.\n\n']);
  assert.deepEqual(pieces(split, '<|python_tag|>{"name": "f"}'), ['<|', 'python', '_tag', '|>{"', 'name', '":', ' "', 'f', '"}']);
  // The same pattern reads Llama 3's tiktoken.model (original/tokenizer.model holds ranks only).
  assert.equal(getFormat('llama').tokenizer.tiktoken, split);
});

test('GGUF pre-tokenizer names per format: each format declares its own', () => {
  assert.deepEqual(Object.keys(getFormat('kimi_k2').tokenizer.gguf ?? {}), ['kimi-k2']);
  assert.deepEqual(Object.keys(getFormat('harmony').tokenizer.gguf ?? {}), ['gpt-4o']);
  assert.deepEqual(Object.keys(getFormat('deepseek_v31').tokenizer.gguf ?? {}), ['deepseek-v3']);
  assert.deepEqual(Object.keys(getFormat('llama').tokenizer.gguf ?? {}), ['llama-bpe']);
  assert.equal(typeof getFormat('kimi_k2').tokenizer.tiktoken, 'function');
  assert.equal(getFormat('hermes').tokenizer.tiktoken, undefined);
});
