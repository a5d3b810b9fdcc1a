import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importLine } from '../../../src/core/trace/importers/importLine.ts';
import { importLineText } from '../../../src/core/trace/importers/importLineText.ts';
import type { ImportResult } from '../../../src/core/trace/importers/importResult.ts';
import type { LoadedRecord } from '../../../src/core/trace/record.ts';
import { CHAT_COMPLETION, CHAT_REQUEST_LINE, NATIVE_RECORDS, TEXT_COMPLETION, k2vvLine } from './traceFixtures.ts';

function loaded(result: ImportResult): LoadedRecord {
  if (result.kind !== 'record') assert.fail(`expected a record, got error: ${result.error.message}`);
  return result.loaded;
}

function errorOf(result: ImportResult): string {
  if (result.kind !== 'error') assert.fail(`expected an error, got record ${result.loaded.record.id}`);
  return result.error.message;
}

test('native records load as written', () => {
  for (const [i, record] of NATIVE_RECORDS.entries()) {
    const got = loaded(importLine(JSON.parse(JSON.stringify(record)), i + 1));
    assert.equal(got.source, 'native');
    assert.equal(got.line, i + 1);
    assert.equal(got.lastLine, i + 1);
    assert.deepEqual(got.record, record);
  }
});

test('native: unknown version, missing id and wrong field types are errors naming the line', () => {
  assert.match(errorOf(importLine({ toolscope: 2, id: 'x' }, 7)), /^line 7: unsupported native record version "toolscope": 2/);
  assert.match(errorOf(importLine({ toolscope: '1', id: 'x' }, 7)), /unsupported native record version "toolscope": "1"/);
  assert.match(errorOf(importLine({ toolscope: 1 }, 3)), /^line 3: native record needs a non-empty string "id"/);
  assert.match(errorOf(importLine({ toolscope: 1, id: 5 }, 3)), /"id", got a number/);
  assert.match(errorOf(importLine({ toolscope: 1, id: 'x', completion: { tokens: [] } }, 3)), /"completion.text" must be a string/);
  assert.match(
    errorOf(importLine({ toolscope: 1, id: 'x', response: 'ok' }, 3)),
    /"response" must be a chat.completion object or an array/,
  );
  assert.match(errorOf(importLine({ toolscope: 1, id: 'x', error: { code: 1 } }, 3)), /"error" must be a string/);
});

test('bare chat request: id is the line number, request kept whole', () => {
  const got = loaded(importLine(structuredClone(CHAT_REQUEST_LINE), 42));
  assert.equal(got.source, 'chat-request');
  assert.equal(got.record.id, '42');
  assert.deepEqual(got.record.request, CHAT_REQUEST_LINE);
  assert.equal(got.record.response, undefined);
});

test('bare chat request: a message without a role is an error', () => {
  assert.match(errorOf(importLine({ messages: [{ content: 'hi' }] }, 2)), /^line 2: chat request: messages\[0\].role must be a string/);
  assert.match(errorOf(importLine({ messages: ['hi'] }, 2)), /messages\[0\] must be a message object, got a string/);
});

test('K2VV result, success: id from data_index, response kept, verdicts in meta', () => {
  const got = loaded(importLine(k2vvLine(17), 3));
  assert.equal(got.source, 'k2vv-result');
  assert.equal(got.line, 3);
  assert.equal(got.record.id, '17');
  assert.deepEqual(got.record.request, CHAT_REQUEST_LINE);
  assert.deepEqual(got.record.response, CHAT_COMPLETION);
  assert.equal(got.record.error, undefined);
  assert.deepEqual(got.record.meta, {
    source: 'k2vv',
    endpoint: '/v1/chat/completions',
    status: 'success',
    finish_reason: 'stop',
    tool_calls_valid: true,
    duration_ms: 1234,
    hash: '0123456789abcdef0123456789abcdef',
    last_run_at: '2025-01-02T03:04:05.678901',
    created: '2025-01-02T03:04:05.678901',
  });
});

test('K2VV result, failed: the error body becomes record.error', () => {
  const got = loaded(importLine(k2vvLine(33, true), 33));
  assert.equal(got.record.id, '33');
  assert.equal(got.record.response, undefined);
  assert.equal(got.record.error, 'Error code: 429 - rate limited');
  assert.equal(got.record.meta?.status, 'failed');
  assert.equal(got.record.meta?.finish_reason, null);
  assert.equal(got.record.meta?.tool_calls_valid, null);
});

