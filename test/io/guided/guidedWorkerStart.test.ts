/**
 * A grammar-engine worker started before its engine exists (the CLI launcher starts it first thing): the engine
 * adopts that thread instead of starting another, a mismatched or dead one is replaced, and the first job, sent
 * behind the warm-up while the worker is still starting, gets the same verdict as one sent later.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { GuidedEngine } from '../../../src/io/guided/guidedEngine.ts';
import { discardPrestartedGuidedWorker, prestartGuidedWorker, startGuidedWorker } from '../../../src/io/guided/guidedWorkerStart.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';
import { call, section } from '../../core/guided/fixtures.ts';

const WORKER = join(resolve(import.meta.dirname, '../../..'), 'src/io/guided/engineWorker.ts');
const TOOLS: ChatTool[] = [
  { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } },
];

test('a prestarted worker is adopted once; a different memory limit gets a new one and the old one ends', async () => {
  prestartGuidedWorker(WORKER, 256);
  const adopted = startGuidedWorker(WORKER, 256);
  const fresh = startGuidedWorker(WORKER, 256);
  assert.notEqual(adopted, fresh, 'the slot is emptied by the first taker');
  await Promise.all([adopted.terminate(), fresh.terminate()]);

  prestartGuidedWorker(WORKER, 256);
  const exited = new Promise<void>((done) => {
    // The prestarted one is replaced: it is terminated, not left running.
    const other = startGuidedWorker(WORKER, 512);
    void other.terminate().then(() => done());
  });
  await exited;
  const again = startGuidedWorker(WORKER, 256);
  const ended = once(again, 'exit');
  await again.terminate();
  await ended;
});

test('a prestarted worker a run will not adopt (file threads have engines of their own) is ended; the next start is fresh', async () => {
  prestartGuidedWorker(WORKER, 256);
  assert.equal(await discardPrestartedGuidedWorker(), true, 'it was there and has ended');
  assert.equal(await discardPrestartedGuidedWorker(), false, 'nothing left to end');
  const fresh = startGuidedWorker(WORKER, 256);
  const ended = once(fresh, 'exit');
  await fresh.terminate();
  await ended;
});

test('the engine runs its first job on the prestarted worker, sent behind the warm-up, with the usual verdicts', async () => {
  prestartGuidedWorker(WORKER, 1024);
  const engine = new GuidedEngine({ workerFile: WORKER, onLog: () => undefined });
  try {
    // Both jobs submitted at once, before the worker has answered anything.
    const [good, bad] = await Promise.all([
      engine.whatIf(
        { tools: TOOLS, tool_choice: 'auto' },
        { text: section(call('f', 0, '{"a": "x"}')), tokens: [] },
        { format: 'kimi_k2' },
      ),
      engine.whatIf({ tools: TOOLS, tool_choice: 'auto' }, { text: section(call('f', 0, '{"a": 1}')), tokens: [] }, { format: 'kimi_k2' }),
    ]);
    assert.equal(good.ran && good.result.accepted, true);
    assert.equal(bad.ran && bad.result.accepted, false);
    assert.equal(engine.stats.starts, 1, 'no second worker was started');
    assert.equal(engine.stats.jobs, 3, 'warm-up and both jobs');
    assert.equal(engine.stats.failures, 0);
  } finally {
    await engine.close();
  }
});
