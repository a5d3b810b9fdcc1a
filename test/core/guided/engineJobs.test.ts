/**
 * Which jobs the grammar worker answers ahead of (engineJobs.ts `mayBeSlow`): anything that may compile or run long,
 * so that answers held for a batch never wait on it (engineWorker.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayBeSlow, runJob } from '../../../src/core/guided/engineJobs.ts';
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
