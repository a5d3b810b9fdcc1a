/**
 * Derived grammars kept as files (src/io/cache/derivedGrammarFiles.ts): read back only whole and only by the build
 * that wrote them, other builds' files removed, at most so many kept, nothing when caching is off. The folder is used
 * only when it is the user's own directory: pointed (by a symlink) at a folder holding other files, nothing there is
 * read or deleted. A FIFO in place of a file is a miss, and a full disk leaves no temporary file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivedGrammarFiles } from '../../../src/io/cache/derivedGrammarFiles.ts';
import type { DerivedGrammar } from '../../../src/core/guided/derivedGrammarStore.ts';

const GRAMMAR: DerivedGrammar = { ebnf: 'root ::= "a"\n', root: 'root', route: 'direct' };
const BUILD_A = 'aaaaaaaaaaaaaaaa';
const BUILD_B = 'bbbbbbbbbbbbbbbb';
/** A tag's key (its sha256, as xgrammar.ts makes it). */
const key = (name: string) => createHash('sha256').update(name).digest('hex');

/** Runs `run` with XDG_CACHE_HOME at a scratch folder (`cacheHome`, or `<scratch>/cache`). */
function inScratchCache<T>(run: (grammars: string, scratch: string) => T, cacheHome?: (scratch: string) => string): T {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-grammars-'));
  const saved = { xdg: process.env.XDG_CACHE_HOME, off: process.env.TOOLSCOPE_CODE_CACHE };
  const home = cacheHome?.(dir) ?? join(dir, 'cache');
  process.env.XDG_CACHE_HOME = home;
  delete process.env.TOOLSCOPE_CODE_CACHE;
  try {
    return run(join(home, 'toolscope', 'grammars'), dir);
  } finally {
    if (saved.xdg === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved.xdg;
    if (saved.off !== undefined) process.env.TOOLSCOPE_CODE_CACHE = saved.off;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file in `dir` with its bytes. */
function snapshot(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'latin1')]));
}

test('a grammar written is read back by its key, by the same build only', () =>
  inScratchCache(() => {
    const store = derivedGrammarFiles(BUILD_A);
    assert.ok(store);
    assert.equal(store.read(key('k1')), undefined);
    store.write(key('k1'), GRAMMAR);
    assert.deepEqual(store.read(key('k1')), GRAMMAR);
    assert.equal(store.read(key('k2')), undefined);
    assert.equal(derivedGrammarFiles(BUILD_B)?.read(key('k1')), undefined, 'another build derives its own');
    assert.equal(derivedGrammarFiles('build-a'), null, 'a build is 16 hex digits');
    store.write('k1', GRAMMAR);
    assert.equal(store.read('k1'), undefined, 'a key is a sha256');
  }));

test('a file that does not read back whole (or sealed for another key) is a miss, and the next write replaces it', () =>
  inScratchCache((folder) => {
    const store = derivedGrammarFiles(BUILD_A);
    assert.ok(store);
    store.write(key('k1'), GRAMMAR);
    const [file] = readdirSync(folder);
    assert.ok(file);
    const good = readFileSync(join(folder, file), 'utf8');
    const header = good.slice(0, good.indexOf('\n') + 1);
    store.write(key('k2'), GRAMMAR);
    const other = readFileSync(join(folder, `${BUILD_A}-${key('k2')}.json`), 'utf8');
    for (const broken of [
      good.slice(0, -3),
      good.replace('root ::= \\"a\\"', 'root ::= \\"b\\"'),
      header + JSON.stringify({ ...GRAMMAR, ebnf: 'root ::= "b"\n' }),
      other,
      JSON.stringify(GRAMMAR),
      '',
    ]) {
      writeFileSync(join(folder, file), broken);
      assert.equal(store.read(key('k1')), undefined, JSON.stringify(broken));
    }
    store.write(key('k1'), GRAMMAR);
    assert.deepEqual(store.read(key('k1')), GRAMMAR);
  }));

test("another build's files and left-over temporary files go when this build writes; the newest 256 stay", () =>
  inScratchCache((folder) => {
    derivedGrammarFiles(BUILD_B)?.write(key('k1'), GRAMMAR);
    const store = derivedGrammarFiles(BUILD_A);
    assert.ok(store);
    // A temporary file a run left a while ago, and one being written right now by another thread.
    const old = `${BUILD_A}-${key('k9')}.json.${process.pid}.1.tmp`;
    const live = `${BUILD_A}-${key('k8')}.json.${process.pid}.2.tmp`;
    writeFileSync(join(folder, old), '');
    const then = new Date(Date.now() - 120_000);
    utimesSync(join(folder, old), then, then);
    writeFileSync(join(folder, live), '');
    store.write(key('k1'), GRAMMAR);
    assert.deepEqual(readdirSync(folder).sort(), [`${BUILD_A}-${key('k1')}.json`, live].sort());

    for (let i = 0; i < 260; i++) {
      store.write(key(`n${i}`), GRAMMAR);
      // Distinct times, oldest first, whatever the file system's resolution.
      const at = new Date(Date.now() - (300 - i) * 1000);
      utimesSync(join(folder, `${BUILD_A}-${key(`n${i}`)}.json`), at, at);
    }
    store.write(key('last'), GRAMMAR);
    const kept = readdirSync(folder).filter((f) => f.endsWith('.json'));
    assert.equal(kept.length, 256);
    assert.ok(kept.includes(`${BUILD_A}-${key('last')}.json`) && kept.includes(`${BUILD_A}-${key('n259')}.json`));
    assert.ok(!kept.includes(`${BUILD_A}-${key('n0')}.json`), 'the oldest went first');
  }));

