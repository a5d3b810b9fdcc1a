/**
 * Replay's tag building: with guided decoding on, a grammar xgrammar cannot compile is said before the request
 * goes out (`onGuidedProblem`), and the request is still sent — the server's answer (the embedded one: 400 with the
 * same reason) is the replay's result.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type RunningServer } from '../../../src/net/server/openAiServer.ts';
import { replayRecord } from '../../../src/net/replay/replay.ts';
import { recordWithSchema } from '../../fixtures/hostileSchemas.ts';

let server: RunningServer;
before(async () => {
  server = await startServer({});
});
after(() => server.close());

test('guided replay of a schema xgrammar cannot compile: warned before sending, the 400 recorded', async () => {
  const original = recordWithSchema('dangling', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
  for (const engine of ['vllm', 'sglang'] as const) {
    const problems: string[] = [];
    const { record, error } = await replayRecord(original, {
      endpoint: { name: 'embedded', baseUrl: server.url, model: 'sim', engine },
      mode: 'completions',
      guided: true,
      retries: 0,
      onGuidedProblem: (reason) => problems.push(reason),
    });
    assert.deepEqual(problems, ['xgrammar cannot compile the parameters of tool f: the $ref `#/$defs/missing` points to nothing'], engine);
    assert.ok(error, engine);
    assert.match(record.error ?? '', /400.*points to nothing|points to nothing/, engine);
  }
  const off: string[] = [];
  await replayRecord(original, {
    endpoint: { name: 'embedded', baseUrl: server.url, model: 'sim', engine: 'vllm' },
    mode: 'completions',
    guided: false,
    retries: 0,
    onGuidedProblem: (r) => off.push(r),
  });
  assert.deepEqual(off, [], 'guided off: nothing to say');
});
