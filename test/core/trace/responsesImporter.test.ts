import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import type { ChatCompletion, LoadedRecord } from '../../../src/core/trace/record.ts';
import { responseMessage } from '../../../src/core/trace/responseMessage.ts';
import { mulberry32, randomCuts } from '../../fixtures/randomCuts.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/openai-responses/', import.meta.url));
const events = async (name: string) =>
  (await readFile(join(fixtures, name), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string });
/** As an SSE dump: with `event:` lines (as OpenAI sends them) or `data:` lines alone. */
const sse = (list: Array<{ type: string }>, withEvents: boolean) =>
  list.map((e) => `${withEvents ? `event: ${e.type}\n` : ''}data: ${JSON.stringify(e)}\n\n`).join('');

function only(text: string): LoadedRecord {
  const got = importText(text);
  assert.deepEqual(got.errors, []);
  assert.equal(got.records.length, 1);
  return got.records[0] as LoadedRecord;
}

const TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    strict: true,
  },
};

test('a streamed function call (AI SDK fixture), with and without event: lines: one record, call_id and fragments as sent, the tools as the request', async () => {
  const list = await events('tool-call.chunks.txt');
  for (const withEvents of [true, false]) {
    const loaded = only(sse(list, withEvents));
    assert.equal(loaded.source, 'openai-responses-stream');
    assert.equal(loaded.record.id, 'resp_0775572d10a16b66006a8d85285ef487d2ae865d3657af7276');
    assert.deepEqual([loaded.line, loaded.lastLine], withEvents ? [1, list.length * 3 - 1] : [1, list.length * 2 - 1]);
    const msg = responseMessage(loaded.record.response ?? []);
    assert.deepEqual(
      msg.calls.map((c) => [c.index, c.id, c.name, c.arguments, c.fragments.length]),
      [[0, 'call_2FQdm3Br7Qb35YUBSkDR7kue', 'get_weather', '{"city":"Beijing"}', 6]],
    );
    assert.equal(msg.finishReason, 'tool_calls');
    assert.equal(msg.content, null);
    assert.deepEqual(loaded.record.request, { model: 'gpt-5.1-2025-11-13', tools: [TOOL], tool_choice: 'required' });
    assert.equal(loaded.record.meta?.status, 'completed');
    assert.deepEqual(loaded.record.meta?.usage, {
      input_tokens: 45,
      input_tokens_details: { cache_write_tokens: 0, cached_tokens: 0 },
      output_tokens: 25,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 70,
    });
    const analysed = new Analyzer().analyze(loaded);
    assert.deepEqual(
      analysed.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.kind),
      [],
      'a clean call: no finish-reason-mismatch, no bad-call-id on call_…',
    );
  }
});

test('the same stream written to a file piece by piece imports the same once complete (split invariance of the block)', async () => {
  const text = sse(await events('tool-call.chunks.txt'), true);
  const expected = importText(text).records;
  const rnd = mulberry32(7);
  for (let round = 0; round < 20; round++) {
    // Every prefix cut at a piece boundary imports without throwing; the whole gives the record.
    let prefix = '';
    for (const piece of randomCuts(text, rnd, 300)) {
      prefix += piece;
      importText(prefix);
    }
    assert.deepEqual(importText(prefix).records, expected);
  }
});

test('a non-streamed response object (pretty-printed): the same call, finish and request', async () => {
  const text = await readFile(join(fixtures, 'tool-call.response.json'), 'utf8');
  const loaded = only(text);
  assert.equal(loaded.source, 'openai-responses');
  assert.deepEqual([loaded.line, loaded.lastLine], [1, text.trimEnd().split('\n').length]);
  const choice = (loaded.record.response as ChatCompletion).choices[0];
  assert.deepEqual(choice, {
    index: 0,
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_2FQdm3Br7Qb35YUBSkDR7kue', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Beijing"}' } },
      ],
    },
    finish_reason: 'tool_calls',
  });
  assert.deepEqual(loaded.record.request?.tools, [TOOL]);
  assert.equal(loaded.record.meta?.created, new Date(1787659560 * 1000).toISOString());
});

test('reasoning: reasoning_text parts (gpt-oss via vLLM), else the summary, into reasoning_content; output_text into content', () => {
  const response = {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'openai/gpt-oss-120b',
    output: [
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'short' }],
        content: [{ type: 'reasoning_text', text: 'The user asks for Paris.' }],
      },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'It is ', annotations: [] },
          { type: 'output_text', text: 'sunny.', annotations: [] },
        ],
      },
    ],
  };
  const message = (only(JSON.stringify(response)).record.response as ChatCompletion).choices[0];
  assert.deepEqual(
    [message?.message.content, message?.message.reasoning_content, message?.finish_reason],
    ['It is sunny.', 'The user asks for Paris.', 'stop'],
  );
  const summaryOnly = {
    ...response,
    output: [
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [
          { type: 'summary_text', text: '**Plan** ' },
          { type: 'summary_text', text: 'look it up' },
        ],
      },
    ],
  };
  assert.equal(
    (only(JSON.stringify(summaryOnly)).record.response as ChatCompletion).choices[0]?.message.reasoning_content,
    '**Plan** look it up',
  );
  const incomplete = { ...response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  assert.equal((only(JSON.stringify(incomplete)).record.response as ChatCompletion).choices[0]?.finish_reason, 'length');
});

test('a streamed reasoning summary, cut before response.completed: reasoning kept, no finish', async () => {
  const loaded = only(sse(await events('reasoning-summary.chunks.txt'), false));
  const msg = responseMessage(loaded.record.response ?? []);
  assert.equal(msg.reasoning, '**Anonymized summary 0**');
  assert.equal(msg.finishReason, null);
});

test("failures: response.failed alone, and an error event before it, are the stream's error (stream-error)", async () => {
  const failed = only(sse(await events('failed-only.chunks.txt'), true));
  assert.equal(
    failed.record.error,
    'rate_limit_exceeded: Request too large for gpt-4o-mini in organization on tokens per min (TPM): Limit 30000, Requested 35364.',
  );
  assert.equal(failed.record.meta?.status, 'failed');
  const errored = only(sse(await events('error.chunks.txt'), true));
  assert.match(errored.record.error ?? '', /^insufficient_quota: You exceeded your current quota/);
  assert.deepEqual(
    new Analyzer().analyze(errored).diagnostics.map((d) => d.kind),
    ['stream-error'],
  );
});

test('two streams in one block split at response.created; a bad event is a line error; a bare event line says to use data: lines', () => {
  const created = (id: string) => ({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } });
  const text = (d: unknown) => ({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, delta: d });
  const completed = (id: string) => ({ type: 'response.completed', response: { id, object: 'response', status: 'completed', output: [] } });
  const got = importText(sse([created('r1'), text('a'), text(5), completed('r1'), created('r2'), text('b'), completed('r2')], false));
  assert.deepEqual(
    got.records.map((r) => [
      r.record.id,
      responseMessage(r.record.response ?? []).content,
      responseMessage(r.record.response ?? []).finishReason,
    ]),
    [
      ['r1', 'a', 'stop'],
      ['r2', 'b', 'stop'],
    ],
  );
  assert.deepEqual(
    got.errors.map((e) => e.line),
    [5],
  );
  assert.match(
    got.errors[0]?.message ?? '',
    /Responses response.output_text.delta event: response.output_text.delta: "delta" must be a string/,
  );
  const bare = importText(JSON.stringify(text('x')));
  assert.match(bare.errors[0]?.message ?? '', /^line 1: a stream event \("type": "response.output_text.delta"\) outside an SSE dump/);
});
