/**
 * The grammar engine in its worker (guidedEngine.ts): an abort, a hang or a malformed job costs the job that
 * caused it, the next job gets a fresh worker, and xgrammar's own lines never reach stdout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GuidedEngine, fatalReason } from '../../../src/io/guided/guidedEngine.ts';
import { GuidedRequestError } from '../../../src/core/guided/requestGrammar.ts';
import type { ChatRequest, ChatTool } from '../../../src/core/trace/record.ts';
import { ABORTS_IN_ENGINE } from '../../fixtures/hostileSchemas.ts';
import { call, section } from '../../core/guided/fixtures.ts';

const tools = (parameters: unknown): ChatTool[] => [
  { type: 'function', function: { name: 'f', parameters: parameters as Record<string, never> } },
];
const GOOD = tools({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
const completion = (args: string) => ({ text: section(call('f', 0, args)), tokens: [] });
/** The completions are Kimi K2's: its tag is compiled. */
const KIMI = { format: 'kimi_k2' };

test('an abort costs one job: the next job runs in a fresh worker with its guided verdict', async () => {
  const lines: string[] = [];
  const engine = new GuidedEngine({ onLog: (l) => lines.push(l) });
  try {
    const before = await engine.whatIf({ tools: GOOD, tool_choice: 'auto' }, completion('{"a": "x"}'), KIMI);
    assert.equal(before.ran && before.result.accepted, true);
    const aborted = await engine.whatIf({ tools: tools(ABORTS_IN_ENGINE), tool_choice: 'auto' }, completion('{"a": "x"}'), KIMI);
    assert.equal(aborted.ran, false);
    if (!aborted.ran) {
      assert.equal(aborted.unavailable, true);
      assert.match(aborted.why, /^xgrammar aborted: Cannot find field \$defs/);
    }
    const after = await engine.whatIf({ tools: GOOD, tool_choice: 'auto' }, completion('{"a": 1}'), KIMI);
    assert.equal(after.ran, true);
    if (after.ran) assert.equal(after.result.accepted, false, 'the fresh worker still blocks a wrong type');
    assert.equal(engine.stats.starts, 2);
    assert.ok(!lines.some((l) => l.includes('Aborted')), 'the abort is said in the finding, not logged');
  } finally {
    await engine.close();
  }
});

test('jobs queued behind an abort are answered by the next worker', async () => {
  const engine = new GuidedEngine({ onLog: () => undefined });
  try {
    const runs = await Promise.all(
      [tools(ABORTS_IN_ENGINE), GOOD, GOOD].map((t) => engine.whatIf({ tools: t, tool_choice: 'auto' }, completion('{"a": "x"}'), KIMI)),
    );
    assert.deepEqual(
      runs.map((r) => r.ran),
      [false, true, true],
    );
    assert.equal(engine.stats.starts, 2);
  } finally {
    await engine.close();
  }
});

test('a job over its time budget is stopped and said so; the worker is replaced', async () => {
  const engine = new GuidedEngine({ onLog: () => undefined, timeoutMs: 1 });
  try {
    const run = await engine.whatIf({ tools: GOOD, tool_choice: 'required' }, completion('{"a": "x"}'), KIMI);
    assert.equal(run.ran, false);
    if (!run.ran) assert.match(run.why, /longer than 0\.001 s .*time budget/);
    assert.equal(engine.stats.failures, 1);
  } finally {
    await engine.close();
  }
});

