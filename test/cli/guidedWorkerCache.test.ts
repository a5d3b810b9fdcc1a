/**
 * The CLI as `npm run build` makes it: the grammar worker's entry loads the engine's bundle through V8's code cache
 * (src/cli/guidedWorkerLoader.ts). The first run writes that cache once the worker has answered, later runs use it
 * without writing it again, and the output (the what-if's findings included) is the same with and without it, on one
 * thread and with a grammar worker per file thread. The worker also keeps the grammars it derives from tags
 * (src/io/cache/derivedGrammarFiles.ts), with the same output whether they are kept, read back, or bad.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { execFileSync, spawnSync } from 'node:child_process';
import { shortRunFlags } from '../../src/cli/workerBootGate.ts';

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

/** The CLI built as `npm run build` builds it, once for this file, in a scratch folder. */
let built: Promise<string> | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'toolscope-worker-cache-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
function buildOnce(): Promise<string> {
  built ??= (async () => {
    const { buildBundles } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
      buildBundles(o: { outdir: string }): Promise<unknown>;
    };
    await buildBundles({ outdir: join(scratch, 'dist') });
    return join(scratch, 'dist');
  })();
  return built;
}

/** The built CLI, with an empty cache folder of the test's own (`dir`, removed by the test). */
async function builtCli(): Promise<{ dir: string; dist: string; cache: string }> {
  const dist = await buildOnce();
  const dir = mkdtempSync(join(scratch, 'test-'));
  return { dir, dist, cache: join(dir, 'cache') };
}

/** A grammar file's JSON (after its header: src/io/cache/cacheFiles.ts). */
function keptGrammar(path: string): { ebnf: string; root: string; route: string } {
  const text = readFileSync(path, 'utf8');
  return JSON.parse(text.slice(text.indexOf('\n') + 1));
}