test('K2VV result: bad data_index and a non-object error body', () => {
  assert.match(errorOf(importLine({ ...k2vvLine(1), data_index: '1' }, 1)), /^line 1: K2VV result: "data_index" must be an integer/);
  const got = loaded(importLine({ ...k2vvLine(4, true), response: { error: { code: 500 } } }, 4));
  assert.equal(got.record.error, '{"code":500}');
});

test('chat.completion response: id from the response, else line-N', () => {
  const got = loaded(importLine(structuredClone(CHAT_COMPLETION), 5));
  assert.equal(got.source, 'chat-completion');
  assert.equal(got.record.id, 'chatcmpl-abc');
  assert.deepEqual(got.record.response, CHAT_COMPLETION);
  const { id: _id, object: _object, ...anonymous } = CHAT_COMPLETION;
  const got2 = loaded(importLine(structuredClone(anonymous), 6));
  assert.equal(got2.source, 'chat-completion');
  assert.equal(got2.record.id, 'line-6');
  assert.match(
    errorOf(importLine({ object: 'chat.completion', choices: [{ text: 'x' }] }, 8)),
    /choices\[0\] must be an object|choices\[0\].message must be an object/,
  );
});

test('text_completion: text, finish reason and logprob tokens, token_id:N becoming ids', () => {
  const got = loaded(importLine(structuredClone(TEXT_COMPLETION), 9));
  assert.equal(got.source, 'completions');
  assert.equal(got.record.id, 'cmpl-xyz');
  assert.equal(got.record.response, undefined);
  assert.deepEqual(got.record.completion, {
    text: 'Let me check.<|tool_calls_section_begin|>',
    finish_reason: 'length',
    tokens: [
      {
        text: 'Let',
        logprob: -0.5,
        top: [
          { text: 'Let', logprob: -0.5 },
          { text: 'I', logprob: -1.2 },
        ],
      },
      { text: ' me', logprob: -0.1 },
      { text: ' check', logprob: -0.2, top: [{ text: ' check', logprob: -0.2 }] },
      { text: '.', logprob: -0.05, top: [{ text: '.', logprob: -0.05 }] },
      {
        id: 163595,
        text: '',
        logprob: -0.01,
        top: [
          { id: 163595, text: '', logprob: -0.01 },
          { id: 13, text: '', logprob: -4.5 },
        ],
      },
    ],
  });
  assert.deepEqual(got.record.meta, { endpoint: '/v1/completions', model: 'kimi-k2' });
});

test('text_completion: recognised by choices[].text, no logprobs, null logprob left out', () => {
  const got = loaded(importLine({ choices: [{ text: 'hi', finish_reason: null }] }, 4));
  assert.equal(got.record.id, 'line-4');
  assert.deepEqual(got.record.completion, { text: 'hi', finish_reason: null });
  const echo = loaded(
    importLine({ choices: [{ text: 'ab', logprobs: { tokens: ['a', 'b'], token_logprobs: [null, -1], top_logprobs: [null, null] } }] }, 1),
  );
  assert.deepEqual(echo.record.completion?.tokens, [{ text: 'a' }, { text: 'b', logprob: -1 }]);
  assert.match(
    errorOf(importLine({ object: 'text_completion', choices: [{ text: 'a', logprobs: { tokens: [1] } }] }, 2)),
    /tokens\[0\] must be a string/,
  );
});

test('unrecognised lines say what was expected', () => {
  const message = errorOf(importLine({ hello: 'world' }, 12));
  assert.match(message, /^line 12: not a recognised trace line \(keys: hello\)/);
  assert.match(message, /expected a native record/);
  assert.match(errorOf(importLine([1, 2], 1)), /^line 1: got an array; expected/);
  assert.match(errorOf(importLine('x', 1)), /got a string/);
  assert.match(errorOf(importLine({ object: 'chat.completion.chunk', choices: [] }, 1)), /outside an SSE dump/);
});

test('importLineText: malformed JSON, and an incomplete last line', () => {
  assert.match(errorOf(importLineText('{"toolscope": 1,', 4, false)), /^line 4: invalid JSON \(/);
  assert.equal(errorOf(importLineText('{"toolscope": 1,', 4, true)), 'line 4 is incomplete (the file may still be being written)');
  assert.equal(loaded(importLineText('{"toolscope": 1, "id": "z"}', 4, true)).record.id, 'z');
});
