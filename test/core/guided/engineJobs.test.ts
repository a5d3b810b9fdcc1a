/**
 * Which jobs the grammar worker answers ahead of (engineJobs.ts `mayBeSlow`): anything that may compile or run long,
 * so that answers held for a batch never wait on it (engineWorker.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayBeSlow, runJob } from '../../../src/core/guided/engineJobs.ts';
import { hasRequestGrammar } from '../../../src/core/guided/whatIf.ts';
import type { EngineJob } from '../../../src/core/guided/engineProtocol.ts';
import { call, section } from './fixtures.ts';

test('mayBeSlow: a what-if is quick only on a grammar already compiled and a short text', async () => {
  // Tools of their own: no other test of this process compiled them.
  const tools = [
    {
      type: 'function',
      function: { name: 'slow_or_not', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
    },
  ];
  const job = (text: string, extra: Partial<Extract<EngineJob, { kind: 'what-if' }>> = {}): EngineJob => ({
    kind: 'what-if',
    request: JSON.stringify({ tools, tool_choice: null }),
    format: 'kimi_k2',
    text,
    finishReason: 'tool_calls',
    options: {},
    ...extra,
  });
  const text = section(call('slow_or_not', 0, '{"n": 1}'));
  assert.equal(mayBeSlow({ kind: 'warm-up' }), true);
  assert.equal(mayBeSlow({ kind: 'constrain', request: { messages: [] }, text, format: 'kimi_k2' }), true);
  assert.equal(mayBeSlow(job(text)), true, 'its grammar is not compiled yet');
  const outcome = await runJob(job(text));
  assert.ok('ran' in outcome && outcome.ran && outcome.result.accepted);
  assert.equal(mayBeSlow(job(text)), false, 'compiled now');
  assert.equal(mayBeSlow(job(`${'x'.repeat(5000)}${text}`)), true, 'a long text');
  assert.equal(mayBeSlow(job(text, { format: 'hermes' })), true, "another format's grammar");
});

test('grammars by request JSON: 64 kept, the least recently used dropped first', async () => {
  const request = (name: string) =>
    JSON.stringify({
      tools: [{ type: 'function', function: { name, parameters: { type: 'object', properties: { n: { type: 'integer' } } } } }],
      tool_choice: null,
    });
  const run = async (name: string) => {
    const outcome = await runJob({
      kind: 'what-if',
      request: request(name),
      format: 'kimi_k2',
      text: section(call(name, 0, '{"n": 1}')),
      finishReason: 'tool_calls',
      options: {},
    });
    assert.ok('ran' in outcome && outcome.ran && outcome.result.accepted, name);
  };
  const kept = (name: string) => hasRequestGrammar(request(name), { format: 'kimi_k2' });
  await run('kept_a');
  for (let i = 0; i < 63; i++) await run(`kept_b${i}`);
  assert.ok(kept('kept_a') && kept('kept_b0') && kept('kept_b62'));
  // Used again: now the most recently used; kept_b0 is the least.
  await run('kept_a');
  await run('kept_c');
  assert.equal(kept('kept_b0'), false, 'the least recently used was dropped');
  assert.ok(kept('kept_a') && kept('kept_b1') && kept('kept_c'));
  assert.equal(hasRequestGrammar(request('kept_a'), { format: 'kimi_k2', shape: 'other' }), false, 'kept per format and shape');
});
