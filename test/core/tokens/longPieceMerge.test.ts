/**
 * Long pieces merge in n log n (issue 30: a 50 kB run of letters in a gpt-oss record took 37 s, the merge being
 * quadratic): the heap merge makes exactly the scan's merges on o200k's ranks, agrees with gpt-tokenizer, and a
 * 50 kB run is tokenized in a child that is killed if it takes 15 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode as referenceEncode } from 'gpt-tokenizer/encoding/o200k_harmony';
import { mergeByHeap, mergeByScan, tiktokenModel } from '../../../src/core/tokens/bytePairEncoder.ts';
import { o200kHarmony, o200kRanks } from '../../../src/core/formats/harmony/o200kHarmony.ts';
import { runTsChild } from '../../childProcess.ts';

/** A deterministic pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("the heap merge makes the scan merge's parts on o200k ranks, for pieces of 2 to 1,000 bytes", () => {
  const model = tiktokenModel(o200kRanks());
  const next = random(30);
  for (const alphabet of ['ab', 'abcdefghijklmnopqrstuvwxyz', 'aeiou rst', 'xyzzy0123456789', 'éa']) {
    const letters = [...alphabet];
    for (const length of [2, 3, 65, 100, 257, 1000]) {
      const text = Array.from({ length }, () => letters[Math.floor(next() * letters.length)] as string).join('');
      const bytes = Buffer.from(text, 'utf8').toString('latin1');
      assert.deepEqual(mergeByHeap(model, bytes), mergeByScan(model, bytes), `${alphabet} × ${length}`);
    }
  }
});

test('a 20 kB run of letters: the same ids as gpt-tokenizer', () => {
  const next = random(7);
  const text = Array.from({ length: 20_000 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(next() * 26)]).join('');
  assert.deepEqual(o200kHarmony().encode(text), referenceEncode(text));
});

test('a 50 kB run of letters in a gpt-oss completion is tokenized in a child killed after 15 s (it took 37 s)', () => {
  const script = `
    import { o200kHarmony } from ${JSON.stringify(new URL('../../../src/core/formats/harmony/o200kHarmony.ts', import.meta.url).href)};
    let text = '';
    let seed = 1;
    for (let i = 0; i < 50_000; i++) { seed = (seed * 1103515245 + 12345) % 2147483648; text += 'abcdefghijklmnopqrstuvwxyz'[seed % 26]; }
    const tokens = o200kHarmony().tokenize('<|channel|>final<|message|>' + text + '<|return|>');
    process.stdout.write(String(tokens.map((t) => t.text).join('').length));`;
  const r = runTsChild(script, [], 15_000);
  assert.equal(r.signal, null, 'killed after 15 s');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, String('<|channel|>final<|message|>'.length + 50_000 + '<|return|>'.length));
});
