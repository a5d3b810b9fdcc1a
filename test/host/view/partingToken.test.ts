/**
 * Where guided on parts from guided off: a failing record (schema-violations: a four-hour event, over the schema's
 * 240-minute maximum) replayed in completions mode against the embedded endpoint with guided decoding off and on
 * (runReplay, as both faces do). The comparison of either replay names the first token where the two answers
 * differ, in this record's token indices, and the counterpart; the guided-off answer's guided-decoding what-if puts
 * its finding (TS024, the grammar would have blocked this token) on that very token.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { runReplay } from '../../../src/net/replay/replayRun.ts';
import { comparisonFor, partingToken } from '../../../src/host/view/comparison.ts';
import type { LoadedRecord } from '../../../src/core/trace/record.ts';

const SAMPLES = fileURLToPath(new URL('../../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));
let dir: string;
let replays: LoadedRecord[];
let outPath: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-parting-'));
  const trace = join(dir, 'trace.jsonl');
  await copyFile(SAMPLES, trace);
  const { records } = await loadAll(trace);
  const run = await runReplay({
    trace,
    records,
    chosen: records.filter((r) => r.record.id === 'schema-violations'),
    target: { embedded: {} },
    guided: 'both',
    mode: 'completions',
    timeoutMs: 120_000,
    retries: 0,
  });
  assert.equal(run.failures, 0);
  outPath = run.outPath;
  replays = (await loadAll(outPath)).records;
  assert.equal(replays.length, 2);
});

after(() => rm(dir, { recursive: true, force: true }));

test('guided on parts from guided off at the token the what-if blocks in guided off', async () => {
  const analyzer = new Analyzer({}, nodeServices());
  const [off, on] = replays as [LoadedRecord, LoadedRecord];
  const fromOn = (await comparisonFor(outPath, on, analyzer))?.parting;
  const fromOff = (await comparisonFor(outPath, off, analyzer))?.parting;
  assert.ok(fromOn && fromOff, 'both replays name where they part');
  assert.equal(fromOn.otherId, off.record.id);
  assert.equal(fromOff.otherId, on.record.id);
  assert.equal(fromOn.ownLabel, 'guided on (completions)');
  assert.equal(fromOn.otherLabel, 'guided off (completions)');
  assert.equal(typeof fromOn.token, 'number');
  assert.equal(fromOn.token, fromOff.token, 'the same index from either side');
  assert.equal(fromOn.here, fromOff.there);
  assert.notEqual(fromOn.here, fromOn.there);
  // Everything before it is the same, token for token.
  const a = analyzer.analyze(on).completion?.tokens ?? [];
  const b = analyzer.analyze(off).completion?.tokens ?? [];
  const at = fromOn.token as number;
  assert.deepEqual(
    a.slice(0, at).map((t) => t.text),
    b.slice(0, at).map((t) => t.text),
  );
  // The guided-off answer's what-if finding sits on that token: where the grammar stepped in.
  const withWhatIf = await analyzer.analyzeWithGuided(off);
  const blocked = withWhatIf.diagnostics.find((d) => d.kind === 'guided-would-block');
  assert.ok(blocked, withWhatIf.diagnostics.map((d) => d.kind).join(', '));
  assert.ok(
    blocked.tokenStart !== null && blocked.tokenStart <= at && at < (blocked.tokenEnd ?? 0),
    `${blocked.tokenStart}–${blocked.tokenEnd} vs ${at}`,
  );
});

test('partingToken: the first differing token; a shorter answer parts where it ends; equal answers do not part', () => {
  const rec = (texts: string[]) =>
    ({ completion: { tokens: texts.map((text, index) => ({ index, text, charStart: 0, charEnd: 0, special: false })) } }) as never;
  assert.deepEqual(partingToken(rec(['a', 'b', 'c']), rec(['a', 'x', 'c'])), { token: 1, here: 'b', there: 'x' });
  assert.deepEqual(partingToken(rec(['a', 'b', 'c']), rec(['a', 'b'])), { token: 2, here: 'c', there: null });
  assert.deepEqual(partingToken(rec(['a', 'b']), rec(['a', 'b', 'c'])), { token: 1, here: null, there: 'c' });
  assert.deepEqual(partingToken(rec(['a']), rec(['a'])), { token: null, here: null, there: null });
  assert.equal(partingToken(rec([]), rec(['a'])), null);
});
