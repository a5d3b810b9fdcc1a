/**
 * The recording proxy over real HTTP on 127.0.0.1, in front of the embedded endpoint (and small upstreams that
 * misbehave on purpose): clients get the endpoint's bytes, traces get one whole, valid record per exchange.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import Ajv2020 from 'ajv/dist/2020.js';
import { startServer, type RunningServer } from '../../../src/net/server/openAiServer.ts';
import {
  startRecordingProxy,
  type ExchangeSummary,
  type RecordingProxyOptions,
  type RunningProxy,
} from '../../../src/net/capture/recordingProxy.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { Analyzer } from '../../../src/core/analysis.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';
import { renderPrompt } from '../../../src/core/template/renderPrompt.ts';
import { normalizeSim, post, sleep, ssePayloads, testUpstream, withTempDir } from './httpKit.ts';

const schema: unknown = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../docs/trace-record.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(typeof schema === 'object' && schema !== null ? schema : {});

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
const chat = (i: number, over: Record<string, unknown> = {}) => ({
  model: 'kimi-k2',
  stream: true,
  messages: [{ role: 'user', content: `Weather in city #${i}?` }],
  tools: i % 5 === 4 ? undefined : [weather],
  ...over,
});

let sim: RunningServer;
before(async () => {
  // A small delay per token, so fifty streams really are in flight together.
  sim = await startServer({ allowFaults: true, tokenDelayMs: 2 });
});
after(() => sim.close());

interface Recording {
  proxy: RunningProxy;
  file: string;
  exchanges: ExchangeSummary[];
  /** Resolves once `n` exchanges were recorded. */
  recorded(n: number): Promise<void>;
  records(): Promise<TraceRecord[]>;
}

async function recording(options: Partial<RecordingProxyOptions>, fn: (r: Recording) => Promise<void>): Promise<void> {
  await withTempDir(async (dir) => {
    const file = join(dir, 'traces.jsonl');
    const exchanges: ExchangeSummary[] = [];
    const waiters: Array<{ n: number; resolve: () => void }> = [];
    const proxy = await startRecordingProxy({
      upstream: sim.url,
      out: file,
      ...options,
      onExchange: (s) => {
        exchanges.push(s);
        for (const w of waiters) if (exchanges.length >= w.n) w.resolve();
      },
    });
    const recorded = (n: number) =>
      exchanges.length >= n
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiters.push({ n, resolve });
            setTimeout(() => reject(new Error(`only ${exchanges.length} of ${n} exchanges recorded within 10 s`)), 10_000).unref();
          });
    const records = async () => {
      const { records: loaded, errors } = await loadAll(file);
      assert.deepEqual(errors, [], 'every line of the trace loads');
      for (const r of loaded) assert.ok(validate(r.record), `${r.record.id}: ${ajv.errorsText(validate.errors)}`);
      return loaded.map((r) => r.record);
    };
    try {
      await fn({ proxy, file, exchanges, recorded, records });
    } finally {
      await proxy.close({ graceMs: 0 });
    }
  });
}

