/** The client's voice in the inspector: the recorded stream placed on the completion's tokens where its text is found. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../../../src/core/analysis.ts';
import { clientStreamView } from '../../../src/host/view/clientStream.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';

const chunk = (delta: object, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'kimi-k2',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const tokens = [
  'Hi',
  ' there',
  '<|tool_calls_section_begin|>',
  '<|tool_call_begin|>',
  'functions.f:0',
  '<|tool_call_argument_begin|>',
  '{}',
  '<|tool_call_end|>',
  '<|tool_calls_section_end|>',
];

const record = (response: object[]): TraceRecord =>
  ({
    toolscope: 1,
    id: 'r',
    request: {
      model: 'kimi-k2',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    },
    completion: { text: tokens.join(''), tokens: tokens.map((text) => ({ text })), finish_reason: 'tool_calls' },
    response,
  }) as unknown as TraceRecord;

const analyse = (r: TraceRecord) => new Analyzer({ format: 'kimi_k2' }).analyze({ record: r, line: 1, lastLine: 1, source: 'native' });

test('a stream whose text is in the completion: each chunk on the tokens that hold it', async () => {
  const a = await analyse(
    record([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hi there' }),
      chunk({ tool_calls: [{ index: 0, id: 'functions.f:0', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]),
  );
  const v = clientStreamView(a);
  assert.ok(v);
  assert.equal(v.aligned, true);
  assert.equal(v.total, 5);
  assert.deepEqual(
    v.chunks.map((c) => [c.tokenStart, c.tokenEnd]),
    [
      [0, 1],
      [0, 2],
      [4, 5],
      [6, 7],
      [6, 7],
    ],
  );
});

test('a stream the server rewrote: no chunk is placed, the view lists them per chunk', async () => {
  const a = await analyse(
    record([
      chunk({ content: 'Hi there' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{ }' } }] }),
    ]),
  );
  const v = clientStreamView(a);
  assert.ok(v);
  assert.equal(v.aligned, false);
  assert.deepEqual(
    v.chunks.map((c) => [c.tokenStart, c.tokenEnd]),
    [
      [null, null],
      [null, null],
    ],
  );
});

test('a response that was not streamed has no client stream: the view says the final response is all there is', async () => {
  const r = record([]);
  (r as { response: unknown }).response = {
    id: 'x',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'stop' }],
  };
  assert.equal(clientStreamView(await analyse(r)), null);
});
