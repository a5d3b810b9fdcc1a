/**
 * `report` over many files on worker threads (parallelReport.ts) writes the report one thread writes — the same
 * records, keys, order and findings — and prints the same summary; a file that cannot be read fails the report the
 * same way. Runs the built CLI (npm test builds first): the report embeds the webview bundle that sits beside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, reportText, runBuiltCli } from './builtCli.ts';

const repo = REPO;
const run = runBuiltCli;

test('report over many files: two worker threads write the report one thread writes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-parallel-report-'));
  try {
    // The samples in a folder tree (two levels, so the order is the sorted walk).
    const traces = join(dir, 'traces');
    await mkdir(join(traces, 'b'), { recursive: true });
    const samples = (await readdir(join(repo, 'samples'))).filter((f) => /\.(jsonl|sse|ndjson|json|log|txt)$/.test(f));
    assert.ok(samples.length >= 4);
    for (const [i, f] of samples.entries()) await copyFile(join(repo, 'samples', f), join(traces, i % 2 ? 'b' : '', f));
    const one = run(['report', traces, '-o', join(dir, 'one.html'), '-v', '--jobs', '1']);
    const two = run(['report', traces, '-o', join(dir, 'two.html'), '-v', '--jobs', '2']);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(two.status, one.status, two.stderr);
    assert.equal(two.stdout.replace('two.html', 'one.html'), one.stdout);
    const html = await reportText(join(dir, 'one.html'));
    assert.equal(await reportText(join(dir, 'two.html')), html);
    // Every file is in it, under its own key prefix, with the what-if's findings (a file's first record need not be
    // its first line: an export's rows that are no model call are skipped).
    for (let i = 0; i < samples.length; i++) assert.ok(html.includes(`"key":"${i}/`), `file ${i}`);
    assert.match(html, /"kind":"guided-(would-block|accepts)"/);

    // A file that cannot be read: the same failure either way.
    await symlink(join(dir, 'missing-target'), join(traces, 'a-dangling.jsonl'));
    const bad1 = run(['report', traces, '-o', join(dir, 'bad1.html'), '--jobs', '1']);
    const bad2 = run(['report', traces, '-o', join(dir, 'bad2.html'), '--jobs', '2']);
    assert.notEqual(bad1.status, 0);
    assert.equal(bad2.status, bad1.status);
    assert.match(bad1.stderr, /cannot read the traces: .*a-dangling\.jsonl/);
    assert.equal(bad2.stderr, bad1.stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