test('constrain: a grammar that aborts the engine is a GuidedRequestError (HTTP 400), the next request is shaped', async () => {
  const engine = new GuidedEngine({ onLog: () => undefined });
  try {
    const bad: ChatRequest = {
      messages: [],
      structured_outputs: { structural_tag: { type: 'structural_tag', format: { type: 'regex', pattern: 'a{2,1}' } } },
    } as ChatRequest;
    await assert.rejects(
      engine.constrain(bad, 'aa', 'kimi_k2'),
      (err: unknown) => err instanceof GuidedRequestError && /xgrammar aborted: .*Lower bound is larger than upper bound/.test(err.message),
    );
    const strict: ChatRequest = {
      messages: [],
      tools: GOOD.map((t) => ({ ...t, function: { ...t.function, strict: true } })),
      tool_choice: 'required',
    };
    const text = await engine.constrain(strict, section(call('f', 0, '{"a": 1}')), 'kimi_k2');
    assert.match(text, /functions\.f:0<\|tool_call_argument_begin\|>\{"a": "/);
  } finally {
    await engine.close();
  }
});

test("fatalReason: the gist of xgrammar's [FATAL] line", () => {
  assert.equal(
    fatalReason(['[FATAL] /x/json_schema_converter.cc:961: Check failed: (a) is false: Cannot find field $defs in {}', 'Aborted()']),
    'Cannot find field $defs in {}',
  );
  assert.equal(fatalReason(['[WARNING] something']), undefined);
});

/** Tools whose schema nests `depth` object levels (built without recursion). */
function deepTools(depth: number): ChatTool[] {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return tools(schema);
}

test('a schema nested thousands deep is refused at once, never copied to the worker; jobs around it run', async () => {
  // The budget is short so that the old behaviour (the worker could not read the job and never answered) fails here.
  const engine = new GuidedEngine({ onLog: () => undefined, timeoutMs: 5_000 });
  try {
    const runs = await Promise.all(
      [GOOD, deepTools(3000), deepTools(5000), GOOD].map((t) =>
        engine.whatIf({ tools: t, tool_choice: 'auto' }, completion('{"a": "x"}'), KIMI),
      ),
    );
    assert.deepEqual(
      runs.map((r) => r.ran),
      [true, false, false, true],
    );
    for (const run of runs.slice(1, 3))
      if (!run.ran) {
        assert.equal(run.unavailable, true);
        assert.match(run.why, /^the tools nest more than 256 levels deep/);
      }
    assert.equal(engine.stats.starts, 1, 'the worker was never replaced');
  } finally {
    await engine.close();
  }
});

test('a job that cannot be copied to the worker fails alone, even queued behind another (it crashed the process)', async () => {
  const engine = new GuidedEngine({ onLog: () => undefined });
  try {
    // A what-if's request goes as JSON (a BigInt is a value JSON.stringify refuses); a constrain job's request by
    // structured clone (a function is a value it refuses: DataCloneError thrown by postMessage).
    const unwritable = tools({ type: 'object', properties: { a: { type: 'string', default: 1n } } });
    const uncloneable = tools({ type: 'object', properties: { a: { type: 'string', default: () => 1 } } });
    const runs = await Promise.all(
      [GOOD, unwritable, GOOD].map((t) => engine.whatIf({ tools: t, tool_choice: 'auto' }, completion('{"a": "x"}'), KIMI)),
    );
    const constrained = engine.constrain({ messages: [], tools: uncloneable, tool_choice: 'required' }, '', 'kimi_k2');
    assert.deepEqual(
      runs.map((r) => r.ran),
      [true, false, true],
    );
    const [, refused] = runs;
    if (refused && !refused.ran) assert.match(refused.why, /^the job could not be sent to the grammar engine: .*BigInt/);
    await assert.rejects(constrained, /^GuidedRequestError: the job could not be sent to the grammar engine: .*could not be cloned/);
    const after = await engine.whatIf({ tools: GOOD, tool_choice: 'auto' }, completion('{"a": "x"}'), KIMI);
    assert.equal(after.ran, true);
  } finally {
    await engine.close();
  }
});

test('what-ifs asked in one turn go to the worker together, each with the verdict it gets alone', async () => {
  const engine = new GuidedEngine({ onLog: () => undefined });
  try {
    const args = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `{"a": ${i}}` : `{"a": "${i}"}`));
    const alone = [];
    for (const a of args) alone.push(await engine.whatIf({ tools: GOOD, tool_choice: 'auto' }, completion(a), KIMI));
    const sentAlone = engine.stats.messages;
    assert.ok(sentAlone >= args.length, 'awaited one by one: a message each');
    const together = await Promise.all(args.map((a) => engine.whatIf({ tools: GOOD, tool_choice: 'auto' }, completion(a), KIMI)));
    assert.deepEqual(together, alone);
    // 32 in flight at most: the first 32 in one message, the rest as answers make room.
    assert.ok(engine.stats.messages - sentAlone < args.length / 2, `${engine.stats.messages - sentAlone} messages for ${args.length} jobs`);
    assert.deepEqual(
      together.map((r) => r.ran && r.result.accepted),
      args.map((a) => !/: \d/.test(a)),
    );
  } finally {
    await engine.close();
  }
});

test("a run's answers come back together, in order, each the job's own verdict", async () => {
  const engine = new GuidedEngine();
  try {
    const request = { tools: GOOD, tool_choice: 'auto' as const };
    // The grammar compiled first: the jobs after it are quick ones, whose answers the worker sends together.
    await engine.whatIf(request, completion('{"a": "x"}'), KIMI);
    const before = engine.stats.answerMessages;
    const args = Array.from({ length: 120 }, (_, i) => (i % 3 === 0 ? `{"a": ${i}}` : `{"a": "v${i}"}`));
    const outcomes = await Promise.all(args.map((a) => engine.whatIf(request, completion(a), KIMI)));
    assert.deepEqual(
      outcomes.map((o) => o.ran && o.result.accepted),
      args.map((_, i) => i % 3 !== 0),
      'a number where the schema says string is blocked, every other call let through',
    );
    const messages = engine.stats.answerMessages - before;
    assert.ok(messages < args.length / 2, `${messages} messages for ${args.length} answers`);
  } finally {
    await engine.close();
  }
});

test('a tool set seen before is sent as the text written for it the first time, not walked again', async () => {
  const engine = new GuidedEngine({ onLog: () => undefined });
  let reads = 0;
  const fn = { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } };
  // Every walk of the tools (their depth, their JSON) reads the function's name.
  const counted = Object.defineProperty({ type: 'function' }, 'function', { enumerable: true, get: () => (reads++, fn) });
  const request = { tools: [counted] as unknown as ChatTool[], tool_choice: 'auto' as const };
  try {
    const first = await engine.whatIf(request, completion('{"a": "x"}'), KIMI);
    assert.equal(first.ran && first.result.accepted, true);
    const afterFirst = reads;
    assert.ok(afterFirst > 0);
    const second = await engine.whatIf(request, completion('{"a": 1}'), KIMI);
    assert.equal(second.ran && second.result.accepted, false, 'the second record is judged by the same tools');
    assert.equal(reads, afterFirst, 'the tools were not read again');
  } finally {
    await engine.close();
  }
});
