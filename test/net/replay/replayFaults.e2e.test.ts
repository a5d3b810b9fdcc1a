/**
 * Replay against small fault-injecting servers on 127.0.0.1: a Retry-After of a day, an error event in the middle
 * of a stream, answers past the size limit (plain and as a gzip bomb). Each ends in a bounded time with an error
 * result that keeps what arrived; nothing hangs, nothing throws.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { replayRecord, type ReplayOptions } from '../../../src/net/replay/replay.ts';
import { backoffMs } from '../../../src/net/replay/retry.ts';
import { Analyzer } from '../../../src/core/analysis.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';

const original: TraceRecord = {
  toolscope: 1,
  id: 'orig-1',
  request: { model: 'kimi-k2', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
};

/** A server answering every request with `handler`; counts the requests. */
async function faultServer(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>) {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => void handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const opts = (url: string, over: Partial<ReplayOptions> = {}): ReplayOptions => ({
  endpoint: { name: 'f', baseUrl: url, model: 'm', engine: 'vllm' },
  mode: 'chat',
  guided: false,
  retries: 0,
  ...over,
});

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

test("Retry-After is capped by K2VV's policy (60 s) and never sleeps past the timeout", async () => {
  assert.ok(backoffMs(0, 86_400, () => 0.5) <= 60_000 * 1.25);
  assert.ok(backoffMs(9, undefined, () => 1) <= 60_000 * 1.25);
  const server = await faultServer((_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '86400' });
    res.end('{"error": {"message": "slow down"}}');
  });
  try {
    const started = performance.now();
    const delays: number[] = [];
    const { record, error } = await replayRecord(
      original,
      opts(server.url, { retries: 3, timeoutMs: 1500, onRetry: (_n, d) => delays.push(d) }),
    );
    assert.ok(performance.now() - started < 4000, 'bounded by the timeout');
    assert.equal(error?.status, 429);
    assert.ok(
      delays.every((d) => d < 1500),
      `delays ${delays.join(', ')}`,
    );
    assert.match(record.error ?? '', /429/u);
    assert.match(record.error ?? '', /Retry-After/u);
  } finally {
    await server.close();
  }
});

test('an error event mid-stream is an error result: partial stream kept, a stream-error finding', async () => {
  const server = await faultServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk('The weather'));
    res.write(chunk(' in Paris'));
    res.write(`data: ${JSON.stringify({ error: { message: 'CUDA out of memory', type: 'InternalServerError', code: 500 } })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  try {
    const { record, error } = await replayRecord(original, opts(server.url));
    assert.equal(error?.kind, 'stream-error');
    assert.match(error?.message ?? '', /CUDA out of memory/u);
    assert.equal(record.meta?.partial, true);
    assert.equal((record.response as unknown[]).length, 2, 'the chunks before the error are kept');
    assert.match(record.error ?? '', /CUDA out of memory/u);
    const analysed = new Analyzer().analyze({ record, line: 1, lastLine: 1, source: 'native' });
    const finding = analysed.diagnostics.find((d) => d.kind === 'stream-error');
    assert.equal(finding?.code, 'TS031');
    assert.equal(finding?.severity, 'error');
  } finally {
    await server.close();
  }
});

test('an answer past the size limit stops there: an error result with what arrived, streamed or whole', async () => {
  const piece = chunk('x'.repeat(1000));
  const streamed = await faultServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < 3000 && !res.destroyed; i++) if (!res.write(piece)) await new Promise((r) => res.once('drain', r));
    res.end('data: [DONE]\n\n');
  });
  const whole = await faultServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'y'.repeat(3_000_000) }, finish_reason: 'stop' }] }),
    );
  });
  try {
    const s = await replayRecord(original, opts(streamed.url, { maxAnswerBytes: 1_000_000 }));
    assert.equal(s.error?.kind, 'too-large');
    assert.match(s.error?.message ?? '', /1000000 bytes/u);
    assert.ok((s.record.response as unknown[]).length > 100, 'what arrived is kept');
    const w = await replayRecord(original, opts(whole.url, { maxAnswerBytes: 1_000_000 }));
    assert.equal(w.error?.kind, 'too-large');
    assert.equal(w.record.meta?.partial, true);
  } finally {
    await streamed.close();
    await whole.close();
  }
});

test('a gzip bomb is stopped at the decompression limit', async () => {
  // 48 MB of one character, about 50 KB compressed.
  const bomb = gzipSync(
    Buffer.concat([
      Buffer.from('{"choices": [{"index": 0, "message": {"role": "assistant", "content": "'),
      Buffer.alloc(48 * 1024 * 1024, 0x61),
      Buffer.from('"}}]}'),
    ]),
  );
  const server = await faultServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
    res.end(bomb);
  });
  try {
    const started = performance.now();
    const { error } = await replayRecord(original, opts(server.url, { maxAnswerBytes: 4 * 1024 * 1024 }));
    assert.equal(error?.kind, 'too-large');
    assert.ok(performance.now() - started < 5000);
  } finally {
    await server.close();
  }
});
