/**
 * Grammars derived from tags kept in a store (xgrammar.ts `keepDerivedGrammarsIn`): a tag's grammar is derived and
 * kept once, then read back instead of derived, with the same verdicts; a kept grammar xgrammar refuses is derived
 * again, so the store can only make a what-if faster, never change it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileStructuralTag, grammarAccepts, keepDerivedGrammarsIn } from '../../../src/core/guided/xgrammar.ts';
import type { DerivedGrammar, DerivedGrammarStore } from '../../../src/core/guided/derivedGrammarStore.ts';
import { buildKimiStructuralTag } from '../../../src/core/formats/kimiK2/kimiK2StructuralTag.ts';
import { call, section, TOOLS } from './fixtures.ts';

class MemoryStore implements DerivedGrammarStore {
  readonly kept = new Map<string, DerivedGrammar>();
  reads = 0;
  writes = 0;
  read(key: string): DerivedGrammar | undefined {
    this.reads++;
    return this.kept.get(key);
  }
  write(key: string, grammar: DerivedGrammar): void {
    this.writes++;
    this.kept.set(key, grammar);
  }
}

const TAG = buildKimiStructuralTag(TOOLS, 'auto');
const GOOD = section(call('get_weather', 0, '{"city": "Paris"}'));
const BAD = section(call('get_weather', 0, '{"town": "Paris"}'));

async function verdicts(): Promise<boolean[]> {
  // compileStructuralTag itself, not the in-memory cache in front of it: each call derives or reads the store.
  const grammar = await compileStructuralTag(TAG);
  return [await grammarAccepts(grammar, GOOD), await grammarAccepts(grammar, BAD)];
}

test('a derived grammar is kept once, then read back with the same EBNF and the same verdicts', async (t) => {
  const store = new MemoryStore();
  keepDerivedGrammarsIn(store);
  t.after(() => keepDerivedGrammarsIn(null));
  const first = await compileStructuralTag(TAG);
  assert.equal(store.writes, 1);
  assert.deepEqual(await verdicts(), [true, false]);
  const again = await compileStructuralTag(TAG);
  assert.equal(store.writes, 1, 'read back, not derived and kept again');
  assert.equal(again.ebnf, first.ebnf);
  assert.equal(again.root, first.root);
  assert.equal(again.route, first.route);
});

test('a kept grammar xgrammar refuses is derived again and replaced', async (t) => {
  const store = new MemoryStore();
  keepDerivedGrammarsIn(store);
  t.after(() => keepDerivedGrammarsIn(null));
  const { key } = await compileStructuralTag(TAG);
  store.kept.set(key, { ebnf: 'root ::= (', root: 'root', route: 'direct' });
  assert.deepEqual(await verdicts(), [true, false]);
  assert.notEqual(store.kept.get(key)?.ebnf, 'root ::= (', 'the refused grammar was replaced');
});

test('without a store every compile derives its grammar', async () => {
  keepDerivedGrammarsIn(null);
  assert.deepEqual(await verdicts(), [true, false]);
});
