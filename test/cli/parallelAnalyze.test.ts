/**
 * `analyze` over a directory on several worker threads writes exactly what one thread writes — the JSON Lines,
 * the readable report with its summary, the error lines of unreadable files — and exits the same way; the
 * progress line appears only on a terminal, after a second, and is erased.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sink } from '../textSink.ts';
import { analyzeCommand } from '../../src/cli/analyzeCommand.ts';
import { AnalyzeProgress } from '../../src/cli/analyzeProgress.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The samples in a folder tree (two levels, so the order is the sorted walk), plus one file that cannot be read. */
async function corpus(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-parallel-'));
  const samples = (await readdir(join(repo, 'samples'))).filter((f) => /\.(jsonl|sse|ndjson|json|log|txt)$/.test(f));
  await mkdir(join(dir, 'b'));
  for (const [i, f] of samples.entries()) await copyFile(join(repo, 'samples', f), join(dir, i % 2 ? 'b' : '', f));
  await symlink(join(dir, 'missing-target'), join(dir, 'a-dangling.jsonl'));
  return dir;
}

async function analyze(dir: string, options: Parameters<typeof analyzeCommand>[1]) {
  const out = sink();
  const err = sink();
  const code = await analyzeCommand([dir], { guided: false, ...options }, out, process.stdin, err);
  return { code, stdout: out.text(), stderr: err.text() };
}

test('two worker threads write the same bytes as one, JSON and readable, in the same order; same exit status', async () => {
  const dir = await corpus();
  try {
    for (const options of [
      { json: true },
      { json: false, verbose: true, ignore: ['marker-whitespace' as const] },
      { json: true, guided: true },
    ]) {
      const one = await analyze(dir, { ...options, jobs: 1 });
      const two = await analyze(dir, { ...options, jobs: 2 });
      assert.ok(one.stdout.length > 1000);
      assert.equal(two.stdout, one.stdout, `same output for ${JSON.stringify(options)}`);
      assert.equal(two.stderr, one.stderr);
      assert.match(one.stderr, /cannot read .*a-dangling\.jsonl/);
      assert.equal(two.code, one.code);
      assert.equal(one.code, 2, 'an unreadable file makes exit status 2 either way');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the progress line: only on a terminal, after a second, at most five times a second, erased at the end', async () => {
  let now = 0;
  const written: string[] = [];
  const p = new AnalyzeProgress(3, 3e6, { write: (t: string) => written.push(t) }, () => now);
  p.record();
  now = 500;
  p.fileDone(1e6, 0);
  assert.deepEqual(written, [], 'nothing in the first second');
  now = 1100;
  p.record();
  now = 1200;
  p.record();
  now = 1350;
  p.fileDone(1e6, 10);
  assert.equal(written.length, 2, 'redrawn at most every 200 ms');
  assert.equal(written[1], '\r\u001b[Ktoolscope: 2/3 files, 2.0/3.0 MB, 13 records, 1.5 MB/s');
  p.end();
  assert.equal(written.at(-1), '\r\u001b[K');
  assert.equal(await AnalyzeProgress.forRun(['a', 'b'], { write: () => true }), null, 'not a terminal: no progress');
  assert.equal(await AnalyzeProgress.forRun(['a'], { isTTY: true, write: () => true }), null, 'one file: no progress');
});
