/** The eval summary behind the editor's Eval tab: K2VV figures per run, findings by kind, off/on pairs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalPanelFor } from '../../../src/host/eval/evalPanel.ts';
import { loadK2vvResults } from '../../../src/host/eval/loadResults.ts';
import { summarize } from '../../../src/host/eval/k2vvMetrics.ts';

const samples = (name: string) => fileURLToPath(new URL(`../../../samples/${name}`, import.meta.url));

test('a K2VV results file: one run named after the file, the same figures as eval summarize', async () => {
  const path = samples('k2vv-results.jsonl');
  const panel = await evalPanelFor(path);
  assert.equal(panel?.runs.length, 1);
  const run = panel?.runs[0];
  assert.equal(run?.label, 'k2vv-results.jsonl');
  assert.deepEqual(run?.summary, summarize((await loadK2vvResults(path)).results));
  assert.equal(run?.findings['schema-violation'], 1);
});

test('a trace that is not K2VV results has no panel, without reading it through', async () => {
  assert.equal(await evalPanelFor(samples('kimi-k2-raw-completions.jsonl')), null);
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalpanel-'));
  try {
    // A native first line and a K2VV result after it: still not a results file.
    const mixed = join(dir, 'mixed.jsonl');
    const result = (await import('node:fs')).readFileSync(samples('k2vv-results.jsonl'), 'utf8').split('\n')[0];
    await writeFile(mixed, `${JSON.stringify({ toolscope: 1, id: 'x', completion: { text: 'hi' } })}\n${result}\n`);
    assert.equal(await evalPanelFor(mixed), null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('results.guided-on.jsonl brings its guided-off sibling, off first; a lone file of the pair stands alone', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-evalpanel-'));
  try {
    await copyFile(samples('k2vv-results.jsonl'), join(dir, 'results.guided-on.jsonl'));
    const alone = await evalPanelFor(join(dir, 'results.guided-on.jsonl'));
    assert.deepEqual(
      alone?.runs.map((r) => r.label),
      ['guided on'],
    );
    await copyFile(samples('k2vv-results.jsonl'), join(dir, 'results.guided-off.jsonl'));
    const pair = await evalPanelFor(join(dir, 'results.guided-on.jsonl'));
    assert.deepEqual(
      pair?.runs.map((r) => r.label),
      ['guided off', 'guided on'],
    );
    assert.deepEqual(
      pair?.runs.map((r) => r.fileName),
      ['results.guided-off.jsonl', 'results.guided-on.jsonl'],
    );
    // The same results on both sides: compared, every delta 0 and no sample changed.
    assert.equal(pair?.compare?.joined, 5);
    assert.deepEqual(pair?.compare?.samples, []);
    assert.ok(pair?.compare?.figures.every((f) => f.delta === 0 || f.delta === null));
    assert.equal(alone?.compare ?? null, null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
