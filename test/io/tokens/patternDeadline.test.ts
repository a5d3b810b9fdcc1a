/**
 * A tokenizer.json's patterns run against the clock (issue 30): a pattern whose blow-up the shape screen does not
 * see is stopped, the record gets approximate tokens with the reason, and a real tokenizer's pattern runs as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { Analyzer } from '../../../src/core/analysis.ts';
import type { TokenizerFileReader } from '../../../src/core/formats/tokenizerChoice.ts';
import { TokenizerJson } from '../../../src/core/tokens/tokenizerJson.ts';
import { PatternBudgetExceeded, nestedRepetition } from '../../../src/core/tokens/regexBacktracking.ts';
import { patternDeadline } from '../../../src/io/tokens/patternDeadline.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';
import { tempDir, writeTokenizerJson } from '../../core/tokens/tokenizerFiles.ts';

/** Overlapping branches under a repetition: exponential on 'aa…ab', and no repetition of a repetition. */
const HOSTILE = '(a|aa)+$';

/** A reader of tokenizer.json files whose runs get half a second (the loader's own budget is 10 s and more). */
const shortClock: TokenizerFileReader = (path) => {
  const file = join(path, 'tokenizer.json');
  return new TokenizerJson(
    'tokenizer.json (test)',
    JSON.parse(readFileSync(file, 'utf8')),
    {},
    file,
    patternDeadline({ baseMs: 500, perKiloCharMs: 0 }),
  );
};

function analyze(text: string, dir: string) {
  const record: TraceRecord = { toolscope: 1, id: 'r', meta: { format: 'hermes' }, completion: { text } };
  return new Analyzer({ tokenizers: { any: dir } }, { readTokenizer: shortClock }).analyze({
    record,
    line: 1,
    lastLine: 1,
    source: 'native',
  });
}

test('a Split pattern the shape screen misses ((a|aa)+$) is stopped by the clock: approximate tokens with the reason', () => {
  assert.equal(nestedRepetition(HOSTILE), null, 'the screen lets it through');
  const dir = writeTokenizerJson(tempDir('redos-clock'));
  const path = join(dir, 'tokenizer.json');
  const json = JSON.parse(readFileSync(path, 'utf8')) as { pre_tokenizer: { pretokenizers: Array<{ pattern?: { Regex: string } }> } };
  const split = json.pre_tokenizer.pretokenizers[0];
  assert.ok(split?.pattern);
  split.pattern.Regex = HOSTILE;
  writeFileSync(path, JSON.stringify(json));
  const reader = shortClock(dir, 'hermes', {});
  // A text the pattern does not blow up on is tokenized by the file as usual.
  assert.equal(
    reader
      .tokenize('hello')
      .map((t) => t.text)
      .join(''),
    'hello',
  );

  const text = `${'a'.repeat(80)}b`;
  const a = analyze(text, dir);
  assert.equal(a.completion?.source, 'approximate');
  assert.equal(a.completion?.tokens.map((t) => t.text).join(''), text);
  assert.match(
    a.completion?.tokenizerNote ?? '',
    /tokenizer\.json: its patterns ran past their budget on a text of 81 characters \(stopped after 0\.5 s\): a pattern that backtracks without end; this tokenizer is not used again/u,
  );
  // The tokenizer itself: stopped by the clock, then it refuses every later text at once, with the same reason.
  assert.throws(
    () => reader.tokenize(text),
    (err: Error) => err.cause instanceof PatternBudgetExceeded && /ran past their budget on a text of 81 characters/u.test(err.message),
  );
  assert.throws(() => reader.tokenize('hello'), /ran past their budget on a text of 81 characters/u);
});

test("a real tokenizer's pattern (Qwen2's Split) runs under the clock with the same tokens as without it", () => {
  const dir = writeTokenizerJson(tempDir('qwen-clock'));
  const path = join(dir, 'tokenizer.json');
  const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const free = new TokenizerJson('tokenizer.json (free)', json, {}, path);
  const clocked = new TokenizerJson('tokenizer.json (clocked)', json, {}, path, patternDeadline());
  const text =
    `The answer's 42.\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>  \n`.repeat(50);
  const tokens = clocked.tokenize(text);
  assert.deepEqual(tokens, free.tokenize(text));
  assert.equal(tokens.map((t) => t.text).join(''), text);
  const a = analyze('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>', dir);
  assert.equal(a.completion?.source, 're-encoded');
});

test('the clock passes on what a run returns and on any error of its own', () => {
  const budget = patternDeadline({ baseMs: 60_000, perKiloCharMs: 0 });
  assert.equal(
    budget(3, () => 'abc'.toUpperCase()),
    'ABC',
  );
  const own = new RangeError('not the clock');
  assert.throws(
    () =>
      budget(0, () => {
        throw own;
      }),
    (err) => err === own,
  );
  // The pattern the screen refuses at load, run on the clock directly: stopped too.
  const short = patternDeadline({ baseMs: 300, perKiloCharMs: 0 });
  assert.throws(() => short(61, () => /(a+)+$/u.test(`${'a'.repeat(60)}b`)), PatternBudgetExceeded);
  // Nested runs each keep their own run.
  assert.equal(
    budget(0, () => budget(0, () => 1) + 1),
    2,
  );
});
