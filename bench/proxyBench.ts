/**
 * The recording proxy's overhead on loopback: latency it adds per chunk (each chunk carries its send time, so
 * arrival minus send is that chunk's latency) and per request (embedded endpoint, streamed tool call), median and
 * p99, direct and through the proxy; and the memory 50 concurrent streams take through it.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startServer } from '../src/net/server/openAiServer.ts';
import { startRecordingProxy, type RunningProxy } from '../src/net/capture/recordingProxy.ts';

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An upstream whose every chunk says when it was sent: `count` chunks of ~`size` bytes, `gapMs` apart. */
async function timestampUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    const count = Number(params.get('count') ?? 100);
    const gapMs = Number(params.get('gap') ?? 2);
    const pad = 'x'.repeat(Number(params.get('size') ?? 150));
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < count && !res.destroyed; i++) {
        res.write(
          `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', t: performance.now(), choices: [{ index: 0, delta: { content: pad }, finish_reason: null }] })}\n\n`,
        );
        if (gapMs) await sleep(gapMs);
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Streams a request; returns each chunk's latency (arrival − the send time it carries) and the total time. */
function streamLatencies(url: string, body: unknown): Promise<{ latencies: number[]; totalMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const latencies: number[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const now = performance.now();
        buffer += text;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const m = /"t":([0-9.e+-]+)/u.exec(event);
          if (m) latencies.push(now - Number(m[1]));
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('end', () => resolve({ latencies, totalMs: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

export async function benchProxy(log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-proxy-bench-'));
  const upstream = await timestampUpstream();
  const sim = await startServer();
  let proxy: RunningProxy | null = null;
  let simProxy: RunningProxy | null = null;
  let tokenProxy: RunningProxy | null = null;
  try {
    proxy = await startRecordingProxy({ upstream: upstream.url, out: join(dir, 'chunks.jsonl') });
    simProxy = await startRecordingProxy({ upstream: sim.url, out: join(dir, 'requests.jsonl') });
    tokenProxy = await startRecordingProxy({ upstream: sim.url, out: join(dir, 'tokens.jsonl'), captureTokens: true });

    // Per chunk: 30 streams of 100 chunks 2 ms apart, direct and through the proxy, interleaved.
    const direct: number[] = [];
    const proxied: number[] = [];
    const body = { model: 'bench', stream: true, messages: [{ role: 'user', content: 'x' }] };
    for (let i = 0; i < 3; i++) await streamLatencies(`${proxy.url}/chat/completions?count=20&gap=1`, body); // warm-up
    for (let i = 0; i < 30; i++) {
      direct.push(...(await streamLatencies(`${upstream.url}/chat/completions?count=100&gap=2`, body)).latencies);
      proxied.push(...(await streamLatencies(`${proxy.url}/chat/completions?count=100&gap=2`, body)).latencies);
    }
    log(`Recording proxy on loopback — per chunk (${direct.length} chunks of ~250 B each way, 2 ms apart)`);
    log(`  direct         median ${fmt(quantile(direct, 0.5))}  p99 ${fmt(quantile(direct, 0.99))}`);
    log(`  through proxy  median ${fmt(quantile(proxied, 0.5))}  p99 ${fmt(quantile(proxied, 0.99))}`);
    log(
      `  added          median ${fmt(quantile(proxied, 0.5) - quantile(direct, 0.5))}  p99 ${fmt(quantile(proxied, 0.99) - quantile(direct, 0.99))}`,
    );

    // Per request: the embedded endpoint's streamed tool call, complete request to last byte.
    const chat = {
      model: 'bench',
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
              required: ['city', 'unit'],
            },
          },
        },
      ],
    };
    const timeRequest = async (url: string) => (await streamLatencies(`${url}/chat/completions`, chat)).totalMs;
    for (let i = 0; i < 20; i++) {
      await timeRequest(sim.url);
      await timeRequest(simProxy.url);
      await timeRequest(tokenProxy.url);
    }
    const rd: number[] = [];
    const rp: number[] = [];
    const rt: number[] = [];
    for (let i = 0; i < 300; i++) {
      rd.push(await timeRequest(sim.url));
      rp.push(await timeRequest(simProxy.url));
      rt.push(await timeRequest(tokenProxy.url));
    }
    log(`Recording proxy — per request (${rd.length} streamed tool calls from the embedded endpoint, ~25 chunks each)`);
    log(`  direct            median ${fmt(quantile(rd, 0.5))}  p99 ${fmt(quantile(rd, 0.99))}`);
    log(
      `  through proxy     median ${fmt(quantile(rp, 0.5))}  p99 ${fmt(quantile(rp, 0.99))}  (added: median ${fmt(quantile(rp, 0.5) - quantile(rd, 0.5))}, p99 ${fmt(quantile(rp, 0.99) - quantile(rd, 0.99))})`,
    );
    log(
      `  --capture-tokens  median ${fmt(quantile(rt, 0.5))}  p99 ${fmt(quantile(rt, 0.99))}  (the endpoint also streams a logprob chunk per token)`,
    );

    // Memory: 50 concurrent streams of 400 chunks (~100 KB each, 2 s), direct, then through the proxy. The heap is
    // measured after a full GC while the streams are in flight (what is held, not garbage not yet collected).
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heldDuring = async (url: string) => {
      gc();
      const base = process.memoryUsage();
      let held = 0;
      let rss = base.rss;
      const rssTimer = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 10);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const streams = Promise.all(
        Array.from({ length: 50 }, () => streamLatencies(`${url}/chat/completions?count=400&gap=5&size=200`, body)),
      );
      for (const at of [500, 1000, 1500]) {
        await sleep(at - (performance.now() - started));
        gc();
        held = Math.max(held, process.memoryUsage().heapUsed - base.heapUsed);
      }
      await streams;
      clearInterval(rssTimer);
      const used = process.cpuUsage(cpu);
      return { heap: held, rss: rss - base.rss, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
    };
    const d = await heldDuring(upstream.url);
    const p = await heldDuring(proxy.url);
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    const written = (await stat(join(dir, 'chunks.jsonl'))).size;
    log(`Recording proxy — memory with 50 concurrent streams (400 chunks, ~100 KB each; client, proxy and upstream in one process)`);
    log(`  direct         heap held +${mb(d.heap)}  peak RSS +${mb(d.rss)}  CPU ${d.cpuMs.toFixed(0)} ms  (${d.ms.toFixed(0)} ms)`);
    log(`  through proxy  heap held +${mb(p.heap)}  peak RSS +${mb(p.rss)}  CPU ${p.cpuMs.toFixed(0)} ms  (${p.ms.toFixed(0)} ms)`);
    log(
      `  → the proxy holds ~${(Math.max(0, p.heap - d.heap) / 50 / 1024).toFixed(0)} KB per stream in flight and spends ~${(((p.cpuMs - d.cpuMs) * 1000) / 20_000).toFixed(0)} µs of CPU per chunk`,
    );
    log(`  trace written  ${mb(written)} for ${proxy.recorded} exchanges`);
  } finally {
    await proxy?.close({ graceMs: 0 });
    await simProxy?.close({ graceMs: 0 });
    await tokenProxy?.close({ graceMs: 0 });
    await sim.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  }
}
