import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { TraceIndex } from '../../../src/io/trace/traceIndex.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import type { ChatCompletion, ChatCompletionChunk, LoadedRecord } from '../../../src/core/trace/record.ts';
import { responseMessage } from '../../../src/core/trace/responseMessage.ts';
import { mulberry32, randomCuts } from '../../fixtures/randomCuts.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/anthropic/', import.meta.url));
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

let dir = '';
let counter = 0;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-anthropic-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function only(text: string): LoadedRecord {
  const got = importText(text);
  assert.deepEqual(got.errors, []);
  assert.equal(got.records.length, 1);
  return got.records[0] as LoadedRecord;
}

test('a streamed tool call (Anthropic docs): one record, text and call assembled, tool_use → tool_calls, ids and usage kept', async () => {
  const text = await fixture('streaming-tool-use.sse');
  const loaded = only(text);
  assert.equal(loaded.source, 'anthropic-stream');
  assert.equal(loaded.line, 1);
  assert.equal(loaded.lastLine, text.trimEnd().split('\n').length);
  assert.equal(loaded.record.id, 'msg_014p7gG3wDgGV9EUtLvnow3U');
  const msg = responseMessage(loaded.record.response ?? []);
  assert.equal(msg.content, "Okay, let's check the weather for San Francisco, CA:");
  assert.equal(msg.finishReason, 'tool_calls');
  assert.deepEqual(
    msg.calls.map((c) => [c.index, c.id, c.name, c.arguments]),
    [[0, 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', 'get_weather', '{"location": "San Francisco, CA", "unit": "fahrenheit"}']],
  );
  // The fragments exactly as sent (the empty first one is no fragment).
  assert.equal(msg.calls[0]?.fragments.length, 8);
  assert.deepEqual(loaded.record.meta, {
    source: 'anthropic',
    endpoint: '/v1/messages',
    model: 'claude-opus-4-1-20250805',
    message_id: 'msg_014p7gG3wDgGV9EUtLvnow3U',
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 472, output_tokens: 89 },
    stream: true,
  });
  const analysed = new Analyzer().analyze(loaded);
  assert.deepEqual(
    analysed.diagnostics.filter((d) => d.kind === 'finish-reason-mismatch'),
    [],
  );
});

test('a streamed answer with extended thinking: thinking_delta → reasoning, end_turn → stop', async () => {
  const loaded = only(await fixture('streaming-thinking.sse'));
  const msg = responseMessage(loaded.record.response ?? []);
  assert.equal(
    msg.reasoning,
    'I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0\n\nSo GCD(1071, 462) = 21',
  );
  assert.equal(msg.content, 'The greatest common divisor of 1071 and 462 is **21**.');
  assert.equal(msg.finishReason, 'stop');
  assert.deepEqual(msg.calls, []);
});

test('error events are part of the stream they broke; an error alone is a record whose only content is the error', async () => {
  const got = importText(await fixture('streaming-error.sse'));
  assert.deepEqual(got.errors, []);
  assert.equal(got.records.length, 2);
  const [broken, alone] = got.records;
  assert.equal(broken?.record.id, 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY');
  assert.equal(broken?.record.error, 'overloaded_error: Overloaded');
  assert.equal(broken?.record.meta?.error_type, 'overloaded_error');
  assert.equal(responseMessage(broken?.record.response ?? []).content, 'Hello');
  assert.deepEqual([broken?.line, broken?.lastLine], [1, 11]);
  assert.equal(alone?.record.error, 'overloaded_error: Overloaded');
  assert.deepEqual(alone?.record.response, []);
  assert.deepEqual([alone?.record.id, alone?.line], ['line-13', 13]);
});

test('the AI SDK fixture: an empty first input_json_delta and a ping do not disturb the call', async () => {
  const lines = (await fixture('json-tool.chunks.txt')).trim().split('\n');
  const loaded = only(lines.map((l) => `data: ${l}\n`).join('\n'));
  const msg = responseMessage(loaded.record.response ?? []);
  assert.deepEqual(
    msg.calls.map((c) => [c.id, c.name, c.arguments]),
    [['toolu_01KFbKqPYSuAKujiL6mTfzYA', 'json', '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}']],
  );
  assert.equal(msg.finishReason, 'tool_calls');
});

test('a tool_use block with no input_json_delta: its start input, canonically serialised', () => {
  const events = [
    { type: 'message_start', message: { id: 'msg_x', type: 'message', role: 'assistant', content: [], model: 'm' } },
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'now', input: {} } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'f', input: { b: 1, a: [true] } } },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
    { type: 'message_stop' },
  ];
  const loaded = only(events.map((e) => `data: ${JSON.stringify(e)}`).join('\n'));
  assert.deepEqual(
    responseMessage(loaded.record.response ?? []).calls.map((c) => c.arguments),
    ['{}', '{"a":[true],"b":1}'],
  );
});