test('50 concurrent streams: every client gets the bytes the endpoint sends; 50 whole records that parse and match', async () => {
  const N = 50;
  const direct = await Promise.all(Array.from({ length: N }, (_, i) => post(`${sim.url}/chat/completions`, chat(i))));
  await recording({}, async ({ proxy, file, recorded, records }) => {
    const proxied = await Promise.all(Array.from({ length: N }, (_, i) => post(`${proxy.url}/chat/completions`, chat(i))));
    for (let i = 0; i < N; i++) {
      const d = direct[i];
      const p = proxied[i];
      assert.ok(d && p);
      assert.equal(p.status, 200);
      assert.equal(p.broken, false);
      assert.equal(p.headers['content-type'], 'text/event-stream');
      assert.equal(normalizeSim(p.body), normalizeSim(d.body), `client ${i} got the endpoint's bytes`);
    }
    await recorded(N);
    const text = await readFile(file, 'utf8');
    assert.equal(text.split('\n').length, N + 1, 'one line per record, each ending in a newline');
    const all = await records();
    assert.equal(all.length, N);
    assert.equal(new Set(all.map((r) => r.id)).size, N);
    const analyzer = new Analyzer();
    for (let i = 0; i < N; i++) {
      const record = all.find((r) => r.request?.messages?.[0]?.content === `Weather in city #${i}?`);
      assert.ok(record, `record for client ${i}`);
      const sent = ssePayloads((proxied[i] as { body: Buffer }).body).map((d) => JSON.parse(d) as unknown);
      assert.deepEqual(record.response, sent, `record ${i} holds the chunks client ${i} received`);
      assert.equal(record.error, undefined);
      const meta = record.meta as Record<string, unknown> & { timings: { eventMs: number[]; ttftMs: number; totalMs: number } };
      assert.equal(meta.source, 'toolscope-proxy');
      assert.equal(meta.endpoint, '/v1/chat/completions');
      assert.equal(meta.upstream, sim.url);
      assert.equal(meta.status, 200);
      assert.equal(meta.partial, false);
      assert.equal(meta.timings.eventMs.length, sent.length);
      assert.ok(meta.timings.ttftMs <= meta.timings.totalMs);
      const analysed = analyzer.analyze({ record, line: 1, lastLine: 1, source: 'native' });
      assert.deepEqual(
        analysed.calls.map((c) => c.name),
        i % 5 === 4 ? [] : ['get_weather'],
      );
      assert.ok(!analysed.diagnostics.some((d) => d.severity === 'error'), JSON.stringify(analysed.diagnostics));
    }
    assert.equal(proxy.recorded, N);
  });
});

test("non-streamed answers, other routes and the client's own stream options pass through unchanged", async () => {
  await recording({}, async ({ proxy, recorded, records }) => {
    const body = chat(1, { stream: false });
    const d = await post(`${sim.url}/chat/completions`, body);
    const p = await post(`${proxy.url}/chat/completions`, body);
    assert.equal(normalizeSim(p.body), normalizeSim(d.body));
    assert.equal(p.headers['content-length'], d.headers['content-length']);
    const usage = chat(2, { stream_options: { include_usage: true } });
    const du = await post(`${sim.url}/chat/completions`, usage);
    const pu = await post(`${proxy.url}/chat/completions`, usage);
    assert.equal(normalizeSim(pu.body), normalizeSim(du.body));
    // Not recorded: only chat and completions exchanges are.
    const models = await post(`${proxy.url}/models`, '', { method: 'GET' });
    assert.equal(models.status, 200);
    assert.match(models.body.toString(), /toolscope-sim-kimi-k2/u);
    const missing = await post(`${proxy.url}/nowhere`, {});
    assert.equal(missing.status, 404);
    await recorded(2);
    await sleep(50);
    const [whole, streamed] = await records();
    assert.equal(whole?.meta?.streamed, false);
    assert.deepEqual(whole?.response, JSON.parse(p.body.toString()));
    // The usage chunk the client asked for is part of what it received.
    assert.deepEqual((streamed?.response as unknown[]).at(-1), JSON.parse(ssePayloads(pu.body).at(-1) as string));
  });
});

