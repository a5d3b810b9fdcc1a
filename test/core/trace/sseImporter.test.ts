import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importText } from '../../../src/core/trace/importText.ts';
import { parseSseField } from '../../../src/core/trace/importers/sseImporter.ts';
import { chunk } from './traceFixtures.ts';

const data = (value: unknown): string => `data: ${JSON.stringify(value)}`;

test('parseSseField: fields, one leading space dropped, comments', () => {
  assert.deepEqual(parseSseField('data: {"a":1}'), { field: 'data', value: '{"a":1}' });
  assert.deepEqual(parseSseField('data:{"a":1}'), { field: 'data', value: '{"a":1}' });
  assert.deepEqual(parseSseField('event: message'), { field: 'event', value: 'message' });
  assert.equal(parseSseField(': keep-alive'), null);
});

test('two interleaved streams and a bad data line: one record per stream, an error for the bad line', () => {
  const text = [
    ': proxy dump', // 1
    'event: message', // 2
    data(chunk('A', { role: 'assistant', content: '' })), // 3
    '', // 4
    data(chunk('B', { role: 'assistant', content: '' })), // 5
    data(chunk('A', { content: 'Hel' })), // 6
    'data: {"id": "B", "choices": [', // 7: broken
    data(chunk('B', { content: 'Bye' }, 'stop')), // 8
    data(chunk('A', { content: 'lo' }, 'stop')), // 9
    'data: [DONE]', // 10
    '', // 11
    'data: [DONE]', // 12
  ].join('\n');
  const { records, errors } = importText(text, 'dump.sse');
  assert.deepEqual(
    records.map((r) => [r.record.id, r.line, r.lastLine, r.source]),
    [
      ['A', 2, 9, 'sse'], // the stream starts at its first event's `event:` line
      ['B', 5, 8, 'sse'],
    ],
  );
  const a = records[0]?.record.response;
  assert.ok(Array.isArray(a));
  assert.deepEqual(
    a.map((c) => c.choices[0]?.delta.content),
    ['', 'Hel', 'lo'],
  );
  assert.equal(errors.length, 1);
  assert.equal(errors[0]?.line, 7);
  assert.match(errors[0]?.message ?? '', /^line 7: SSE data is not valid JSON/);
});

test('an SSE block ends at a JSON line; the next block starts afresh', () => {
  const text = [data(chunk('A', { content: 'x' })), '{"toolscope":1,"id":"n"}', data(chunk('A', { content: 'y' }))].join('\n');
  const { records, errors } = importText(text);
  assert.deepEqual(errors, []);
  assert.deepEqual(
    records.map((r) => [r.record.id, r.line, r.source]),
    [
      ['A', 1, 'sse'],
      ['n', 2, 'native'],
      ['A', 3, 'sse'],
    ],
  );
});

test('chunks without an id form one stream named after the first line', () => {
  const { records } = importText(
    ['', data({ choices: [{ delta: { content: 'a' } }] }), data({ choices: [{ delta: { content: 'b' } }] })].join('\n'),
  );
  assert.equal(records.length, 1);
  assert.equal(records[0]?.record.id, 'line-2');
  assert.equal(records[0]?.lastLine, 3);
});

test('an error event belongs to the stream before it; non-object payloads and bad chunks are errors; whole responses in data lines are imported', () => {
  const text = [
    data(chunk('A', { content: 'a' })),
    data({ error: { message: 'overloaded', code: 503 } }),
    data(42),
    data({ id: 'A', object: 'chat.completion.chunk', choices: [{ index: 0 }] }),
    data({ id: 'whole', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }] }),
  ].join('\n');
  const { records, errors } = importText(text);
  assert.deepEqual(
    records.map((r) => [r.record.id, r.source]),
    [
      ['A', 'sse'],
      ['whole', 'chat-completion'],
    ],
  );
  assert.deepEqual(
    errors.map((e) => e.line),
    [3, 4],
  );
  assert.equal(records[0]?.record.error, 'overloaded');
  assert.equal(records[0]?.lastLine, 2);
  assert.match(errors[0]?.message ?? '', /must be a JSON object/);
  assert.match(errors[1]?.message ?? '', /choices\[0\].delta must be an object/);
});

test('a stream that is only an error (vLLM, llama.cpp) is still a record, with no chunks and the error', () => {
  const message = 'Failed to parse input at pos 0: <|tool_calls_section_begin|>';
  const { records, errors } = importText(
    `data: ${JSON.stringify({ error: { code: 500, message, type: 'server_error' } })}\n\ndata: [DONE]\n`,
  );
  assert.deepEqual(errors, []);
  assert.deepEqual(
    records.map((r) => [r.record.id, r.record.error, r.record.response, r.source]),
    [['line-1', message, [], 'sse']],
  );
});

test('a streamed /v1/completions: text and tokens joined into completion', () => {
  const piece = (text: string, tokens: string[], lps: number[], finish: string | null) => ({
    id: 'cmpl-1',
    object: 'text_completion',
    model: 'kimi-k2',
    choices: [{ index: 0, text, logprobs: { tokens, token_logprobs: lps, top_logprobs: null }, finish_reason: finish }],
  });
  const text = [data(piece('Hi', ['Hi'], [-0.1], null)), data(piece(' there', ['token_id:1234'], [-0.2], 'stop')), 'data: [DONE]'].join(
    '\r\n',
  );
  const { records, errors } = importText(text);
  assert.deepEqual(errors, []);
  assert.equal(records.length, 1);
  assert.deepEqual(records[0]?.record, {
    toolscope: 1,
    id: 'cmpl-1',
    completion: {
      text: 'Hi there',
      tokens: [
        { text: 'Hi', logprob: -0.1 },
        { id: 1234, text: '', logprob: -0.2 },
      ],
      finish_reason: 'stop',
    },
    meta: { endpoint: '/v1/completions', model: 'kimi-k2' },
  });
});

test('a block of only comments and [DONE] yields nothing', () => {
  assert.deepEqual(importText(': ping\n\ndata: [DONE]\n'), { file: '<text>', records: [], errors: [] });
});

test('analysis: a stream that broke is a stream-error; markup quoted in the error is read as the completion, each lost call a dropped-call', async () => {
  const { Analyzer } = await import('../../../src/core/analysis.ts');
  const quoted =
    'Failed to parse input at pos 0: <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>';
  const onlyError = importText(`data: ${JSON.stringify({ error: { code: 500, message: quoted } })}\n`).records[0];
  assert.ok(onlyError);
  const a = new Analyzer().analyze(onlyError);
  assert.deepEqual(a.diagnostics.map((d) => d.kind).sort(), ['dropped-call', 'stream-error']);
  assert.ok(a.completionQuotedInError);
  assert.match(
    a.diagnostics.find((d) => d.kind === 'stream-error')?.message ?? '',
    /^the stream was only an error: .* it quotes the model's tool-call markup/,
  );
  assert.deepEqual(
    a.calls.map((c) => [c.name, c.arguments]),
    [['get_weather', '{"city": "Paris"}']],
  );

  const broken = importText(
    [data(chunk('A', { role: 'assistant', content: 'Hel' })), data({ error: { message: 'upstream timeout' } })].join('\n'),
  ).records[0];
  assert.ok(broken);
  const b = new Analyzer().analyze(broken);
  assert.deepEqual(
    b.diagnostics.map((d) => [d.kind, d.severity, d.code]),
    [['stream-error', 'error', 'TS031']],
  );
  assert.match(b.diagnostics[0]?.message ?? '', /^the stream broke after 1 chunk: "upstream timeout"$/);
  assert.equal(b.completionQuotedInError, false);
});
