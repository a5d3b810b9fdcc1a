/**
 * `--tokenizer` paths that are not regular files — a FIFO, /dev/zero, a tokenizer.json linked to /dev/zero — are
 * refused at once with the path named (each ran until killed), in a child so that a hang fails the test instead of
 * stopping the runner.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTsChild } from '../../childProcess.ts';

test('a FIFO, /dev/zero and a tokenizer.json linked to /dev/zero are refused as not regular files, at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-tokenizer-kinds-'));
  try {
    const fifo = join(dir, 'tokenizer.json');
    execFileSync('mkfifo', [fifo]);
    const linked = join(dir, 'linked');
    execFileSync('mkdir', [linked]);
    symlinkSync('/dev/zero', join(linked, 'tokenizer.json'));
    const script = `
      import { loadLocalTokenizer } from ${JSON.stringify(new URL('../../../src/io/tokens/localTokenizer.ts', import.meta.url).href)};
      import { getFormat } from ${JSON.stringify(new URL('../../../src/core/formats/registry.ts', import.meta.url).href)};
      for (const path of process.argv.slice(2)) {
        try {
          loadLocalTokenizer(path, 'kimi_k2', getFormat('kimi_k2').tokenizer);
          console.log('loaded ' + path);
        } catch (err) {
          console.log(err.message);
        }
      }`;
    const r = runTsChild(script, [fifo, '/dev/zero', linked], 20_000);
    assert.equal(r.signal, null, 'the child was killed: a read hung');
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      `${fifo} is not a regular file: a tokenizer is read only from one`,
      '/dev/zero is not a regular file: a tokenizer is read only from one',
      `${join(linked, 'tokenizer.json')} is not a regular file: a tokenizer is read only from one`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