test('a client that disconnects mid-stream aborts the upstream request, and the record says so', { timeout: 20_000 }, async () => {
  let sent = 0;
  const upstream = await testUpstream(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // A generation that would go on for a minute.
    for (let i = 0; i < 3000 && !res.destroyed; i++) {
      res.write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `t${i} ` }, finish_reason: null }] })}\n\n`,
      );
      sent++;
      await sleep(20);
    }
    res.end();
  });
  try {
    await recording({ upstream: upstream.url }, async ({ proxy, recorded, records }) => {
      const started = performance.now();
      const r = await post(`${proxy.url}/chat/completions`, chat(1), { disconnectAfterBytes: 300 });
      assert.equal(r.broken, true);
      assert.equal(await upstream.requests[0]?.closedEarly, true, 'the upstream saw its request aborted');
      await recorded(1);
      assert.ok(performance.now() - started < 5000, 'recorded right away, not when the generation would have ended');
      const sentThen = sent;
      await sleep(100);
      assert.ok(sent - sentThen <= 1, 'the upstream stopped generating');
      const [record] = await records();
      assert.equal(record?.meta?.clientAborted, true);
      assert.equal(record?.meta?.partial, true);
      assert.match(record?.error ?? '', /^the client disconnected after \d+ events; the upstream request was aborted/u);
      assert.ok((record?.response as unknown[]).length >= 2);
    });
  } finally {
    await upstream.close();
  }
});

test('upstream 500 and 429 pass through byte for byte (Retry-After too) and are recorded', async () => {
  await recording({}, async ({ proxy, recorded, records }) => {
    for (const fault of ['500', '429']) {
      const headers = { 'x-toolscope-fault': fault };
      const d = await post(`${sim.url}/chat/completions`, chat(1), { headers });
      const p = await post(`${proxy.url}/chat/completions`, chat(1), { headers });
      assert.equal(p.status, Number(fault));
      assert.ok(p.body.equals(d.body));
      assert.equal(p.headers['retry-after'], d.headers['retry-after']);
      assert.equal(p.headers['content-type'], 'application/json');
    }
    await recorded(2);
    const [e500, e429] = await records();
    assert.equal(e500?.meta?.status, 500);
    assert.equal(
      e500?.error,
      'upstream answered 500: {"error":{"message":"simulated server failure","type":"server_error","param":null,"code":500}}',
    );
    assert.equal(e429?.meta?.status, 429);
    assert.equal((e429?.meta?.responseHeaders as Record<string, string>)['retry-after'], '1');
    assert.equal(e429?.response, undefined);
  });
});

test("an upstream reset mid-stream breaks the client's response the same way; the record keeps what arrived", async () => {
  await recording({}, async ({ proxy, recorded, records }) => {
    const headers = { 'x-toolscope-fault': 'close-mid-stream' };
    const d = await post(`${sim.url}/chat/completions`, chat(1), { headers });
    const p = await post(`${proxy.url}/chat/completions`, chat(1), { headers });
    assert.equal(d.broken, true);
    assert.equal(p.broken, true, 'the client sees the stream break, as it would without the proxy');
    assert.equal(normalizeSim(p.body), normalizeSim(d.body), 'everything sent before the reset arrived');
    await recorded(1);
    const [record] = await records();
    assert.match(record?.error ?? '', /^the upstream connection broke off after \d+ events: /u);
    assert.equal(record?.meta?.partial, true);
    assert.deepEqual(
      record?.response,
      ssePayloads(p.body).map((s) => JSON.parse(s) as unknown),
    );
  });
});

test('a slow upstream streams through as it goes, chunk by chunk, not when it is done', async () => {
  const slow = await startServer({ tokenDelayMs: 40 });
  try {
    await recording({ upstream: slow.url }, async ({ proxy, recorded, records }) => {
      const p = await post(`${proxy.url}/chat/completions`, chat(1));
      const total = p.arrivals.at(-1) ?? 0;
      assert.ok(total > 500, `the answer took ${total} ms`);
      assert.ok((p.arrivals[0] ?? Infinity) < total / 4, `first bytes after ${p.arrivals[0]} ms of ${total} ms`);
      assert.ok(p.arrivals.length > 10, `${p.arrivals.length} pieces arrived`);
      await recorded(1);
      const [record] = await records();
      const eventMs = (record?.meta?.timings as { eventMs: number[] }).eventMs;
      assert.ok((eventMs.at(-1) ?? 0) - (eventMs[0] ?? 0) > 400, 'per-chunk timings spread over the generation');
    });
  } finally {
    await slow.close();
  }
});

test('an invalid chunk is forwarded as the endpoint sent it and recorded as an error', async () => {
  await recording({}, async ({ proxy, recorded, records }) => {
    const headers = { 'x-toolscope-fault': 'invalid-chunk' };
    const d = await post(`${sim.url}/chat/completions`, chat(1), { headers });
    const p = await post(`${proxy.url}/chat/completions`, chat(1), { headers });
    assert.equal(normalizeSim(p.body), normalizeSim(d.body));
    await recorded(1);
    const [record] = await records();
    assert.match(record?.error ?? '', /^event \d+ of the stream is not JSON: \{"id": "broken"/u);
    assert.equal((record?.meta?.unparsedEvents as unknown[]).length, 1);
  });
});

test('timeouts: no headers → 504; a stream that stalls → broken; an unreachable upstream → 502; all recorded', async () => {
  const stalling = await testUpstream(async (req, res) => {
    if (req.url?.includes('chat')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'data: {"id":"s","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n',
      );
    }
    // …and then nothing, ever (or, for /completions, not even headers).
  });
  try {
    await recording({ upstream: stalling.url, timeoutMs: 300 }, async ({ proxy, recorded, records }) => {
      const noHeaders = await post(`${proxy.url}/completions`, { model: 'm', prompt: 'x' });
      assert.equal(noHeaders.status, 504);
      assert.match(JSON.parse(noHeaders.body.toString()).error.message, /^toolscope proxy: no answer from http:\/\/127\.0\.0\.1:\d+\/v1/u);
      const stalled = await post(`${proxy.url}/chat/completions`, chat(1));
      assert.equal(stalled.broken, true);
      assert.equal(ssePayloads(stalled.body).length, 1);
      await recorded(2);
      const [a, b] = await records();
      assert.match(a?.error ?? '', /^upstream timed out: /u);
      assert.equal(a?.meta?.status, null);
      assert.match(b?.error ?? '', /^the upstream stalled after 1 event: /u);
    });
  } finally {
    await stalling.close();
  }
  const gone = await testUpstream(() => undefined);
  const goneUrl = gone.url;
  await gone.close();
  await recording({ upstream: goneUrl }, async ({ proxy, recorded, records }) => {
    const r = await post(`${proxy.url}/chat/completions`, chat(1));
    assert.equal(r.status, 502);
    await recorded(1);
    const [record] = await records();
    assert.match(record?.error ?? '', /^upstream unreachable: .*ECONNREFUSED/u);
  });
});

test('--capture-tokens: the client gets the very bytes of a run without it; the record gets the raw tokens', async () => {
  await recording({ captureTokens: true }, async ({ proxy, recorded, records }) => {
    const cases: Array<{ path: string; body: Record<string, unknown> }> = [
      { path: 'chat/completions', body: chat(1) },
      { path: 'chat/completions', body: chat(2, { stream: false }) },
      { path: 'chat/completions', body: chat(3, { logprobs: true }) },
      // The chat template applied client-side (Kimi K2's): the prompt declares the tools.
      { path: 'completions', body: { model: 'kimi-k2', prompt: renderPrompt(chat(6)), stream: true, max_tokens: 200 } },
      {
        path: 'completions',
        body: {
          model: 'kimi-k2',
          prompt: '<|im_user|>user<|im_middle|>Hello<|im_end|><|im_assistant|>assistant<|im_middle|>',
          max_tokens: 200,
        },
      },
    ];
    const proxied = [];
    for (const c of cases) {
      const d = await post(`${sim.url}/${c.path}`, c.body);
      const p = await post(`${proxy.url}/${c.path}`, c.body);
      assert.equal(normalizeSim(p.body), normalizeSim(d.body), `${c.path} ${JSON.stringify(c.body).slice(0, 80)}: identical bytes`);
      // (The endpoint's answer numbers differ in length, so the lengths are checked against the bodies.)
      assert.equal(p.headers['content-length'] === undefined, d.headers['content-length'] === undefined);
      if (p.headers['content-length'] !== undefined) assert.equal(Number(p.headers['content-length']), p.body.length);
      proxied.push(p);
    }
    await recorded(cases.length);
    const [stream, whole, own, completionsStream, completionsWhole] = await records();
    const analyzer = new Analyzer();
    for (const r of [stream, whole, own]) {
      assert.ok(r?.completion?.tokens?.length, `${r?.id} has tokens`);
      assert.match(
        r.completion.text,
        /^Let me check that\. <\|tool_calls_section_begin\|><\|tool_call_begin\|>functions\.get_weather:0<\|tool_call_argument_begin\|>\{/u,
      );
      assert.equal(r.completion.tokens.map((t) => t.text).join(''), r.completion.text);
      const analysed = analyzer.analyze({ record: r, line: 1, lastLine: 1, source: 'native' });
      assert.equal(analysed.completion?.origin, 'recorded');
      assert.deepEqual(
        analysed.calls.map((c) => c.name),
        ['get_weather'],
      );
      assert.ok(!analysed.diagnostics.some((d) => d.severity !== 'info'), JSON.stringify(analysed.diagnostics));
    }
    assert.deepEqual((stream?.meta?.capture as Record<string, unknown>).added, { logprobs: true, stream_options: { include_usage: true } });
    assert.equal(((stream?.meta?.capture as Record<string, unknown>).tokens as Record<string, unknown>).complete, true);
    assert.ok(((stream?.meta?.capture as Record<string, unknown>).droppedEvents as number) > 0, 'logprob-only chunks were dropped');
    // The record's response is what the client saw: logprobs null, no usage chunk.
    assert.deepEqual(
      stream?.response,
      ssePayloads(proxied[0]!.body).map((s) => JSON.parse(s) as unknown),
    );
    assert.deepEqual(
      (own?.meta?.capture as Record<string, unknown>).added,
      { stream_options: { include_usage: true } },
      'the client asked for logprobs itself: only the usage count added',
    );
    for (const r of [completionsStream, completionsWhole]) {
      assert.ok(r?.completion?.tokens?.length);
      assert.ok(
        r.completion.tokens.every((t) => typeof t.id === 'number' && t.text === ''),
        'vLLM token ids: ids are the ground truth',
      );
      assert.equal(typeof r.prompt, 'string');
    }
    assert.match(completionsStream?.completion?.text ?? '', /<\|tool_calls_section_begin\|>/u);
    assert.deepEqual(
      completionsStream?.request?.tools?.map((t) => t.function.name),
      ['get_weather'],
      'the tools the prompt declares',
    );
    assert.equal(completionsWhole?.request, undefined, 'a prompt without tool declarations has no tools to check against');
    const analysed = analyzer.analyze({ record: completionsStream!, line: 1, lastLine: 1, source: 'native' });
    assert.ok(
      analysed.completion?.tokens.some((t) => t.special && t.id === 163595),
      'special tokens by id',
    );
  });
});

test('--capture-tokens on a vLLM-like stream with CRLF events, comments, no space after "data:" and reads split anywhere: bytes preserved', async () => {
  const upstream = await testUpstream(async (_req, res, raw) => {
    const body = JSON.parse(raw) as { logprobs?: boolean; stream_options?: { include_usage?: boolean } };
    const lp = (token: string) =>
      body.logprobs ? { content: [{ token, logprob: -0.5, bytes: [...Buffer.from(token)], top_logprobs: [] }] } : null;
    const chunk = (choice: Record<string, unknown>) =>
      `data:{"id":"x","object":"chat.completion.chunk","choices":[${JSON.stringify({ index: 0, ...choice })}]}\r\n\r\n`;
    let stream = ': keep-alive\r\n\r\n';
    stream += chunk({ delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null });
    stream += chunk({ delta: { content: 'Hi' }, logprobs: lp('Hi'), finish_reason: null });
    // vLLM with per-token chunks: a token the parser held back, carried only for its logprob.
    if (body.logprobs) stream += chunk({ delta: {}, logprobs: lp('<|im_end|>'), finish_reason: null });
    stream += chunk({ delta: {}, logprobs: null, finish_reason: 'stop' });
    if (body.stream_options?.include_usage)
      stream +=
        'data:{"id":"x","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}\r\n\r\n';
    stream += 'data:[DONE]\r\n\r\n';
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const bytes = Buffer.from(stream);
    for (let i = 0; i < bytes.length; i += 7) {
      res.write(bytes.subarray(i, i + 7));
      await sleep(1);
    }
    res.end();
  });
  try {
    await recording({ upstream: upstream.url, captureTokens: true }, async ({ proxy, recorded, records }) => {
      const body = { model: 'm', stream: true, messages: [{ role: 'user', content: 'Hi' }] };
      const direct = await post(`${upstream.url}/chat/completions`, body);
      const proxied = await post(`${proxy.url}/chat/completions`, body);
      assert.equal(proxied.body.toString(), direct.body.toString());
      assert.ok(proxied.body.equals(direct.body));
      await recorded(1);
      const [record] = await records();
      assert.deepEqual(record?.completion, {
        text: 'Hi<|im_end|>',
        tokens: [
          { text: 'Hi', logprob: -0.5 },
          { text: '<|im_end|>', logprob: -0.5 },
        ],
        finish_reason: 'stop',
      });
      assert.equal((record?.meta?.capture as { droppedEvents: number }).droppedEvents, 2, 'the logprob-only chunk and the usage chunk');
    });
  } finally {
    await upstream.close();
  }
});

test("credentials: redacted in the record, forwarded upstream, or replaced by the proxy's key; compressed bodies pass as they are", async () => {
  const body = {
    id: 'chatcmpl-z',
    object: 'chat.completion',
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
  };
  const gz = gzipSync(Buffer.from(JSON.stringify(body)));
  const upstream = await testUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': gz.length });
    res.end(gz);
  });
  try {
    const secret = 'sk-live-0123456789abcdefghijklmnop';
    await recording({ upstream: upstream.url }, async ({ proxy, file, recorded, records }) => {
      const r = await post(
        `${proxy.url}/chat/completions`,
        { ...chat(1, { stream: false }), api_key: secret },
        { headers: { authorization: `Bearer ${secret}`, 'x-api-key': secret, 'accept-encoding': 'gzip' } },
      );
      assert.equal(r.headers['content-encoding'], 'gzip');
      assert.ok(r.body.equals(gz), 'the compressed bytes reach the client untouched');
      assert.equal(upstream.requests[0]?.headers.authorization, `Bearer ${secret}`);
      await recorded(1);
      assert.ok(!(await readFile(file, 'utf8')).includes(secret), 'no secret in the trace');
      const [record] = await records();
      assert.deepEqual(record?.response, body, 'the record holds the decoded body');
      assert.equal((record?.meta?.requestHeaders as Record<string, string>).authorization, '[redacted]');
    });
    await recording({ upstream: upstream.url, apiKey: 'sk-proxy-key-abcdefghijklmnop' }, async ({ proxy, recorded }) => {
      await post(`${proxy.url}/chat/completions`, chat(1, { stream: false }), { headers: { authorization: 'Bearer dummy' } });
      await recorded(1);
      assert.equal(upstream.requests[1]?.headers.authorization, 'Bearer sk-proxy-key-abcdefghijklmnop');
    });
  } finally {
    await upstream.close();
  }
});

test('web pages cannot drive the proxy: a request with an Origin, or for another host (DNS rebinding), is refused', async () => {
  await recording({}, async ({ proxy, exchanges }) => {
    const fromPage = await post(`${proxy.url}/chat/completions`, chat(1), { headers: { origin: 'https://evil.example' } });
    assert.equal(fromPage.status, 403);
    assert.match(JSON.parse(fromPage.body.toString()).error.message, /requests from web pages are refused/u);
    const rebound = await post(`${proxy.url}/chat/completions`, chat(1), { headers: { host: 'evil.example:80' } });
    assert.equal(rebound.status, 403);
    const local = await post(`${proxy.url}/chat/completions`, chat(1), { headers: { host: `localhost:${proxy.port}` } });
    assert.equal(local.status, 200);
    await sleep(50);
    assert.equal(exchanges.length, 1, 'refused requests never reach the upstream or the trace');
  });
});

test('stopping with an exchange in flight aborts it upstream and records it as stopped', { timeout: 20_000 }, async () => {
  const slow = await startServer({ tokenDelayMs: 50 });
  try {
    await withTempDir(async (dir) => {
      const file = join(dir, 't.jsonl');
      const proxy = await startRecordingProxy({ upstream: slow.url, out: file });
      const pending = post(`${proxy.url}/chat/completions`, chat(1));
      await sleep(200);
      await proxy.close({ graceMs: 0 });
      const r = await pending;
      assert.equal(r.broken, true);
      const { records } = await loadAll(file);
      assert.equal(records.length, 1);
      assert.match(records[0]?.record.error ?? '', /^the proxy stopped after \d+ events; the upstream request was aborted/u);
    });
  } finally {
    await slow.close();
  }
});
