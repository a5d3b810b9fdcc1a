/**
 * The boot gate between the launcher and the grammar worker (src/cli/workerBootGate.ts): the worker says it has
 * booted and goes no further until it is let go; a worker without a gate goes on at once; neither side waits
 * past its time limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { awaitBoot, newBootGate, release } from '../../src/cli/workerBootGate.ts';

const GATE = resolve(import.meta.dirname, '../../src/cli/workerBootGate.ts');

/** A worker that passes the gate (waiting at most `waitMs`) and then says so. */
function gatedWorker(workerData: unknown, waitMs = 5000): Worker {
  return new Worker(
    `require('tsx/cjs');
const { parentPort, workerData } = require('node:worker_threads');
require(${JSON.stringify(GATE)}).passBootGate(workerData, ${waitMs});
parentPort.postMessage('past the gate');`,
    { eval: true, workerData },
  );
}

const firstMessage = (w: Worker) => new Promise<unknown>((done) => w.once('message', done));

test('the worker boots, waits at the gate, and goes on once released', async () => {
  const gate = newBootGate();
  const worker = gatedWorker(gate);
  try {
    let passed = false;
    const past = firstMessage(worker).then(() => (passed = true));
    assert.equal(awaitBoot(gate, 5000), true, 'it booted');
    await sleep(100);
    assert.equal(passed, false, 'it waits at the gate');
    release(gate);
    await past;
  } finally {
    await worker.terminate();
  }
});

test('without a gate the worker goes on at once', async () => {
  const worker = gatedWorker(undefined);
  try {
    assert.equal(await firstMessage(worker), 'past the gate');
  } finally {
    await worker.terminate();
  }
});

test('neither side waits past its limit', async () => {
  // Nobody at the gate: the starting thread stops waiting.
  const started = performance.now();
  assert.equal(awaitBoot(newBootGate(), 50), false);
  assert.ok(performance.now() - started < 2000);
  // Nobody releases: the worker goes on by itself.
  const gate = newBootGate();
  const worker = gatedWorker(gate, 50);
  try {
    assert.equal(awaitBoot(gate, 5000), true);
    assert.equal(await firstMessage(worker), 'past the gate');
  } finally {
    await worker.terminate();
  }
});
