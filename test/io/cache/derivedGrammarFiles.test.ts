/**
 * Derived grammars kept as files (src/io/cache/derivedGrammarFiles.ts): read back only whole and only by the build
 * that wrote them, other builds' files removed, at most so many kept, nothing when caching is off.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivedGrammarFiles } from '../../../src/io/cache/derivedGrammarFiles.ts';
import type { DerivedGrammar } from '../../../src/core/guided/derivedGrammarStore.ts';

const GRAMMAR: DerivedGrammar = { ebnf: 'root ::= "a"\n', root: 'root', route: 'direct' };

function inScratchCache<T>(run: (folder: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-grammars-'));
  const saved = { xdg: process.env.XDG_CACHE_HOME, off: process.env.TOOLSCOPE_CODE_CACHE };
  process.env.XDG_CACHE_HOME = dir;
  delete process.env.TOOLSCOPE_CODE_CACHE;
  try {
    return run(join(dir, 'toolscope', 'grammars'));
  } finally {
    if (saved.xdg === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved.xdg;
    if (saved.off !== undefined) process.env.TOOLSCOPE_CODE_CACHE = saved.off;
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a grammar written is read back by its key, by the same build only', () =>
  inScratchCache(() => {
    const store = derivedGrammarFiles('build-a');
    assert.ok(store);
    assert.equal(store.read('k1'), undefined);
    store.write('k1', GRAMMAR);
    assert.deepEqual(store.read('k1'), GRAMMAR);
    assert.equal(store.read('k2'), undefined);
    assert.equal(derivedGrammarFiles('build-b')?.read('k1'), undefined, 'another build derives its own');
  }));

test('a file that does not read back whole is a miss, and the next write replaces it', () =>
  inScratchCache((folder) => {
    const store = derivedGrammarFiles('build-a');
    assert.ok(store);
    store.write('k1', GRAMMAR);
    const [file] = readdirSync(folder);
    assert.ok(file);
    for (const broken of [
      '{"key":"k1","ebnf":"root ::= ',
      '{"key":"other","ebnf":"x","root":"root","route":"direct"}',
      '{"key":"k1","ebnf":1}',
      '',
    ]) {
      writeFileSync(join(folder, file), broken);
      assert.equal(store.read('k1'), undefined, JSON.stringify(broken));
    }
    store.write('k1', GRAMMAR);
    assert.deepEqual(store.read('k1'), GRAMMAR);
  }));

test("another build's files and left-over temporary files go when this build writes; the newest 256 stay", () =>
  inScratchCache((folder) => {
    derivedGrammarFiles('old-build')?.write('k1', GRAMMAR);
    const store = derivedGrammarFiles('build-a');
    assert.ok(store);
    // A temporary file a run left a while ago, and one being written right now by another thread.
    writeFileSync(join(folder, 'build-a-k9.json.1.0.tmp'), '');
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(folder, 'build-a-k9.json.1.0.tmp'), old, old);
    writeFileSync(join(folder, 'build-a-k8.json.2.0.tmp'), '');
    store.write('k1', GRAMMAR);
    assert.deepEqual(readdirSync(folder).sort(), ['build-a-k1.json', 'build-a-k8.json.2.0.tmp']);

    for (let i = 0; i < 260; i++) {
      store.write(`n${i}`, GRAMMAR);
      // Distinct times, oldest first, whatever the file system's resolution.
      const at = new Date(Date.now() - (300 - i) * 1000);
      utimesSync(join(folder, `build-a-n${i}.json`), at, at);
    }
    store.write('last', GRAMMAR);
    const kept = readdirSync(folder).filter((f) => f.endsWith('.json'));
    assert.equal(kept.length, 256);
    assert.ok(kept.includes('build-a-last.json') && kept.includes('build-a-n259.json'));
    assert.ok(!kept.includes('build-a-n0.json'), 'the oldest went first');
  }));

test('TOOLSCOPE_CODE_CACHE=0: no store', () =>
  inScratchCache(() => {
    process.env.TOOLSCOPE_CODE_CACHE = '0';
    try {
      assert.equal(derivedGrammarFiles('build-a'), null);
    } finally {
      delete process.env.TOOLSCOPE_CODE_CACHE;
    }
  }));
