/**
 * The list worker as `npm run build` makes it (dist/listWorker.js): a small entry that loads the list worker itself
 * (dist/listWorker-main.js) through V8's code cache (src/host/view/listWorkerEntry.ts). A worker started on it lists a
 * range as the list worker does; it writes the cache a few seconds after it starts, and a later worker uses that cache
 * (without writing it again) and lists the same rows.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const ROOT = resolve(import.meta.dirname, '../../..');
const SAMPLE = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');
const scratch = mkdtempSync(join(tmpdir(), 'toolscope-list-worker-entry-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * In a Node of its own (its cache folder `cache`): a worker on `dist`'s listWorker.js lists the sample as one range;
 * the rows it sent (what-ifs applied), once it has been up `aliveMs`.
 */
function listInWorker(dist: string, cache: string, aliveMs: number, env: Record<string, string> = {}): string {
  const script = `
    const { Worker } = require('node:worker_threads');
    const { indexedRanges } = require(${JSON.stringify(join(ROOT, 'src/io/trace/traceRanges.ts'))});
    (async () => {
      const started = Date.now();
      const worker = new Worker(${JSON.stringify(join(dist, 'listWorker.js'))}, { workerData: { kind: 'toolscope-list-worker' } });
      const rows = new Map();
      const done = new Promise((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (a) => {
          if (a.type === 'batch') { for (const s of a.summaries) rows.set(s.key, s); for (const f of a.guided) rows.set(f.key, f.summary); }
          else if (a.type === 'guided') for (const f of a.findings) rows.set(f.key, f.summary);
          else if (a.type === 'done') a.error ? reject(new Error(a.error)) : resolve();
        });
      });
      for await (const range of indexedRanges(${JSON.stringify(SAMPLE)}, require('node:fs').statSync(${JSON.stringify(SAMPLE)}).size, 1 << 30))
        worker.postMessage({ type: 'range', id: 1, range, fileName: 'sample.jsonl', options: {}, inView: [] });
      await done;
      await new Promise((r) => setTimeout(r, Math.max(0, ${aliveMs} - (Date.now() - started))));
      await worker.terminate();
      process.stdout.write(JSON.stringify([...rows.values()].sort((a, b) => a.entry - b.entry)));
    })().catch((err) => { console.error(err); process.exit(1); });`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cache, ...env },
    maxBuffer: 64 << 20,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const listCaches = (cache: string) => readdirSync(join(cache, 'toolscope')).filter((f) => f.startsWith('listWorker-main.js-'));

test('the list worker loads through the code cache: written once it has run a while, then used; the rows never change', async () => {
  const { buildBundles } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
    buildBundles(o: { outdir: string; shippedOnly: boolean }): Promise<unknown>;
  };
  const dist = join(scratch, 'dist');
  await buildBundles({ outdir: dist, shippedOnly: true });
  const cache = join(scratch, 'cache');

  const plain = listInWorker(dist, cache, 0, { TOOLSCOPE_CODE_CACHE: '0' });
  const rows = JSON.parse(plain) as { guidedPending: boolean }[];
  assert.ok(rows.length > 5 && rows.every((r) => !r.guidedPending), 'every row listed, its what-if applied');

  // Up past the save (5 s after the worker starts): the cache is written, and the rows are the same.
  assert.equal(listInWorker(dist, cache, 6500), plain, 'first worker (writes the cache)');
  const [written] = listCaches(cache);
  assert.ok(written, 'the list worker writes its cache');
  const stamp = statSync(join(cache, 'toolscope', written)).mtimeMs;
  assert.equal(listInWorker(dist, cache, 6500), plain, 'second worker (uses the cache)');
  assert.deepEqual(listCaches(cache), [written]);
  assert.equal(statSync(join(cache, 'toolscope', written)).mtimeMs, stamp, 'a cache that was used is not written again');
});
