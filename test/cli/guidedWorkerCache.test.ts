/**
 * The CLI as `npm run build` makes it: the grammar worker's entry loads the engine's bundle through V8's code cache
 * (src/cli/guidedWorkerLoader.ts). The first run writes that cache once the worker has answered, later runs use it
 * without writing it again, and the output (the what-if's findings included) is the same with and without it, on one
 * thread and with a grammar worker per file thread. The worker also keeps the grammars it derives from tags
 * (src/io/cache/derivedGrammarFiles.ts), with the same output whether they are kept, read back, or bad.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');

function run(dir: string, cache: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), 'analyze', ...args, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cache, ...env },
    maxBuffer: 64 << 20,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** The CLI built as `npm run build` builds it, in a scratch folder with an empty cache folder beside it. */
async function builtCli(): Promise<{ dir: string; dist: string; cache: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-worker-cache-'));
  const { buildBundles } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
    buildBundles(o: { outdir: string }): Promise<unknown>;
  };
  await buildBundles({ outdir: join(dir, 'dist') });
  return { dir, dist: join(dir, 'dist'), cache: join(dir, 'cache') };
}

const engineCaches = (cache: string) => readdirSync(join(cache, 'toolscope')).filter((f) => f.startsWith('guidedWorker-engine.js-'));

test('the grammar worker loads its engine through the code cache: written once, then used; the output never changes', async () => {
  const { dir, dist, cache } = await builtCli();
  try {
    const plain = run(dist, cache, [SAMPLE], { TOOLSCOPE_CODE_CACHE: '0' });
    assert.match(plain, /"kind":"guided-accepts"/, 'the what-if ran');

    assert.equal(run(dist, cache, [SAMPLE]), plain, 'first run (writes the cache)');
    const [written] = engineCaches(cache);
    assert.ok(written, 'the engine cache is written by the first run');
    const stamp = statSync(join(cache, 'toolscope', written)).mtimeMs;
    assert.equal(run(dist, cache, [SAMPLE]), plain, 'second run (uses the cache)');
    assert.deepEqual(engineCaches(cache), [written]);
    assert.equal(statSync(join(cache, 'toolscope', written)).mtimeMs, stamp, 'a cache that was used is not written again');

    // A grammar worker per file thread, all loading through the one cache (and writing it at once when it is new).
    rmSync(join(cache, 'toolscope'), { recursive: true, force: true });
    const samples = join(ROOT, 'samples');
    const oneThread = run(dist, cache, [samples, '--jobs', '1'], { TOOLSCOPE_CODE_CACHE: '0' });
    for (let i = 0; i < 2; i++) assert.equal(run(dist, cache, [samples, '--jobs', '2']), oneThread, `--jobs 2, run ${i + 1}`);
    assert.equal(engineCaches(cache).length, 1);
    assert.deepEqual(
      readdirSync(join(cache, 'toolscope')).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file is left',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("short runs (WASM flags set at run time) and long runs share the CLI's cache and keep engine caches of their own: alternating, none is thrown away", async () => {
  const { dir, dist, cache } = await builtCli();
  try {
    const samples = join(ROOT, 'samples');
    // A file is a short run (the launcher sets V8 flags); a directory is a long one (it does not).
    const stamps = () =>
      new Map(readdirSync(join(cache, 'toolscope')).map((f) => [f, statSync(join(cache, 'toolscope', f)).mtimeMs] as const));
    run(dist, cache, [SAMPLE]);
    // The CLI's bundle loads before the flags are set, and its cache is written with them put back: one cache, the
    // one the first (short) run wrote.
    const written = stamps();
    run(dist, cache, [samples, '--jobs', '1']);
    const first = stamps();
    const cliCaches = [...first.keys()].filter((f) => f.startsWith('cli-main.js-'));
    assert.equal(cliCaches.length, 1, 'one CLI cache for both');
    assert.equal(first.get(cliCaches[0] as string), written.get(cliCaches[0] as string), "the long run used the short run's CLI cache");
    assert.equal(engineCaches(cache).length, 2, 'one engine cache per set of flags');
    run(dist, cache, [SAMPLE]);
    run(dist, cache, [samples, '--jobs', '1']);
    assert.deepEqual(stamps(), first, 'the second round uses the caches the first wrote, and writes none');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the grammar worker keeps the grammars it derives: written by the first run, read by the next, rewritten when bad; the output never changes', async () => {
  const { dir, dist, cache } = await builtCli();
  try {
    const grammars = join(cache, 'toolscope', 'grammars');
    const files = () => readdirSync(grammars).filter((f) => f.endsWith('.json'));
    const plain = run(dist, cache, [SAMPLE], { TOOLSCOPE_CODE_CACHE: '0' });
    assert.ok(!existsSync(grammars), 'TOOLSCOPE_CODE_CACHE=0 keeps nothing');

    assert.equal(run(dist, cache, [SAMPLE]), plain, 'first run (derives and keeps)');
    const kept = files();
    assert.ok(kept.length > 0, 'a grammar file per tool set of the sample');
    const stamps = new Map(kept.map((f) => [f, statSync(join(grammars, f)).mtimeMs] as const));
    assert.equal(run(dist, cache, [SAMPLE]), plain, 'second run (reads them)');
    assert.deepEqual(new Map(files().map((f) => [f, statSync(join(grammars, f)).mtimeMs] as const)), stamps, 'nothing derived again');

    // A kept grammar that does not parse (or is not whole) is derived again: the verdicts are those of the tag.
    for (const f of kept)
      writeFileSync(join(grammars, f), JSON.stringify({ ...JSON.parse(readFileSync(join(grammars, f), 'utf8')), ebnf: 'root ::= (' }));
    assert.equal(run(dist, cache, [SAMPLE]), plain, 'bad grammars in the store');
    for (const f of kept) assert.notEqual(JSON.parse(readFileSync(join(grammars, f), 'utf8')).ebnf, 'root ::= (', `${f} rewritten`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
