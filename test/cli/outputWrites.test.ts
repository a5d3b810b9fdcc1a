/**
 * `report -o`, `--sarif` and `--junit` are written to a temporary file and renamed: a write that fails part-way
 * (here the real EFBIG of a file-size limit, `ulimit -f`, as a full disk's ENOSPC would) leaves the old file as it
 * was and no temporary file, with a clean `cannot write` error and exit status 2 (it printed a stack, exit 70, and
 * left a truncated page). A special file is written in place: /dev/full fails the same clean way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, runBuiltCli } from './builtCli.ts';

const TRACE = join(REPO, 'samples', 'kimi-k2-raw-completions.jsonl');

/** The built CLI under a file-size limit of `kb` kB (SIGXFSZ ignored, so a write past it fails with EFBIG). */
function cliLimited(kb: number, args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(
    'sh',
    ['-c', `trap "" XFSZ; ulimit -f ${kb * 2}; exec "$0" "$@"`, process.execPath, join(REPO, 'dist', 'cli.js'), ...args],
    {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', TOOLSCOPE_CODE_CACHE: '0' },
    },
  );
  return { status: r.status, stderr: r.stderr };
}

test('a report -o that cannot be written whole leaves the old report and no temporary file; exit 2, no stack', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-write-'));
  try {
    const out = join(dir, 'report.html');
    await writeFile(out, 'the old report');
    const r = cliLimited(20, ['report', TRACE, '-o', out, '--no-guided']);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr, `toolscope: cannot write ${out}: EFBIG: file too large, write\n`);
    assert.equal(await readFile(out, 'utf8'), 'the old report');
    assert.deepEqual(await readdir(dir), ['report.html']);
    // Without the limit it is replaced.
    const ok = runBuiltCli(['report', TRACE, '-o', out, '--no-guided']);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(await readFile(out, 'utf8'), /^<!doctype html>/i);
    assert.deepEqual(await readdir(dir), ['report.html']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('analyze --sarif / --junit that cannot be written leave the old files; exit 2', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-write-'));
  try {
    const sarif = join(dir, 'out.sarif');
    const junit = join(dir, 'junit.xml');
    await writeFile(sarif, 'old sarif');
    await writeFile(junit, 'old junit');
    const big = join(dir, 'big.jsonl');
    // Enough records that the SARIF log outgrows the limit.
    await writeFile(big, (await readFile(TRACE, 'utf8')).repeat(40));
    for (const flag of ['--sarif', '--junit']) {
      const target = flag === '--sarif' ? sarif : junit;
      const r = cliLimited(8, ['analyze', big, '--no-guided', flag, target]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`toolscope: cannot write ${target.replace(/[.]/g, '\\.')}: EFBIG`));
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
    assert.equal(await readFile(sarif, 'utf8'), 'old sarif');
    assert.equal(await readFile(junit, 'utf8'), 'old junit');
    assert.deepEqual((await readdir(dir)).sort(), ['big.jsonl', 'junit.xml', 'out.sarif']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a special file is written in place: report -o /dev/full is a clean error, exit 2', () => {
  const r = runBuiltCli(['report', TRACE, '-o', '/dev/full', '--no-guided']);
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr, 'toolscope: cannot write /dev/full: ENOSPC: no space left on device, write\n');
});
