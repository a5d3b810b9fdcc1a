/**
 * The `toolscope` command as built (scripts/build.mjs): the launcher loads the CLI bundle through V8's code
 * cache. A first run writes the cache, later runs use it, a corrupt or foreign cache is rewritten, and the output
 * and exit code are the same every way; TOOLSCOPE_STARTUP_MARKS=1 prints the start-up timeline the bench reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli } from './cliBundles.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');

function run(dir: string, cache: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), 'analyze', SAMPLE, '--json', '--fail-on', 'error'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cache, ...env },
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the code cache is written, used and rewritten when bad; output and exit code never change', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-launcher-'));
  const cache = join(dir, 'cache');
  try {
    await buildCli(dir);
    const plain = run(dir, cache, { TOOLSCOPE_CODE_CACHE: '0' });
    assert.equal(plain.code, 1, 'the sample has errors: --fail-on error exits 1');
    assert.ok(plain.stdout.split('\n').length > 5);
    assert.throws(() => readdirSync(join(cache, 'toolscope')), 'TOOLSCOPE_CODE_CACHE=0 writes nothing');

    const first = run(dir, cache);
    assert.deepEqual({ code: first.code, stdout: first.stdout }, { code: plain.code, stdout: plain.stdout });
    // The code cache (beside it, the grammar worker's derived grammars: src/io/cache/derivedGrammarFiles.ts).
    const codeCaches = () => readdirSync(join(cache, 'toolscope')).filter((f) => f.endsWith('.v8cache'));
    const files = codeCaches();
    assert.equal(files.length, 1);
    const file = join(cache, 'toolscope', files[0] as string);
    assert.equal(statSync(join(cache, 'toolscope')).mode & 0o777, 0o700, "the cache folder is the user's own");
    const written = statSync(file).mtimeMs;

    const second = run(dir, cache);
    assert.deepEqual({ code: second.code, stdout: second.stdout }, { code: plain.code, stdout: plain.stdout });
    assert.equal(statSync(file).mtimeMs, written, 'a good cache is used, not rewritten');

    // A cache of an earlier build of the bundle is removed when a new one is written.
    const stale = join(cache, 'toolscope', 'cli-main.js-0123456789abcdef01234567.v8cache');
    writeFileSync(stale, 'an earlier build');
    writeFileSync(file, 'not a V8 code cache');
    const corrupt = run(dir, cache);
    assert.deepEqual({ code: corrupt.code, stdout: corrupt.stdout }, { code: plain.code, stdout: plain.stdout });
    assert.ok(statSync(file).size > 1000, 'a cache V8 rejects is written again');
    assert.deepEqual(codeCaches(), files, 'the stale cache of another build is gone');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('TOOLSCOPE_STARTUP_MARKS=1: one timeline line on stderr, in order; stdout unchanged', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-launcher-'));
  try {
    await buildCli(dir);
    const plain = run(dir, join(dir, 'cache'));
    const marked = run(dir, join(dir, 'cache'), { TOOLSCOPE_STARTUP_MARKS: '1' });
    assert.equal(marked.stdout, plain.stdout);
    const lines = marked.stderr.split('\n').filter((l) => l.startsWith('toolscope-startup-marks '));
    assert.equal(lines.length, 1);
    const marks = JSON.parse((lines[0] as string).slice('toolscope-startup-marks '.length)) as Record<string, number>;
    const order = ['launcher', 'bundle-loaded', 'first-record-read', 'parsed', 'checked', 'first-record-shown', 'main-done', 'exit'];
    for (const name of order) assert.equal(typeof marks[name], 'number', name);
    for (let i = 1; i < order.length; i++)
      assert.ok((marks[order[i] as string] as number) >= (marks[order[i - 1] as string] as number), `${order[i - 1]} before ${order[i]}`);
    assert.ok(marks['guided-ready'] !== undefined && marks['guided-answer'] !== undefined, 'the what-if ran');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
