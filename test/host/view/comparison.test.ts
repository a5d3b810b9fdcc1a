/**
 * Replay comparison: a hallucinated-tool sample replayed against the embedded endpoint with guided decoding off
 * and on; the comparison of the guided-on replay shows the recording and both replays, findings per column, and
 * a word diff from off to on. Without the original beside it, it says why.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { replayRecord } from '../../../src/net/replay/replay.ts';
import { startServer, type RunningServer } from '../../../src/net/server/openAiServer.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { appendRecords, siblingReplaysPath } from '../../../src/io/trace/traceWriter.ts';
import { comparisonFor } from '../../../src/host/view/comparison.ts';

const SAMPLES = fileURLToPath(new URL('../../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));
let dir: string;
let server: RunningServer;
let trace: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-compare-'));
  trace = join(dir, 'trace.jsonl');
  await copyFile(SAMPLES, trace);
  const records = (await loadAll(trace)).records.map((r) => r.record);
  server = await startServer({ script: records });
  const original = records.find((r) => r.id === 'hallucinated-tool');
  assert.ok(original);
  const written = [];
  for (const guided of [false, true]) {
    const { record, error } = await replayRecord(original, {
      endpoint: { name: 'embedded', baseUrl: server.url, model: 'sim', engine: 'vllm' },
      mode: 'chat',
      guided,
      retries: 0,
    });
    assert.equal(error, null);
    written.push(record);
  }
  await appendRecords(siblingReplaysPath(trace), written, [trace]);
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('the guided-on replay next to the recording and the guided-off replay, with findings and a diff off → on', async () => {
  const replays = siblingReplaysPath(trace);
  const loaded = (await loadAll(replays)).records;
  const on = loaded.find((r) => r.record.meta?.guided === true);
  assert.ok(on);
  const view = await comparisonFor(replays, on, new Analyzer());
  assert.ok(view);
  assert.equal(view.replayOf, 'hallucinated-tool');
  assert.equal(view.originalNote, null);
  assert.deepEqual(
    view.columns.map((c) => c.label),
    ['recorded', 'guided off', 'guided on'],
  );
  assert.ok(view.columns[0]?.findings.some((f) => f.kind === 'unknown-tool'));
  assert.ok(view.columns[1]?.findings.some((f) => f.kind === 'unknown-tool'));
  assert.deepEqual(
    view.columns[2]?.findings.filter((f) => f.severity === 'error'),
    [],
  );
  assert.equal(view.diff?.left, 'guided off');
  assert.equal(view.diff?.right, 'guided on');
  const removed =
    view.diff?.parts
      .filter((p) => p.op === 'removed')
      .map((p) => p.text)
      .join('') ?? '';
  const added =
    view.diff?.parts
      .filter((p) => p.op === 'added')
      .map((p) => p.text)
      .join('') ?? '';
  assert.match(removed, /get_stock_price/);
  assert.match(added, /get_weather/);
  // Not a replay: no comparison.
  assert.equal(await comparisonFor(trace, (await loadAll(trace)).records[0] as never, new Analyzer()), null);
});

test('a replays file away from its trace: the replays only, and why the recording is missing', async () => {
  const moved = join(dir, 'elsewhere.jsonl');
  await copyFile(siblingReplaysPath(trace), moved);
  const loaded = (await loadAll(moved)).records;
  const view = await comparisonFor(moved, loaded[0] as never, new Analyzer());
  assert.deepEqual(
    view?.columns.map((c) => c.label),
    ['guided off', 'guided on'],
  );
  assert.match(view?.originalNote ?? '', /not a <trace>\.replays\.jsonl/);
});
