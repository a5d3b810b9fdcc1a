/**
 * The boot gate between the launcher and the grammar worker (src/cli/workerBootGate.ts): the worker goes no further
 * than the gate until it is let go, then sets a short run's V8 flags itself; a worker without a gate goes on at once
 * and sets nothing; the worker does not wait past its time limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import {
  DEFAULT_RUN_FLAGS,
  FEW_CORES_FLAGS,
  LONG_RUN_FLAGS,
  longRunFlags,
  newBootGate,
  release,
  SHORT_RUN_FLAGS,
  shortRunFlags,
} from '../../src/cli/workerBootGate.ts';

const GATE = resolve(import.meta.dirname, '../../src/cli/workerBootGate.ts');

/** A worker that says it has booted, passes the gate (waiting at most `waitMs`) and then says whether it set flags. */
function gatedWorker(workerData: unknown, waitMs = 5000): Worker {
  return new Worker(
    `require('tsx/cjs');
const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage('booted');
parentPort.postMessage(require(${JSON.stringify(GATE)}).passBootGate(workerData, ${waitMs}) ? 'set the flags' : 'set nothing');`,
    { eval: true, workerData },
  );
}

/** The worker's messages, in order. */
function messages(w: Worker): () => Promise<unknown> {
  const queue: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  w.on('message', (m) => (waiting.shift() ?? ((x: unknown) => queue.push(x)))(m));
  return () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((done) => waiting.push(done)));
}

test('the worker waits at the gate, and once released sets the flags and goes on', async () => {
  const gate = newBootGate();
  const worker = gatedWorker(gate);
  const next = messages(worker);
  try {
    assert.equal(await next(), 'booted');
    let passed = false;
    const past = next().then((m) => {
      passed = true;
      return m;
    });
    await sleep(100);
    assert.equal(passed, false, 'it waits at the gate');
    release(gate);
    assert.equal(await past, 'set the flags');
  } finally {
    await worker.terminate();
  }
});

test('without a gate the worker goes on at once and sets nothing', async () => {
  const worker = gatedWorker(undefined);
  const next = messages(worker);
  try {
    assert.equal(await next(), 'booted');
    assert.equal(await next(), 'set nothing');
  } finally {
    await worker.terminate();
  }
});

test('released before the worker reaches the gate, the worker does not wait', async () => {
  const gate = newBootGate();
  release(gate);
  const worker = gatedWorker(gate, 60_000);
  const next = messages(worker);
  try {
    assert.equal(await next(), 'booted');
    assert.equal(await next(), 'set the flags');
  } finally {
    await worker.terminate();
  }
});

test('nobody releases: the worker goes on by itself after its limit', async () => {
  const worker = gatedWorker(newBootGate(), 50);
  const next = messages(worker);
  try {
    assert.equal(await next(), 'booted');
    assert.equal(await next(), 'set the flags');
  } finally {
    await worker.terminate();
  }
});

test('a short run on 2 cores or fewer also holds back the optimising compiler; the worker sets no flags but those', async () => {
  assert.equal(shortRunFlags(2), `${SHORT_RUN_FLAGS} ${FEW_CORES_FLAGS}`);
  assert.equal(shortRunFlags(1), `${SHORT_RUN_FLAGS} ${FEW_CORES_FLAGS}`);
  assert.equal(shortRunFlags(8), SHORT_RUN_FLAGS);
  // Every flag a gated run may set is put back by DEFAULT_RUN_FLAGS (V8's defaults), before the CLI's cache is written.
  const names = (flags: string) => flags.split(' ').map((f) => f.replace(/^--(no-)?/, '').replace(/=.*/, ''));
  assert.deepEqual(names(DEFAULT_RUN_FLAGS).sort(), names(`${shortRunFlags(1)} ${LONG_RUN_FLAGS}`).sort());
  for (const [given, set] of [
    [shortRunFlags(2), shortRunFlags(2)],
    [SHORT_RUN_FLAGS, SHORT_RUN_FLAGS],
    [LONG_RUN_FLAGS, LONG_RUN_FLAGS],
    ['--allow-natives-syntax', SHORT_RUN_FLAGS],
  ] as const) {
    const gate = { ...newBootGate(), flags: given };
    release(gate);
    const worker = new Worker(
      `require('tsx/cjs');
const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage(require(${JSON.stringify(GATE)}).passBootGate(workerData, 1000));`,
      { eval: true, workerData: gate },
    );
    try {
      assert.equal(await messages(worker)(), set, `given ${given}`);
    } finally {
      await worker.terminate();
    }
  }
});

test('a long run sets its flags only where it stays on the starting thread (no file thread boots after them)', () => {
  for (const [args, cores, flags] of [
    [['analyze', 'dir', '--jobs', '1'], 2, LONG_RUN_FLAGS],
    [['report', 'dir', '--jobs=1', '--out', 'x.html'], 8, LONG_RUN_FLAGS],
    [['analyze', 'dir', '--jobs', '2', '--jobs', '1'], 2, LONG_RUN_FLAGS],
    [['analyze', 'dir'], 1, LONG_RUN_FLAGS],
    [['analyze', 'dir'], 2, null],
    [['analyze', 'dir', '--jobs', '2'], 2, null],
    [['analyze', 'dir', '--jobs=4'], 1, LONG_RUN_FLAGS],
    [['analyze', 'dir', '--jobs'], 2, null],
    [['analyze', '--jobs', '12', 'dir'], 8, null],
  ] as const) {
    assert.equal(longRunFlags(args, cores), flags, `${args.join(' ')} on ${cores} cores`);
  }
});

test("DEFAULT_RUN_FLAGS are this Node's V8 defaults (the CLI's code cache is written under them and read under the defaults)", () => {
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  for (const flag of DEFAULT_RUN_FLAGS.split(' ')) {
    const name = flag.replace(/^--(no-)?/, '').replace(/=.*/, '');
    const stated = new RegExp(`^ {2}--${name} .*\\n\\s+type: \\S+\\s+default: (\\S+)`, 'm').exec(options)?.[1];
    assert.equal(stated, flag, `V8's default for --${name}`);
  }
});
