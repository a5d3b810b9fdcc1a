/**
 * The recording proxy under hostile requests (loopback only): a key inside a body that is not JSON, a body nested
 * 5,000 deep, `messages` that is a string, a client that sends its body too slowly. Every exchange it forwards is
 * recorded as a line `analyze` reads back, and no key reaches the disk.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { startRecordingProxy, type ExchangeSummary, type RecordingProxyOptions } from '../../../src/net/capture/recordingProxy.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';
import { post, testUpstream, withTempDir } from './httpKit.ts';

const KEY = 'gsk_Zq8Wx7Ec6Rv5Tb4Yn3Um2Il1Ok0Pa9';

/** An upstream that answers every request with a small chat.completion. */
async function okUpstream() {
  return testUpstream((_req, res) => {
    const body = JSON.stringify({
      id: 'c1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}

async function withProxy(
  options: Partial<RecordingProxyOptions>,
  fn: (url: string, dir: string, recorded: (n: number) => Promise<void>) => Promise<void>,
) {
  const upstream = await okUpstream();
  try {
    await withTempDir(async (dir) => {
      const done: ExchangeSummary[] = [];
      const waiters: Array<{ n: number; resolve: () => void }> = [];
      const proxy = await startRecordingProxy({
        upstream: upstream.url,
        out: join(dir, 'traces.jsonl'),
        ...options,
        onExchange: (s) => {
          done.push(s);
          for (const w of waiters) if (done.length >= w.n) w.resolve();
        },
      });
      const recorded = (n: number) => (done.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })));
      try {
        await fn(proxy.url, dir, recorded);
      } finally {
        await proxy.close({ graceMs: 0 });
      }
    });
  } finally {
    await upstream.close();
  }
}

async function everyFileMentions(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const name of await readdir(dir)) if ((await readFile(join(dir, name), 'utf8')).includes(needle)) hits.push(name);
  return hits;
}

test('a body that is not JSON is recorded with its key redacted (raw text kept, bounded)', async () => {
  await withProxy({}, async (url, dir, recorded) => {
    const raw = `{"api_key": "${KEY}", "messages": [`;
    const r = await post(`${url}/chat/completions`, raw, { headers: { 'x-api-key': KEY } });
    assert.equal(r.status, 200);
    await recorded(1);
    assert.deepEqual(await everyFileMentions(dir, KEY), [], 'the key reached the disk');
    const { records, errors } = await loadAll(join(dir, 'traces.jsonl'));
    assert.deepEqual(errors, []);
    assert.match(String(records[0]?.record.meta?.rawRequestBody), /"api_key": "\[redacted\]"/u);
  });
});

test('a body nested 5,000 deep is forwarded and recorded (raw bytes kept, bounded), analyze reads the line', async () => {
  await withProxy({ captureTokens: true }, async (url, dir, recorded) => {
    const deep = `{"model": "m", "messages": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const r = await post(`${url}/chat/completions`, deep);
    assert.equal(r.status, 200);
    await recorded(1);
    const { records, errors } = await loadAll(join(dir, 'traces.jsonl'));
    assert.deepEqual(errors, []);
    const meta = records[0]?.record.meta ?? {};
    assert.equal(typeof meta.rawRequestBody, 'string');
    assert.ok(String(meta.rawRequestBody).length <= 64 * 1024 + 100);
    assert.equal(meta.rawRequestBytes, Buffer.byteLength(deep));
    assert.match(String((meta.notes as string[] | undefined)?.join(' ')), /nested deeper than/u);
  });
});

test('an exchange whose messages is a string is recorded as a line analyze reads', async () => {
  await withProxy({}, async (url, dir, recorded) => {
    const r = await post(`${url}/chat/completions`, { model: 'm', messages: 'Weather in Paris?' });
    assert.equal(r.status, 200);
    await recorded(1);
    const { records, errors } = await loadAll(join(dir, 'traces.jsonl'));
    assert.deepEqual(errors, []);
    const record = records[0]?.record as TraceRecord;
    assert.equal(record.request, undefined);
    assert.match(String(record.meta?.rawRequestBody), /Weather in Paris/u);
    assert.match(String((record.meta?.notes as string[] | undefined)?.join(' ')), /"messages" is not an array/u);
  });
});

test('exchanges whose messages hold null or whose tools are a string are recorded as lines analyze reads', async () => {
  await withProxy({}, async (url, dir, recorded) => {
    for (const body of [
      { model: 'm', messages: [null] },
      { model: 'm', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: 'x' },
    ])
      assert.equal((await post(`${url}/chat/completions`, body)).status, 200);
    await recorded(2);
    const { records, errors } = await loadAll(join(dir, 'traces.jsonl'));
    assert.deepEqual(errors, []);
    assert.equal(records.length, 2);
    for (const loaded of records) {
      assert.equal(loaded.record.request, undefined);
      assert.match(String((loaded.record.meta?.notes as string[] | undefined)?.join(' ')), /the request is not one a trace holds/u);
    }
    assert.match(String(records[0]?.record.meta?.rawRequestBody), /\[null\]/u);
    assert.match(String(records[1]?.record.meta?.rawRequestBody), /Weather in Oslo/u);
  });
});

test('a client that sends its body too slowly is answered 408 and the connection closed', async () => {
  await withProxy({ requestTimeoutMs: 400 }, async (url) => {
    const { port } = new URL(url);
    const started = performance.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"model"`,
        );
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      // A bound on the test, not a wait: it does not keep the process alive.
      setTimeout(() => socket.destroy(), 10_000).unref();
    });
    assert.match(answer, /^HTTP\/1\.1 408/u);
    assert.ok(performance.now() - started < 5000);
  });
});