/** Writes `json` as the grammar file `path`, sealed as the store seals it (for its own name). */
function writeSealedGrammar(path: string, json: unknown): void {
  const payload = Buffer.from(JSON.stringify(json));
  const sha = createHash('sha256').update(payload).digest('hex');
  writeFileSync(path, Buffer.concat([Buffer.from(`toolscope-cache 1 ${basename(path)} ${sha} ${payload.length}\n`), payload]));
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

/**
 * Whether V8 takes the engine cache `file` (after its header) for the engine's bundle under the short run's flags, as
 * the worker compiles it: checked in a process of its own, flags set as the worker sets them.
 */
function acceptedUnderShortRunFlags(dist: string, file: string): boolean {
  const script = `
    const v8 = require('node:v8'), vm = require('node:vm'), fs = require('node:fs'), Module = require('node:module');
    v8.setFlagsFromString(${JSON.stringify(shortRunFlags(availableParallelism()))});
    const bytes = fs.readFileSync(${JSON.stringify(file)});
    const cachedData = bytes.subarray(bytes.indexOf(10) + 1);
    const bundle = ${JSON.stringify(join(dist, 'guidedWorker-engine.js'))};
    const script = new vm.Script(Module.wrap(fs.readFileSync(bundle, 'latin1')), { filename: bundle, cachedData });
    process.stdout.write(String(script.cachedDataRejected));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout === 'false';
}

test('a run of one record writes the engine cache under the flags it is named for, before the answer that ends the run', async () => {
  const { dir, dist, cache } = await builtCli();
  try {
    // One record with tools: the run ends as soon as its one what-if is answered. The cache was written after that
    // answer (queued behind it): a later run never wrote it, and the first one (whose own exit writes the CLI's cache
    // with V8's default flags put back first) could write it under the default flags, which every later short run
    // then rejected, compiling the engine from source each time.
    const one = join(dir, 'one-record.jsonl');
    writeFileSync(one, readFileSync(SAMPLE, 'utf8').split('\n')[0] + '\n');
    const plain = run(dist, cache, [one], { TOOLSCOPE_CODE_CACHE: '0' });
    assert.match(plain, /"kind":"guided-accepts"/, 'the what-if ran');
    for (let i = 1; i <= 3; i++) {
      rmSync(join(cache, 'toolscope'), { recursive: true, force: true });
      assert.equal(run(dist, cache, [one]), plain, `first run ${i} (writes the caches)`);
      const [written] = engineCaches(cache);
      assert.ok(written, `first run ${i}: the engine cache is written`);
      assert.ok(acceptedUnderShortRunFlags(dist, join(cache, 'toolscope', written)), `first run ${i}: V8 accepts it`);
    }
    // A cache this run's worker had to reject would be written again by it.
    const [written] = engineCaches(cache);
    const stamp = statSync(join(cache, 'toolscope', written as string)).mtimeMs;
    assert.equal(run(dist, cache, [one]), plain, 'second run (uses the cache)');
    assert.equal(statSync(join(cache, 'toolscope', written as string)).mtimeMs, stamp, 'used, not written again');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("short runs (WASM flags set at run time) and long runs share the CLI's cache and keep engine caches of their own: alternating, none is thrown away", async () => {
  const { dir, dist, cache } = await builtCli();
  try {
    const samples = join(ROOT, 'samples');
    // A file is a short run (the launcher sets V8 flags); a directory is a long one, which sets its own on one thread
    // (--jobs 1: src/cli/workerBootGate.ts).
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
    // A long run left to choose its threads sets no flags (a file thread may boot after them; one core aside): the
    // engine's cache under V8's defaults is a third one, and the one-thread run's is kept beside it.
    run(dist, cache, [samples]);
    assert.equal(engineCaches(cache).length, availableParallelism() > 1 ? 3 : 2, 'the one-thread long run has flags of its own');
    run(dist, cache, [samples, '--jobs', '1']);
    const third = stamps();
    for (const [f, t] of first) assert.equal(third.get(f), t, `${f} kept and not written again`);
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

    // A kept grammar xgrammar refuses (sealed as the store seals it) is derived again: the verdicts are those of the
    // tag. One edited without its seal is not even read.
    for (const f of kept) writeSealedGrammar(join(grammars, f), { ...keptGrammar(join(grammars, f)), ebnf: 'root ::= (' });
    assert.equal(run(dist, cache, [SAMPLE]), plain, 'bad grammars in the store');
    for (const f of kept) assert.notEqual(keptGrammar(join(grammars, f)).ebnf, 'root ::= (', `${f} rewritten`);
    for (const f of kept) {
      const text = readFileSync(join(grammars, f), 'utf8');
      assert.ok(text.includes('root ::='));
      writeFileSync(join(grammars, f), text.replace('root ::=', 'root ::= "x"'));
    }
    assert.equal(run(dist, cache, [SAMPLE]), plain, 'edited grammars in the store');
    for (const f of kept) assert.ok(!readFileSync(join(grammars, f), 'utf8').includes('root ::= "x"'), `${f} rewritten`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hostile cache folders cost a run nothing: a linked grammar folder is left alone, FIFOs in place of the code caches do not hang it', async () => {
  const { dir, dist, cache } = await builtCli();
  try {
    const plain = run(dist, cache, [SAMPLE], { TOOLSCOPE_CODE_CACHE: '0' });
    assert.equal(run(dist, cache, [SAMPLE]), plain, 'first run (writes the caches)');
    const folder = join(cache, 'toolscope');
    const codeCaches = readdirSync(folder).filter((f) => f.endsWith('.v8cache'));
    assert.equal(codeCaches.length, 2, "the CLI's and the engine's");
    // The grammar folder a link to a folder holding files of every name the store would read or prune.
    const other = join(dir, 'other');
    mkdirSync(other);
    const [grammar] = readdirSync(join(folder, 'grammars'));
    assert.ok(grammar);
    const strangers = ['notes.txt', grammar, `0123456789abcdef-${'0'.repeat(64)}.json`, `${grammar}.1.0.tmp`];
    for (const f of strangers) writeFileSync(join(other, f), `not the cache's: ${f}`);
    rmSync(join(folder, 'grammars'), { recursive: true });
    symlinkSync(other, join(folder, 'grammars'));
    for (const f of codeCaches) {
      rmSync(join(folder, f));
      execFileSync('mkfifo', [join(folder, f)]);
    }

    const r = spawnSync(process.execPath, [join(dist, 'cli.js'), 'analyze', SAMPLE, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: cache },
      maxBuffer: 64 << 20,
      timeout: 60_000,
    });
    assert.deepEqual({ code: r.status, stdout: r.stdout }, { code: 0, stdout: plain }, r.stderr);
    assert.deepEqual(readdirSync(other).sort(), strangers.sort(), 'nothing deleted there');
    for (const f of strangers) assert.equal(readFileSync(join(other, f), 'utf8'), `not the cache's: ${f}`, `${f} unchanged`);
    for (const f of codeCaches) assert.ok(lstatSync(join(folder, f)).isFile(), `${f}: the FIFO was a miss, replaced by the cache`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Whether this user can mount a file system in a mount namespace of its own (unprivileged user namespaces). */
const canMount = spawnSync('unshare', ['--mount', '--map-root-user', 'true']).status === 0;

test(
  'a full disk (a tmpfs with no room, in a mount namespace of its own): the run succeeds, no cache is written and no temporary file is left',
  { skip: canMount ? false : 'unshare --mount --map-root-user is not allowed here' },
  async () => {
    const { dir, dist, cache } = await builtCli();
    try {
      const plain = run(dist, cache, [SAMPLE], { TOOLSCOPE_CODE_CACHE: '0' });
      mkdirSync(cache);
      const out = join(dir, 'out');
      // Room for the folders (they take no blocks on a tmpfs), not for a byte more: a filler takes all the mount has.
      const script = [
        'mount -t tmpfs -o size=64k tmpfs "$CACHE"',
        '(head -c 70000 /dev/zero > "$CACHE/filler" 2>/dev/null || true)',
        'node "$CLI" analyze "$SAMPLE" --json > "$OUT.stdout"; echo $? > "$OUT.code"',
        'find "$CACHE" -type f ! -name filler > "$OUT.files"',
        'find "$CACHE" -type d > "$OUT.dirs"',
      ].join(' && ');
      const r = spawnSync('unshare', ['--mount', '--map-root-user', 'sh', '-c', script], {
        encoding: 'utf8',
        env: {
          ...process.env,
          CACHE: cache,
          CLI: join(dist, 'cli.js'),
          SAMPLE,
          OUT: out,
          PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
          XDG_CACHE_HOME: cache,
        },
        timeout: 120_000,
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(readFileSync(`${out}.code`, 'utf8').trim(), '0');
      assert.equal(readFileSync(`${out}.stdout`, 'utf8'), plain);
      assert.equal(readFileSync(`${out}.files`, 'utf8'), '', 'no cache file and no temporary file on the full disk');
      // The folders were made and found fit: the caches were written, and failed.
      assert.deepEqual(readFileSync(`${out}.dirs`, 'utf8').trim().split('\n'), [
        cache,
        join(cache, 'toolscope'),
        join(cache, 'toolscope', 'grammars'),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
