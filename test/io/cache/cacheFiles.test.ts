/**
 * The files of a cache folder (src/io/cache/cacheFiles.ts): sealed, so a file that is not whole or not for its key
 * reads as a miss; only regular files of the folder's own names read, listed or removed; a FIFO is a miss without a
 * wait; a write that fails (ENOSPC, injected into node:fs's writes) leaves no temporary file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheFiles, isLeftOver } from '../../../src/io/cache/cacheFiles.ts';

const PATTERN = /^[a-z]+-[0-9a-f]{4}\.bin$/;

function inScratchFolder<T>(run: (folder: string) => T): T {
  const folder = mkdtempSync(join(tmpdir(), 'toolscope-cache-files-'));
  try {
    return run(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs `body` with every `fs.writeSync` failing as a full disk does once `budget` bytes have been written. */
function withFullDisk<T>(budget: number, body: () => T): T {
  const write = fs.writeSync;
  let left = budget;
  fs.writeSync = ((fd: number, buffer: Uint8Array, offset?: number, length?: number, position?: number | null) => {
    const want = length ?? buffer.length - (offset ?? 0);
    if (left <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    const n = write(fd, buffer, offset, Math.min(want, left), position);
    left -= n;
    return n;
  }) as typeof fs.writeSync;
  syncBuiltinESMExports();
  try {
    return body();
  } finally {
    fs.writeSync = write;
    syncBuiltinESMExports();
  }
}

test('a file written is read back for its seal only; any byte changed, cut or added is a miss', () =>
  inScratchFolder((folder) => {
    const files = cacheFiles(folder, PATTERN);
    const payload = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) & 0xff));
    assert.equal(files.read('code-0a1b.bin', 'seal-1'), undefined, 'missing');
    assert.equal(files.write('code-0a1b.bin', 'seal-1', payload), true);
    assert.deepEqual(files.read('code-0a1b.bin', 'seal-1'), payload);
    assert.equal(files.read('code-0a1b.bin', 'seal-2'), undefined, 'written for another key');
    assert.deepEqual(readdirSync(folder), ['code-0a1b.bin'], 'no temporary file stays');

    const path = join(folder, 'code-0a1b.bin');
    const good = readFileSync(path);
    const headerEnd = good.indexOf(0x0a) + 1;
    // Every byte of the header, and payload bytes spread over the file.
    const offsets = [...Array.from({ length: headerEnd }, (_, i) => i), ...Array.from({ length: 50 }, (_, i) => headerEnd + i * 99)];
    for (const at of offsets) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] as number) ^ 0x20;
      writeFileSync(path, bad);
      assert.equal(files.read('code-0a1b.bin', 'seal-1'), undefined, `byte ${at} changed`);
    }
    for (const bad of [
      good.subarray(0, good.length - 1),
      Buffer.concat([good, Buffer.from([0])]),
      good.subarray(0, headerEnd - 1),
      Buffer.alloc(0),
    ]) {
      writeFileSync(path, bad);
      assert.equal(files.read('code-0a1b.bin', 'seal-1'), undefined, `${bad.length} bytes of ${good.length}`);
    }
    assert.equal(files.read('other.bin', 'seal-1'), undefined, 'a name not of the pattern is not read');
    assert.equal(files.write('other.bin', 'seal-1', payload), false, 'nor written');
  }));

test('links, FIFOs and folders under a cache name are misses: not followed, waited on, listed or removed', () =>
  inScratchFolder((root) => {
    const folder = join(root, 'cache');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(folder);
    mkdirSync(elsewhere);
    const files = cacheFiles(folder, PATTERN);
    // A file that would read as a hit, reached through a link: not followed.
    files.write('code-0000.bin', 'seal', Buffer.from('kept'));
    writeFileSync(join(elsewhere, 'target.bin'), readFileSync(join(folder, 'code-0000.bin')));
    rmSync(join(folder, 'code-0000.bin'));
    symlinkSync(join(elsewhere, 'target.bin'), join(folder, 'code-0000.bin'));
    assert.equal(files.read('code-0000.bin', 'seal'), undefined, 'a link is not followed');
    mkdirSync(join(folder, 'code-0001.bin'));
    assert.equal(files.read('code-0001.bin', 'seal'), undefined, 'a folder');
    execFileSync('mkfifo', [join(folder, 'code-0002.bin')]);
    const started = performance.now();
    assert.equal(files.read('code-0002.bin', 'seal'), undefined, 'a FIFO');
    assert.ok(performance.now() - started < 1000, 'without waiting for a writer');
    writeFileSync(join(folder, 'notes.txt'), 'not ours');

    assert.deepEqual(files.entries(), [], 'none of them is a regular file of ours');
    for (const name of ['code-0000.bin', 'code-0002.bin', 'notes.txt']) files.remove(name);
    assert.deepEqual(readdirSync(elsewhere), ['target.bin'], "a link's target is never removed");
    assert.ok(readdirSync(folder).includes('notes.txt'), 'a name not of the pattern is never removed');

    // A write replaces the link or FIFO itself.
    assert.equal(files.write('code-0000.bin', 'seal', Buffer.from('new')), true);
    assert.equal(files.write('code-0002.bin', 'seal', Buffer.from('new')), true);
    assert.deepEqual(files.read('code-0002.bin', 'seal'), Buffer.from('new'));
    assert.equal(readFileSync(join(elsewhere, 'target.bin')).includes('kept'), true, "the link's target is unchanged");
  }));

test('a full disk: the write fails, its temporary file is removed, and what was there before is still read', () =>
  inScratchFolder((folder) => {
    const files = cacheFiles(folder, PATTERN);
    const before = Buffer.alloc(3000, 1);
    assert.equal(files.write('code-0a1b.bin', 'seal', before), true);
    for (const budget of [0, 10, 100, 2000]) {
      const written = withFullDisk(budget, () => files.write('code-0a1b.bin', 'seal', Buffer.alloc(5000, 2)));
      assert.equal(written, false, `ENOSPC after ${budget} bytes`);
      assert.deepEqual(readdirSync(folder), ['code-0a1b.bin'], `no temporary file after ${budget} bytes`);
      assert.deepEqual(files.read('code-0a1b.bin', 'seal'), before);
    }
  }));

test('entries list the regular files of the pattern and their temporary files; left-over ones are those of dead writers or old', () =>
  inScratchFolder((folder) => {
    const files = cacheFiles(folder, PATTERN);
    files.write('code-0a1b.bin', 'seal', Buffer.from('x'));
    // A live writer (this process, another thread), a dead one (no such pid), an old one, and a stranger's name.
    const live = `code-0a1b.bin.${process.pid}.7.tmp`;
    const dead = 'code-0a1b.bin.2147483646.0.tmp';
    const old = `code-0a1b.bin.${process.pid}.8.tmp`;
    for (const name of [live, dead, old, 'code-0a1b.bin.tmp', 'x.bin.1.0.tmp']) writeFileSync(join(folder, name), '');
    utimesSync(join(folder, old), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const entries = new Map(files.entries().map((e) => [e.name, e]));
    assert.deepEqual([...entries.keys()].sort(), ['code-0a1b.bin', dead, live, old].sort());
    assert.equal(entries.get(dead)?.file, 'code-0a1b.bin');
    const leftOver = [...entries.values()].filter((e) => isLeftOver(e)).map((e) => e.name);
    assert.deepEqual(leftOver.sort(), [dead, old].sort());
  }));