test('the request timeout does not cut a long answer: a stream slower than the limit still arrives whole', async () => {
  const slow = await testUpstream(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < 6; i++) {
      res.write(
        `data: ${JSON.stringify({ id: 's', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `${i}` }, finish_reason: null }] })}\n\n`,
      );
      await new Promise((r) => setTimeout(r, 150));
    }
    res.end('data: [DONE]\n\n');
  });
  try {
    await withTempDir(async (dir) => {
      const proxy = await startRecordingProxy({ upstream: slow.url, out: join(dir, 't.jsonl'), requestTimeoutMs: 300 });
      try {
        const r = await post(`${proxy.url}/chat/completions`, { model: 'm', stream: true, messages: [] });
        assert.equal(r.status, 200);
        assert.equal(r.broken, false);
        assert.match(r.body.toString(), /\[DONE\]/u);
      } finally {
        await proxy.close({ graceMs: 0 });
      }
    });
  } finally {
    await slow.close();
  }
});

test('answers nested 5,000 deep (a whole body, a stream event) are passed on and the exchange still recorded', async () => {
  const deep = `{"choices": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const upstream = await testUpstream((req, res) => {
    if (req.url?.includes('stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${deep}\n\ndata: [DONE]\n\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(deep);
  });
  try {
    await withTempDir(async (dir) => {
      const recorded: string[] = [];
      const proxy = await startRecordingProxy({
        upstream: upstream.url,
        out: join(dir, 't.jsonl'),
        onExchange: (s) => recorded.push(s.id),
        onError: (err) => recorded.push(`error: ${String(err)}`),
      });
      try {
        const whole = await post(`${proxy.url}/chat/completions`, { model: 'm', messages: [] });
        assert.equal(whole.body.toString(), deep);
        const streamed = await post(`${proxy.url}/chat/completions?stream`, { model: 'm', stream: true, messages: [] });
        assert.match(streamed.body.toString(), /\[DONE\]/u);
      } finally {
        await proxy.close({ graceMs: 1000 });
      }
      assert.equal(recorded.filter((r) => !r.startsWith('error')).length, 2, recorded.join('\n'));
      const { records, errors } = await loadAll(join(dir, 't.jsonl'));
      assert.deepEqual(errors, []);
      assert.equal(records.length, 2);
      for (const r of records) assert.match(r.record.error ?? '', /nested deeper than 256 levels|not JSON/u);
    });
  } finally {
    await upstream.close();
  }
});

test('a credential the client sent is struck wherever it appears in the record, the answer that echoes it included', async () => {
  // Keys of no known shape (no sk-/gsk_ prefix): only their exact strings can find them.
  const keys = { bearer: 'Zq8Wx7Ec6Rv5Tb4Yn3Um2Il1', header: 'Hd9Jk8Lm7Nb6Vc5Xz4Qw3Er', query: 'Qy7Ui6Op5As4Df3Gh2Jk1Lz' };
  const upstream = await testUpstream((req, res) => {
    // An upstream that echoes what it was sent in its answer (as error pages and debug echoes do).
    const echo = `auth=${String(req.headers.authorization)} key=${String(req.headers['x-api-key'])} url=${req.url}`;
    const body = JSON.stringify({
      id: 'c1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: echo }, finish_reason: 'stop' }],
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  try {
    await withTempDir(async (dir) => {
      let done = 0;
      const proxy = await startRecordingProxy({ upstream: upstream.url, out: join(dir, 'traces.jsonl'), onExchange: () => done++ });
      try {
        const r = await post(
          `${proxy.url}/chat/completions?api_key=${keys.query}`,
          { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
          { headers: { authorization: `Bearer ${keys.bearer}`, 'x-api-key': keys.header } },
        );
        assert.equal(r.status, 200);
        assert.ok(r.body.includes(keys.bearer), 'the client still gets the answer as sent');
        while (done < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await proxy.close({ graceMs: 0 });
      }
      for (const file of await readdir(dir)) {
        const text = await readFile(join(dir, file), 'utf8');
        for (const key of Object.values(keys)) assert.ok(!text.includes(key), `${file} holds ${key}`);
      }
      const { records } = await loadAll(join(dir, 'traces.jsonl'));
      const content = String(records[0]?.record.response && JSON.stringify(records[0].record.response));
      assert.match(content, /auth=\[redacted\] key=\[redacted\] url=\/v1\/chat\/completions\?api_key=\[redacted\]/u);
    });
  } finally {
    await upstream.close();
  }
});
