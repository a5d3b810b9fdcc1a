/**
 * The user's tokenizer files: tiktoken.model + tokenizer_config.json (Kimi K2), tokenizer.json and GGUF, built small
 * by the tests; the order sources are tried in; what the header says; clear errors for missing or broken files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { Analyzer, type AnalysisOptions } from '../../../src/core/analysis.ts';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { chooseTokenizer, pathFor } from '../../../src/core/formats/tokenizerChoice.ts';
import { clearLocalTokenizers, loadLocalTokenizer } from '../../../src/io/tokens/localTokenizer.ts';
import { TokenizerJson } from '../../../src/core/tokens/tokenizerJson.ts';
import { recordView } from '../../../src/host/view/recordView.ts';
import type { Token } from '../../../src/core/tokens/token.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';
import { ADDED, FIRST_SPECIAL, tempDir, writeGguf, writeKimiFolder, writeTokenizerJson } from '../../core/tokens/tokenizerFiles.ts';

function analyze(record: TraceRecord, options: AnalysisOptions) {
  return new Analyzer(options, { readTokenizer: loadLocalTokenizer }).analyze({ record, line: 1, lastLine: 1, source: 'native' });
}

function assertTiles(text: string, tokens: Token[]): void {
  assert.equal(tokens.map((t) => t.text).join(''), text);
  tokens.forEach((t, i) => assert.equal(t.charStart, i === 0 ? 0 : tokens[i - 1]?.charEnd));
}

const KIMI_CALL =
  'hello world<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a":1}<|tool_call_end|><|tool_calls_section_end|>';

test('tiktoken.model + tokenizer_config.json: ranks are ids, the config names the specials, unnamed ids are reserved', () => {
  clearLocalTokenizers();
  const dir = writeKimiFolder(join(tempDir('kimi'), 'Kimi-K2-Instruct'));
  const tokenizer = loadLocalTokenizer(dir, 'kimi_k2', getFormat('kimi_k2').tokenizer);
  assert.equal(tokenizer.name, 'tiktoken.model (Kimi-K2-Instruct)');
  assert.equal(tokenizer.approximate, false);
  const ids = (text: string) => tokenizer.tokenize(text).map((t) => t.id);
  // Whole pieces in the vocabulary are one token; "yellow" merges only "ll" (rank 257).
  assert.deepEqual(ids('hello world'), [259, 264]);
  assert.deepEqual(ids('yellow'), [121, 101, 257, 111, 119]);
  assert.deepEqual(ids('{"a":1}'), [265, 97, 266, 49, 125]);
  const specials = tokenizer.tokenize(`[BOS]x<|reserved_token_${FIRST_SPECIAL + 6}|>[EOS]`).filter((t) => t.special);
  assert.deepEqual(
    specials.map((t) => t.id),
    [FIRST_SPECIAL, FIRST_SPECIAL + 6, FIRST_SPECIAL + 7],
  );
  const tokens = tokenizer.tokenize(KIMI_CALL);
  assertTiles(KIMI_CALL, tokens);
  assert.deepEqual(
    tokens.filter((t) => t.special).map((t) => t.id),
    [FIRST_SPECIAL + 1, FIRST_SPECIAL + 2, FIRST_SPECIAL + 3, FIRST_SPECIAL + 4, FIRST_SPECIAL + 5],
  );
});

test('analyze with --tokenizer on a Kimi folder: exact re-encoded ids in the record view, its header says so', () => {
  clearLocalTokenizers();
  const dir = writeKimiFolder(join(tempDir('kimi-view'), 'Kimi-K2-Instruct'));
  const record: TraceRecord = { toolscope: 1, id: 'r1', completion: { text: KIMI_CALL } };
  const a = analyze(record, { tokenizers: { any: dir } });
  assert.equal(a.completion?.source, 're-encoded');
  const view = recordView('k', a, record);
  assert.equal(view.tokenSource, 're-encoded');
  assert.equal(view.approximate, false);
  assert.match(view.tokenLabel ?? '', /^tokens: tiktoken\.model \(Kimi-K2-Instruct\) \(exact, re-encoded/u);
  assert.deepEqual(
    view.tokens.slice(0, 3).map((t) => [t.text, t.id]),
    [
      ['hello', 259],
      [' world', 264],
      ['<|tool_calls_section_begin|>', FIRST_SPECIAL + 1],
    ],
  );
  assert.ok(view.tokens.every((t) => t.id !== undefined && !t.approximate));
  assert.equal(a.calls[0]?.name, 'f');
  // Without a tokenizer: the approximate splitter, and the header says what to set.
  const plain = analyze(record, {});
  assert.equal(plain.completion?.source, 'approximate');
  assert.equal(recordView('k', plain, record).tokenLabel, 'tokens: approximate — set toolscope.tokenizer');
});

test('tokenizer.json: ids from @huggingface/tokenizers anchored to the text, added tokens special, split characters as bytes', () => {
  const dir = writeTokenizerJson(join(tempDir('qwen'), 'Qwen3-8B'));
  clearLocalTokenizers();
  const tokenizer = loadLocalTokenizer(dir, 'hermes', getFormat('hermes').tokenizer);
  assert.ok(tokenizer instanceof TokenizerJson);
  assert.equal(tokenizer.name, 'tokenizer.json (Qwen3-8B)');
  const text = 'ok the <tool_call>\n{"a": 1}\n</tool_call>😀<|im_end|>';
  const tokens = tokenizer.tokenize(text);
  assertTiles(text, tokens);
  assert.deepEqual(
    tokens.slice(0, 2).map((t) => [t.text, t.id]),
    [
      ['ok', 260],
      [' the', 258],
    ],
  );
  assert.deepEqual(
    tokens.filter((t) => t.special).map((t) => [t.text, t.id]),
    [
      ['<tool_call>', ADDED.toolCall],
      ['</tool_call>', ADDED.toolCallEnd],
      ['<|im_end|>', ADDED.imEnd],
    ],
  );
  // 😀 is four byte tokens: three hold no whole character, the last ends it.
  const emoji = tokens.filter((t) => t.bytes !== undefined);
  assert.deepEqual(
    emoji.map((t) => [t.text, t.bytes]),
    [
      ['', '\\xF0'],
      ['', '\\x9F'],
      ['', '\\x98'],
      ['😀', '\\x80'],
    ],
  );
});

test('GGUF: the header vocabulary gives the same ids as the tokenizer.json; unknown pre-tokenizers are named', () => {
  const dir = tempDir('gguf');
  // An Ollama blob: no extension, recognised by its magic.
  const blob = writeGguf(join(dir, 'sha256-0123abcd'));
  clearLocalTokenizers();
  const gguf = loadLocalTokenizer(blob, 'hermes', getFormat('hermes').tokenizer);
  const json = loadLocalTokenizer(writeTokenizerJson(join(dir, 'json')), 'hermes', getFormat('hermes').tokenizer);
  for (const text of ['ok the <tool_call>\n{"a": 1}\n</tool_call><|im_end|>', 'a  b\t\tthe   end\n\n', '東京 😀 naïve']) {
    assert.deepEqual(
      gguf.tokenize(text).map((t) => t.id),
      json.tokenize(text).map((t) => t.id),
      text,
    );
    assertTiles(text, gguf.tokenize(text));
  }
  assert.equal(gguf.name, 'GGUF (sha256-0123abcd)');
  // A pre-tokenizer Toolscope does not know for the format: approximate, saying which.
  const llama = writeGguf(join(dir, 'llama.gguf'), { pre: 'llama-bpe' });
  const choice = chooseTokenizer(getFormat('hermes'), [], { any: llama }, loadLocalTokenizer);
  assert.equal(choice.tokenizer.approximate, true);
  assert.match(choice.note ?? '', /pre-tokenizer "llama-bpe" is not one Toolscope knows for this format \(it knows "qwen2"\)/u);
  assert.match(
    chooseTokenizer(getFormat('hermes'), [], { any: writeGguf(join(dir, 'spm.gguf'), { model: 'llama' }) }, loadLocalTokenizer).note ?? '',
    /tokenizer\.ggml\.model "llama" is not read/u,
  );
});

test('clear errors: missing path, corrupt tiktoken.model, truncated GGUF, not JSON, a tiktoken.model for a format without its pattern', () => {
  clearLocalTokenizers();
  const dir = tempDir('broken');
  const note = (format: string, path: string) => {
    const choice = chooseTokenizer(getFormat(format), [], { any: path }, loadLocalTokenizer);
    assert.equal(choice.tokenizer.approximate, true);
    return choice.note ?? '';
  };
  assert.match(note('kimi_k2', join(dir, 'nope')), /no tokenizer at .*nope: the path does not exist/u);
  assert.match(
    note('kimi_k2', writeKimiFolder(join(dir, 'corrupt'), { corruptLine: 3 })),
    /tiktoken\.model line 3: expected "<base64 token> <rank>"/u,
  );
  assert.match(note('hermes', writeGguf(join(dir, 'cut.gguf'), { truncateAt: 200 })), /the GGUF header ends early/u);
  const notJson = join(dir, 'tokenizer.json');
  writeFileSync(notJson, '{"model": ');
  assert.match(note('hermes', notJson), /tokenizer\.json is not valid JSON/u);
  const notGguf = join(dir, 'blob');
  writeFileSync(notGguf, 'hello');
  assert.match(note('hermes', notGguf), /is not a tokenizer Toolscope reads/u);
  assert.match(note('hermes', writeKimiFolder(join(dir, 'kimi-for-hermes'))), /knows none for this format/u);
  assert.match(note('kimi_k2', tempDir('empty')), /holds no tokenizer: expected tiktoken\.model/u);
});

test('order: o200k_harmony is built in; a path per model name beats one per format, which beats the catch-all', () => {
  assert.equal(chooseTokenizer(getFormat('harmony'), [], undefined, undefined).tokenizer.name, 'o200k_harmony');
  assert.equal(chooseTokenizer(getFormat('harmony'), [], undefined, undefined).note, null);
  const paths = { byName: { 'Kimi-K2-Instruct': '/a', kimi_k2: '/b' }, any: '/c' };
  assert.equal(pathFor(paths, 'kimi_k2', ['moonshotai/Kimi-K2-Instruct']), '/a');
  assert.equal(pathFor(paths, 'kimi_k2', ['other']), '/b');
  assert.equal(pathFor(paths, 'hermes', []), '/c');
  assert.equal(pathFor(undefined, 'hermes', []), undefined);
});

test('a process that reads no files (no reader handed in): a set path is a note, the approximate splitter is used', () => {
  const dir = writeKimiFolder(join(tempDir('unread'), 'Kimi-K2-Instruct'));
  const choice = chooseTokenizer(getFormat('kimi_k2'), [], { any: dir }, undefined);
  assert.equal(choice.tokenizer.approximate, true);
  assert.match(choice.note ?? '', /was not read: this process reads no tokenizer files/u);
  // With the reader, the same path gives the model's tokens.
  assert.equal(chooseTokenizer(getFormat('kimi_k2'), [], { any: dir }, loadLocalTokenizer).tokenizer.approximate, false);
});

test('marker-split is not judged on re-encoded tokens: a marker the tokenizer splits is how it splits, not what the engine did', () => {
  clearLocalTokenizers();
  // <tool_call> is not an added token here: re-encoding splits it into pieces.
  const dir = writeTokenizerJson(join(tempDir('no-markers'), 'Tiny'), { markersAdded: false });
  const text = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>';
  const record: TraceRecord = { toolscope: 1, id: 'h', meta: { format: 'hermes' }, completion: { text } };
  const a = analyze(record, { tokenizers: { any: dir } });
  assert.equal(a.completion?.source, 're-encoded');
  assert.ok(a.completion.tokens.filter((t) => t.charStart < 11).length > 1, 'the marker is several tokens');
  assert.equal(a.diagnostics.filter((d) => d.kind === 'marker-split').length, 0);
  // The same split, recorded by the engine, is a finding.
  const pieces = ['<', 'tool', '_call', '>', text.slice(11)];
  const recorded = analyze({ ...record, completion: { text, tokens: pieces.map((p) => ({ text: p })) } }, {});
  assert.equal(recorded.completion?.source, 'recorded');
  assert.ok(recorded.diagnostics.some((d) => d.kind === 'marker-split'));
});

test('a tokenizer_config.json id far past the vocabulary is refused at once (reserved tokens were filled up to it)', () => {
  clearLocalTokenizers();
  const dir = writeKimiFolder(join(tempDir('far-id'), 'Kimi-K2-Instruct'));
  const configPath = join(dir, 'tokenizer_config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as { added_tokens_decoder: Record<string, unknown> };
  config.added_tokens_decoder['400000000'] = { content: '<|far|>', special: true };
  writeFileSync(configPath, JSON.stringify(config));
  const started = performance.now();
  const choice = chooseTokenizer(getFormat('kimi_k2'), [], { any: dir }, loadLocalTokenizer);
  assert.ok(performance.now() - started < 5000, 'refused at once');
  assert.equal(choice.tokenizer.approximate, true);
  assert.match(
    choice.note ?? '',
    /added_tokens_decoder id 400000000 is past the vocabulary \(the ranks end at \d+; special tokens follow them within 65536 ids\)/u,
  );
});

test('a GGUF whose merges make a string outside its vocabulary falls back to approximate tokens with the reason; the record loads', () => {
  clearLocalTokenizers();
  // "z"+"q" is no token of the vocabulary: tokenizing "zq" made bytes without an id and lost the record.
  const bad = writeGguf(join(tempDir('gguf-bad'), 'bad.gguf'), { extraMerges: ['z q'] });
  const record: TraceRecord = { toolscope: 1, id: 'r', meta: { format: 'hermes' }, completion: { text: 'zq ok' } };
  const a = analyze(record, { tokenizers: { any: bad } });
  assert.notEqual(a.completion?.source, 're-encoded');
  assert.ok(a.completion?.tokens.every((t) => t.approximate));
  assert.equal(a.completion?.tokens.map((t) => t.text).join(''), 'zq ok');
  const choice = chooseTokenizer(getFormat('hermes'), [], { any: bad }, loadLocalTokenizer);
  assert.equal(choice.tokenizer.approximate, true);
  assert.match(choice.note ?? '', /bad\.gguf: merge 5 "z q" makes a string that is not in its vocabulary/u);
});

test('a tokenizer.json Split pattern that repeats a repetition ((a+)+$) is refused at load: approximate tokens with the reason', () => {
  clearLocalTokenizers();
  const dir = writeTokenizerJson(join(tempDir('redos'), 'Qwen3-8B'));
  const path = join(dir, 'tokenizer.json');
  const json = JSON.parse(readFileSync(path, 'utf8')) as { pre_tokenizer: { pretokenizers: Array<{ pattern?: { Regex: string } }> } };
  const split = json.pre_tokenizer.pretokenizers[0];
  if (split?.pattern) split.pattern.Regex = '(a+)+$';
  writeFileSync(path, JSON.stringify(json));
  // Loaded, the pattern took exponential time on 'aaaa…ab' (a record with such a run ran until killed).
  const choice = chooseTokenizer(getFormat('hermes'), [], { any: dir }, loadLocalTokenizer);
  assert.equal(choice.tokenizer.approximate, true);
  assert.match(choice.note ?? '', /the pattern "\(a\+\)\+\$" repeats a repetition \(\(a\+\)\+\), which can backtrack for ever/u);
  const record: TraceRecord = { toolscope: 1, id: 'r', meta: { format: 'hermes' }, completion: { text: `${'a'.repeat(64)}b` } };
  const a = analyze(record, { tokenizers: { any: dir } });
  assert.equal(a.completion?.tokens.map((t) => t.text).join(''), `${'a'.repeat(64)}b`);
});
