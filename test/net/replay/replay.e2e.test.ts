/** Replay over real HTTP on 127.0.0.1 against the embedded endpoint: both modes, and every error path. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type RunningServer } from '../../../src/net/server/openAiServer.ts';
import { replayRecord, type ReplayOptions } from '../../../src/net/replay/replay.ts';
import { capture } from '../../../src/net/replay/sseCapture.ts';
import { Analyzer } from '../../../src/core/analysis.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
    },
  },
};
const original: TraceRecord = {
  toolscope: 1,
  id: 'orig-1',
  request: { model: 'kimi-k2', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weather], max_tokens: 512 },
};

let server: RunningServer;
before(async () => {
  server = await startServer({ allowFaults: true });
});
after(() => server.close());

const opts = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({
  endpoint: { name: 'embedded', baseUrl: server.url, model: 'toolscope-sim-kimi-k2', engine: 'vllm' },
  mode: 'chat',
  guided: false,
  retries: 0,
  ...over,
});

test('chat mode: every SSE chunk recorded verbatim, timings, and the calls parse', async () => {
  const { record, error } = await replayRecord(original, opts());
  assert.equal(error, null);
  assert.ok(Array.isArray(record.response));
  const chunks = record.response;
  assert.ok(chunks.length > 5);
  assert.equal((record.meta?.rawStream as string[]).length, chunks.length);
  assert.deepEqual(JSON.parse((record.meta?.rawStream as string[])[0] as string), chunks[0]);
  assert.equal(record.meta?.replayOf, 'orig-1');
  assert.equal(record.meta?.guided, false);
  assert.equal(record.meta?.endpoint, server.url);
  assert.ok(typeof (record.meta?.timings as { ttftMs: number }).ttftMs === 'number');
  const analysed = new Analyzer().analyze({ record, line: 1, lastLine: 1, source: 'native' });
  assert.deepEqual(
    analysed.calls.map((c) => c.name),
    ['get_weather'],
  );
  assert.deepEqual(JSON.parse(analysed.calls[0]?.arguments ?? '{}'), { city: 'example', unit: 'celsius' });
  assert.ok(!analysed.diagnostics.some((d) => d.severity === 'error'), JSON.stringify(analysed.diagnostics));
  assert.equal(record.request?.tools?.[0]?.function.strict, undefined, 'guided off sends no strict');
});

test('completions mode: prompt rendered client-side, raw text with special tokens and token ids recorded', async () => {
  const { record, error } = await replayRecord(original, opts({ mode: 'completions' }));
  assert.equal(error, null);
  assert.ok(record.prompt?.endsWith('<|im_assistant|>assistant<|im_middle|>'));
  assert.ok(record.completion?.text.includes('<|tool_calls_section_begin|>'));
  const tokens = record.completion?.tokens ?? [];
  assert.ok(tokens.length > 5);
  assert.ok(
    tokens.some((t) => t.id === 163595),
    'section begin recorded with its real id',
  );
  const analysed = new Analyzer().analyze({ record, line: 1, lastLine: 1, source: 'native' });
  assert.equal(analysed.completion?.origin, 'recorded');
  assert.equal(analysed.calls.length, 1);
  assert.equal(analysed.calls[0]?.id, 'functions.get_weather:0');
});

test('server closes mid-stream: partial chunks kept, error says so', async () => {
  const c = await capture({ url: `${server.url}/chat/completions`, body: { ...original.request, stream: true }, timeoutMs: 5000 });
  assert.equal(c.error, null, 'sanity: the same request without a fault succeeds');
  const r = await captureWithFault('close-mid-stream');
  assert.equal(r.error?.kind, 'premature-end');
  assert.ok(r.events.length > 0, 'the first half is kept');
});

test('500: error with the server message; 429: Retry-After honoured by retries', async () => {
  const r500 = await captureWithFault('500');
  assert.equal(r500.error?.kind, 'http');
  assert.equal(r500.error?.status, 500);
  assert.match(r500.error?.message ?? '', /simulated server failure/);
  const r429 = await captureWithFault('429');
  assert.equal(r429.error?.status, 429);
  assert.equal(r429.error?.retryAfter, 1);
  assert.equal(r429.error?.retryable, true);
});

test('invalid JSON chunk: malformed-stream, the chunks that did parse are kept', async () => {
  const r = await captureWithFault('invalid-chunk');
  assert.equal(r.error?.kind, 'malformed-stream');
  assert.ok(r.events.length > 3);
});

test('timeout: a slow stream past the limit fails with a timeout and keeps what came', async () => {
  const r = await captureWithFault('slow', 700);
  assert.equal(r.error?.kind, 'timeout');
  assert.match(r.error?.message ?? '', /within 0\.7 s/);
  assert.ok(r.events.length >= 1);
});

test('connection refused is reported in plain words', async () => {
  const closed = await startServer();
  const url = closed.url;
  await closed.close();
  const r = await capture({ url: `${url}/chat/completions`, body: {}, timeoutMs: 2000 });
  assert.equal(r.error?.kind, 'connection');
  assert.match(r.error?.message ?? '', /connection refused/);
});

test('cancellation aborts the request', async () => {
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const r = await captureWithFault('slow', 10_000, ac.signal);
  assert.equal(r.error?.kind, 'aborted');
});

test('replay retries a 429 (honouring Retry-After) and records the attempts', async () => {
  const flaky = await startServer({ failFirst: { status: 429, count: 1 } });
  const retries: number[] = [];
  try {
    const { record, error } = await replayRecord(original, {
      ...opts({ retries: 2, retryDelayScale: 0.01, onRetry: (_n, delay) => retries.push(delay) }),
      endpoint: { name: 'f', baseUrl: flaky.url, model: 'm', engine: 'vllm' },
    });
    assert.equal(error, null);
    assert.equal(record.meta?.attempts, 2);
    assert.deepEqual(retries, [10], 'Retry-After: 1 s, scaled by 0.01');
  } finally {
    await flaky.close();
  }
});

test('replay gives up after the retries and keeps the error on the record', async () => {
  const down = await startServer({ failFirst: { status: 500, count: 5 } });
  try {
    const { record, error } = await replayRecord(original, {
      ...opts({ retries: 1, retryDelayScale: 0.001 }),
      endpoint: { name: 'd', baseUrl: down.url, model: 'm', engine: 'vllm' },
    });
    assert.equal(error?.status, 500);
    assert.equal(record.meta?.attempts, 2);
    assert.match(record.error ?? '', /answered 500/);
  } finally {
    await down.close();
  }
});

function captureWithFault(fault: string, timeoutMs = 5000, signal?: AbortSignal) {
  return capture({
    url: `${server.url}/chat/completions`,
    body: { ...original.request, stream: true },
    timeoutMs,
    signal,
    headers: { 'x-toolscope-fault': fault },
  });
}