test("the grammar folder (or toolscope's) a symlink to a folder holding other files: nothing there is read or deleted", () =>
  inScratchCache((grammars, scratch) => {
    // The other folder holds files of every kind the store would prune, and one it would read as a hit.
    const other = join(scratch, 'other');
    mkdirSync(other, { mode: 0o700 });
    const files = ['notes.txt', `${BUILD_B}-${key('k1')}.json`, `${BUILD_A}-${key('k1')}.json.1.0.tmp`];
    for (const f of files) writeFileSync(join(other, f), f);
    inScratchCache((real) => {
      derivedGrammarFiles(BUILD_A)?.write(key('k1'), GRAMMAR);
      writeFileSync(join(other, `${BUILD_A}-${key('k1')}.json`), readFileSync(join(real, `${BUILD_A}-${key('k1')}.json`)));
    });
    const before = snapshot(other);

    mkdirSync(join(grammars, '..'), { recursive: true, mode: 0o700 });
    symlinkSync(other, grammars);
    assert.equal(derivedGrammarFiles(BUILD_A), null, 'no store in a linked grammar folder');
    rmSync(grammars);
    rmSync(join(grammars, '..'), { recursive: true });
    symlinkSync(other, join(grammars, '..'));
    assert.equal(derivedGrammarFiles(BUILD_A), null, 'nor under a linked toolscope folder');
    assert.deepEqual(snapshot(other), before, 'every file there is as it was');
  }));

test('a symlinked cache folder above ours (~/.cache elsewhere) is allowed; a folder others can reach is not', () =>
  inScratchCache(
    (grammars, scratch) => {
      const store = derivedGrammarFiles(BUILD_A);
      assert.ok(store, 'XDG_CACHE_HOME is a link to a folder elsewhere');
      store.write(key('k1'), GRAMMAR);
      assert.deepEqual(readdirSync(join(scratch, 'real-cache', 'toolscope', 'grammars')), [`${BUILD_A}-${key('k1')}.json`]);
      assert.deepEqual(store.read(key('k1')), GRAMMAR);
      chmodSync(grammars, 0o755);
      assert.equal(derivedGrammarFiles(BUILD_A), null, 'a grammar folder of mode 0755');
      chmodSync(grammars, 0o700);
      chmodSync(join(grammars, '..'), 0o777);
      assert.equal(derivedGrammarFiles(BUILD_A), null, 'a toolscope folder of mode 0777');
    },
    (scratch) => {
      mkdirSync(join(scratch, 'real-cache'));
      symlinkSync(join(scratch, 'real-cache'), join(scratch, 'cache'));
      return join(scratch, 'cache');
    },
  ));

test('a FIFO in place of a grammar file is a miss, not a hang; the write replaces it', () =>
  inScratchCache((folder) => {
    const store = derivedGrammarFiles(BUILD_A);
    assert.ok(store);
    execFileSync('mkfifo', [join(folder, `${BUILD_A}-${key('k1')}.json`)]);
    assert.equal(store.read(key('k1')), undefined);
    store.write(key('k1'), GRAMMAR);
    assert.deepEqual(store.read(key('k1')), GRAMMAR);
  }));

test('a full disk (ENOSPC from node:fs writes): the grammar is not kept and no temporary file is left', () =>
  inScratchCache((folder) => {
    const store = derivedGrammarFiles(BUILD_A);
    assert.ok(store);
    const write = fs.writeSync;
    fs.writeSync = ((fd: number, buffer: Uint8Array, offset?: number, length?: number, position?: number | null) => {
      // Half the header goes to disk, then the disk is full.
      write(fd, buffer, offset, Math.min(length ?? buffer.length, 40), position);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    }) as unknown as typeof fs.writeSync;
    syncBuiltinESMExports();
    try {
      store.write(key('k1'), GRAMMAR);
    } finally {
      fs.writeSync = write;
      syncBuiltinESMExports();
    }
    assert.deepEqual(readdirSync(folder), [], 'no grammar, no temporary file');
    assert.equal(store.read(key('k1')), undefined);
  }));

test('TOOLSCOPE_CODE_CACHE=0: no store', () =>
  inScratchCache(() => {
    process.env.TOOLSCOPE_CODE_CACHE = '0';
    try {
      assert.equal(derivedGrammarFiles(BUILD_A), null);
    } finally {
      delete process.env.TOOLSCOPE_CODE_CACHE;
    }
  }));
