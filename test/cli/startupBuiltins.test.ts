/**
 * What an `analyze` start loads of Node's built-ins, as built (scripts/build.mjs's plugins): not commander's
 * child_process (nor the dgram it pulls in), not readline, not zlib — each was loaded at every start for nothing an
 * analyze of a JSON Lines trace runs. The run's output and exit code are those of the command as ever.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli } from './cliBundles.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'samples', 'kimi-k2-raw-completions.jsonl');
const NOT_LOADED = ['child_process', 'dgram', 'readline', 'zlib'];

test('an analyze start loads neither child_process, dgram, readline nor zlib', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-builtins-'));
  try {
    await buildCli(dir);
    // Preloaded into the process: the built-ins its main thread loaded, written when it exits.
    const preload = join(dir, 'builtins.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => process.stderr.write('builtins ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))) + '\\n'));`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, join(dir, 'cli.js'), 'analyze', SAMPLE, '--json', '--fail-on', 'error'], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') },
      maxBuffer: 64 << 20,
    });
    assert.equal(r.status, 1, `the sample has errors: --fail-on error exits 1 (stderr: ${r.stderr})`);
    assert.ok(r.stdout.split('\n').length > 5, 'one JSON line per record');
    const line = r.stderr.split('\n').find((l) => l.startsWith('builtins '));
    assert.ok(line, `the preload reported the built-ins (stderr: ${r.stderr})`);
    const loaded = JSON.parse(line.slice('builtins '.length)) as string[];
    assert.ok(loaded.includes('worker_threads'), 'the what-if ran (the grammar worker started)');
    for (const id of NOT_LOADED) assert.ok(!loaded.includes(id), `${id} was loaded: ${loaded.join(' ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