test('two streams in one block split at message_start; a bad event is an error for its line only', () => {
  const start = (id: string) => ({ type: 'message_start', message: { id, type: 'message', role: 'assistant', content: [] } });
  const text = (t: string) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } });
  const lines = [
    start('m1'),
    text('a'),
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } },
    { type: 'message_stop' },
    start('m2'),
    text('b'),
  ];
  const got = importText(lines.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}`).join('\n\n'));
  assert.deepEqual(
    got.records.map((r) => [r.record.id, responseMessage(r.record.response ?? []).content]),
    [
      ['m1', 'a'],
      ['m2', 'b'],
    ],
  );
  assert.deepEqual(
    got.errors.map((e) => e.line),
    [8],
  );
  assert.match(got.errors[0]?.message ?? '', /Anthropic content_block_delta event: text_delta: "text" must be a string/);
});

test('a final message object (pretty-printed, as in the docs): text, tool_use input canonical, tool_use → tool_calls', async () => {
  const text = await fixture('message-tool-use.json');
  const loaded = only(text);
  assert.equal(loaded.source, 'anthropic');
  assert.deepEqual([loaded.line, loaded.lastLine], [1, text.trimEnd().split('\n').length]);
  const response = loaded.record.response as ChatCompletion;
  assert.deepEqual(response.choices[0], {
    index: 0,
    message: {
      role: 'assistant',
      content: "I'll check the current weather in San Francisco for you.",
      tool_calls: [
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
        },
      ],
    },
    finish_reason: 'tool_calls',
  });
  assert.equal(loaded.record.meta?.stop_reason, 'tool_use');
});

test('a message with thinking: reasoning_content, like a chat.completion; a bad block is a line error', () => {
  const message = {
    id: 'msg_t',
    type: 'message',
    role: 'assistant',
    model: 'kimi-k2',
    stop_reason: 'end_turn',
    usage: { input_tokens: 3, output_tokens: 5 },
    content: [
      { type: 'thinking', thinking: 'Hmm.', signature: 's' },
      { type: 'text', text: 'Hi' },
    ],
  };
  const loaded = only(JSON.stringify(message));
  assert.equal((loaded.record.response as ChatCompletion).choices[0]?.message.reasoning_content, 'Hmm.');
  assert.deepEqual(loaded.record.meta?.usage, { input_tokens: 3, output_tokens: 5 });
  const bad = importText(JSON.stringify({ ...message, content: [{ type: 'text', text: null }] }));
  assert.match(bad.errors[0]?.message ?? '', /^line 1: Anthropic message: content\[0\]\.text must be a string/);
  const error = only(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' }, request_id: 'req_1' }));
  assert.deepEqual([error.record.error, error.record.meta?.error_type], ['rate_limit_error: Slow down', 'rate_limit_error']);
});

test('streamed to a file in random pieces: once complete, the same record as the whole file, at every refresh no crash', async () => {
  const whole = await fixture('streaming-tool-use.sse');
  const expected = importText(whole).records;
  const rnd = mulberry32(15);
  for (let round = 0; round < 5; round++) {
    const path = join(dir, `s${counter++}.sse`);
    await writeFile(path, '');
    const index = await TraceIndex.open(path);
    try {
      for (const piece of randomCuts(whole, rnd, 400)) {
        await appendFile(path, piece);
        await index.refresh();
        for (let i = 0; i < index.count; i++) await index.read(i);
      }
      const got = await index.read(0);
      assert.deepEqual(got.errors, []);
      assert.deepEqual(got.records, expected);
    } finally {
      await index.close();
    }
    assert.deepEqual((await loadAll(path, { chunkSize: 7 })).records, expected);
  }
});

test('chunks of the stream match what the client saw: a role chunk, then one chunk per delta', async () => {
  const loaded = only(await fixture('streaming-tool-use.sse'));
  const chunks = loaded.record.response as ChatCompletionChunk[];
  assert.deepEqual(chunks[0]?.choices[0]?.delta, { role: 'assistant' });
  assert.ok(chunks.every((c) => c.id === 'msg_014p7gG3wDgGV9EUtLvnow3U' && c.object === 'chat.completion.chunk'));
  assert.deepEqual(chunks[chunks.length - 1]?.choices[0], { index: 0, delta: {}, finish_reason: 'tool_calls' });
});
