/**
 * The grammar engines scheduled (guidedEnginePool.ts), on real xgrammar workers: a waiting job of a higher lane runs
 * before older ones, a lane re-prioritised while it waits moves, a cancelled lane's job never reaches a worker, and
 * the same what-if asked twice runs once (the second answer a copy, placed on its own tokens).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GuidedEnginePool, LANE, type WhatIfLane } from '../../../src/io/guided/guidedEnginePool.ts';
import type { WhatIfOutcome } from '../../../src/core/guided/engineProtocol.ts';
import type { ChatRequest } from '../../../src/core/trace/record.ts';

const request = {
  tools: [
    {
      type: 'function' as const,
      function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
    },
  ],
  tool_choice: 'auto' as const,
};
const call = (a: string) =>
  `<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": ${a}}<|tool_call_end|><|tool_calls_section_end|>`;

test('grammar engine pool: lanes by priority, re-prioritised and cancelled while waiting; a repeated what-if runs once', async () => {
  const pool = new GuidedEnginePool({ workers: 1, onLog: () => undefined });
  try {
    const order: string[] = [];
    const ask = (name: string, lane: WhatIfLane, text: string): Promise<WhatIfOutcome> =>
      pool
        .inLane(lane, () => pool.whatIf(request, { text, tokens: [] }, { format: 'kimi_k2' }))
        .then((o) => {
          order.push(name);
          return o;
        });
    // The first job takes the one worker; the others wait in the pool's queue.
    const first = ask('first', { priority: LANE.listed, cancelled: false }, call('"0"'));
    const listed = ask('listed', { priority: LANE.listed, cancelled: false }, call('"1"'));
    const later: WhatIfLane = { priority: LANE.listed, cancelled: false };
    const scrolledTo = ask('scrolled-to', later, call('"2"'));
    const inView = ask('in-view', { priority: LANE.inView, cancelled: false }, call('"3"'));
    const gone: WhatIfLane = { priority: LANE.shown, cancelled: false };
    const cancelled = ask('cancelled', gone, call('"4"'));
    assert.equal(pool.waiting, 4);
    // The user scrolled: a row asked for last now shows; the record that was shown is gone (options changed).
    later.priority = LANE.shown;
    gone.cancelled = true;
    pool.reprioritised();
    assert.equal(pool.waiting, 3, 'the cancelled job left the queue at once');
    const outcomes = await Promise.all([first, listed, scrolledTo, inView, cancelled]);
    assert.deepEqual(order, ['cancelled', 'first', 'scrolled-to', 'in-view', 'listed']);
    assert.deepEqual(
      outcomes.map((o) => (o.ran ? o.result.accepted : o.why)),
      [true, true, true, true, 'the what-if was cancelled before it ran'],
    );
    const jobs = pool.stats.jobs;
    assert.equal(jobs, 5, 'the warm-up and four what-ifs: the cancelled one never reached the worker');

    // The same what-if again in a lane (the editor: a trace repeating a record): answered from the first run, a copy
    // each time. Outside a lane (the CLI, which asks each record once) nothing is hashed or kept.
    const text = call('1');
    const tokens = [
      { index: 0, text: text.slice(0, 60), charStart: 0, charEnd: 60, special: false, approximate: false },
      { index: 1, text: text.slice(60), charStart: 60, charEnd: text.length, special: false, approximate: false },
    ];
    const lane: WhatIfLane = { priority: LANE.listed, cancelled: false };
    const once = await pool.inLane(lane, () => pool.whatIf(request, { text: call('1'), tokens }, { format: 'kimi_k2' }));
    const twice = await pool.inLane(lane, () => pool.whatIf(request, { text: call('1'), tokens }, { format: 'kimi_k2' }));
    assert.equal(pool.stats.jobs, jobs + 1, 'one run for two asks');
    await pool.whatIf(request, { text: call('1'), tokens }, { format: 'kimi_k2' });
    assert.equal(pool.stats.jobs, jobs + 2, 'outside a lane: run again');
    assert.ok(once.ran && !once.result.accepted && twice.ran && !twice.result.accepted);
    assert.deepEqual(twice, once);
    assert.notEqual(twice.result, once.result, 'a copy: the caller may shift its offsets');
    assert.equal(twice.result.tokenIndex, 1, 'placed on the asking completion’s tokens');
  } finally {
    await pool.close();
  }
});

test('grammar engine pool: a worker holds up to laneDepth jobs of lanes (a busy thread’s worker does not wait for its turn between two), the rest wait re-prioritisable', async () => {
  const pool = new GuidedEnginePool({ workers: 1, laneDepth: 3, onLog: () => undefined });
  try {
    const asks = [0, 1, 2, 3, 4].map((i) =>
      pool.inLane({ priority: LANE.listed, cancelled: false }, () =>
        pool.whatIf(request, { text: call(`"${i}"`), tokens: [] }, { format: 'kimi_k2' }),
      ),
    );
    assert.equal(pool.waiting, 2, 'three sent to the one worker, two waiting in the pool');
    pool.setLaneDepth(1);
    const outcomes = await Promise.all(asks);
    assert.ok(outcomes.every((o) => o.ran && o.result.accepted));
  } finally {
    await pool.close();
  }
});

test('grammar engine pool: a repeated what-if is found by its tools’ JSON text, whichever object holds them; tools written otherwise run again', async () => {
  const pool = new GuidedEnginePool({ workers: 1, onLog: () => undefined });
  try {
    const lane: WhatIfLane = { priority: LANE.listed, cancelled: false };
    const ask = (r: Pick<ChatRequest, 'tools' | 'tool_choice'>) =>
      pool.inLane(lane, () => pool.whatIf(r, { text: call('"x"'), tokens: [] }, { format: 'kimi_k2' }));
    await ask(request);
    const jobs = pool.stats.jobs;
    await ask(structuredClone(request));
    assert.equal(pool.stats.jobs, jobs, 'an equal copy of the tools (the next record’s): kept');
    const { type, properties, required } = request.tools[0]!.function.parameters;
    const reordered = {
      ...request,
      tools: [{ type: 'function' as const, function: { name: 'f', parameters: { required, type, properties } } }],
    };
    await ask(reordered);
    assert.equal(pool.stats.jobs, jobs + 1, 'the same schema written in another order is another input');
    await ask({ ...request, tool_choice: 'required' });
    assert.equal(pool.stats.jobs, jobs + 2, 'another tool_choice is another input');
  } finally {
    await pool.close();
  }
});

test('grammar engine pool: held (a first paint), no worker starts and no job runs until released, then all run; a hold ends by itself after its time', async () => {
  const pool = new GuidedEnginePool({ workers: 1, onLog: () => undefined });
  try {
    let release: () => void = () => undefined;
    pool.holdUntil(new Promise<void>((r) => (release = r)), 60_000);
    pool.warmUp();
    const lane: WhatIfLane = { priority: LANE.shown, cancelled: false };
    const asked = pool.inLane(lane, () => pool.whatIf(request, { text: call('"1"'), tokens: [] }, { format: 'kimi_k2' }));
    const gone: WhatIfLane = { priority: LANE.listed, cancelled: false };
    const cancelled = pool.inLane(gone, () => pool.whatIf(request, { text: call('"2"'), tokens: [] }, { format: 'kimi_k2' }));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(pool.stats.starts, 0, 'no worker started while held (not even the warm-up)');
    assert.equal(pool.waiting, 2);
    // Cancelled while held: it ends at once all the same.
    gone.cancelled = true;
    pool.reprioritised();
    assert.equal(pool.waiting, 1);
    assert.equal(((await cancelled) as WhatIfOutcome & { ran: false }).why, 'the what-if was cancelled before it ran');
    release();
    const outcome = await asked;
    assert.ok(outcome.ran && outcome.result.accepted, JSON.stringify(outcome));
    assert.equal(pool.stats.starts, 1);

    // A hold nobody releases ends after its time.
    pool.holdUntil(new Promise<void>(() => undefined), 100);
    const t0 = Date.now();
    const later = await pool.inLane(lane, () => pool.whatIf(request, { text: call('"3"'), tokens: [] }, { format: 'kimi_k2' }));
    assert.ok(later.ran && later.result.accepted);
    assert.ok(Date.now() - t0 >= 90, `ran ${Date.now() - t0} ms after it was asked: not before the hold's end`);
  } finally {
    await pool.close();
  }
});
