/**
 * The built CLI's V8 code cache (src/io/cache/codeCache.ts) can only cost time: V8 release builds run whatever a code
 * cache holds once its version, flags and source length match, so a few flipped bytes crashed every command (exit
 * 133/139, `--version` included) until the file was deleted by hand, and a bundle rebuilt with the same size and time
 * ran the old code. Here a cache corrupted at 50 random places (random lengths, the header included) is a miss each
 * time: the command succeeds and the cache is written again; and a bundle changed in place (same size, same mtime)
 * runs its new code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build, type Plugin } from 'esbuild';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '../..');

/** The launcher and the CLI's bundle, built as scripts/build.mjs builds them for start-up (whitespace out, ASCII). */
async function buildCli(dir: string): Promise<void> {
  const common = { bundle: true, platform: 'node' as const, target: 'node20', format: 'cjs' as const, logLevel: 'warning' as const };
  const { umdAsCommonJs, ranksBesideBundle } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as Record<
    string,
    Plugin
  >;
  const startup = { ...common, minifyWhitespace: true, plugins: [umdAsCommonJs as Plugin, ranksBesideBundle as Plugin] };
  await Promise.all([
    build({ ...startup, entryPoints: [join(ROOT, 'src/cli/launcher.ts')], outfile: join(dir, 'cli.js') }),
    build({ ...startup, entryPoints: [join(ROOT, 'src/cli/main.ts')], outfile: join(dir, 'cli-main.js') }),
  ]);
}

function version(dir: string, cache: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), '--version'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cache, TOOLSCOPE_CODE_CACHE: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The one code cache file in the cache folder. */
function cacheFile(cache: string): string {
  const files = readdirSync(join(cache, 'toolscope')).filter((f) => f.startsWith('cli-main.js-'));
  assert.equal(files.length, 1, files.join(', '));
  return join(cache, 'toolscope', files[0] as string);
}

/** Whether `bytes` are a whole sealed cache: the header's sha256 and length are those of the bytes after it. */
function sealed(bytes: Buffer): boolean {
  const end = bytes.indexOf(0x0a);
  const [, , , sha, length] = bytes.toString('latin1', 0, end).split(' ');
  const payload = bytes.subarray(end + 1);
  return length === String(payload.length) && sha === createHash('sha256').update(payload).digest('hex');
}

/** mulberry32: the same places every run for a seed. */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

test('a code cache corrupted at 50 random places: every run succeeds and writes the cache again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-code-cache-'));
  const cache = join(dir, 'cache');
  try {
    await buildCli(dir);
    const first = version(dir, cache);
    assert.equal(first.code, 0, first.stderr);
    const file = cacheFile(cache);
    const seed = Number(process.env.TOOLSCOPE_TEST_SEED ?? 29);
    const rand = random(seed);
    for (let i = 0; i < 50; i++) {
      const good = readFileSync(file);
      assert.ok(sealed(good), `run ${i}: the cache is whole`);
      // A few in the header (what it is for, its hash, its length), the rest anywhere.
      const header = good.indexOf(0x0a) + 1;
      const at = i < 5 ? rand(header) : rand(good.length);
      const length = 1 + rand(Math.min(512, good.length - at));
      const bad = Buffer.from(good);
      for (let j = at; j < at + length; j++) bad[j] = (bad[j] as number) ^ (1 + rand(255));
      writeFileSync(file, bad);
      const r = version(dir, cache);
      const where = `seed ${seed}, run ${i}: ${length} bytes at ${at} of ${good.length}`;
      assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: first.stdout }, `${where}\n${r.stderr}`);
      assert.ok(!readFileSync(file).equals(bad), `${where}: the cache is written again`);
    }
    assert.ok(sealed(readFileSync(file)));
    assert.deepEqual(
      readdirSync(join(cache, 'toolscope')).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file is left',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bundle changed in place with the same size and mtime runs its new code, not the cached old code', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-code-cache-'));
  const cache = join(dir, 'cache');
  try {
    await buildCli(dir);
    // A time in whole seconds, which utimes sets again exactly.
    const bundle = join(dir, 'cli-main.js');
    const at = 1_700_000_000;
    utimesSync(bundle, at, at);
    assert.equal(version(dir, cache).stdout, '0.0.0-dev\n');
    const old = cacheFile(cache);
    const second = version(dir, cache);
    assert.equal(second.stdout, '0.0.0-dev\n', 'the cache was used');
    assert.equal(cacheFile(cache), old);

    const { size } = statSync(bundle);
    const text = readFileSync(bundle, 'latin1');
    assert.ok(text.includes('"0.0.0-dev"'));
    writeFileSync(bundle, text.replaceAll('"0.0.0-dev"', '"9.9.9-new"'), 'latin1');
    utimesSync(bundle, at, at);
    assert.deepEqual([statSync(bundle).size, statSync(bundle).mtimeMs], [size, at * 1000], 'same size and time');

    const rebuilt = version(dir, cache);
    assert.deepEqual({ code: rebuilt.code, stdout: rebuilt.stdout }, { code: 0, stdout: '9.9.9-new\n' }, rebuilt.stderr);
    assert.notEqual(cacheFile(cache), old, "the new bundle's cache replaced the old one's");
    assert.equal(version(dir, cache).stdout, '9.9.9-new\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
