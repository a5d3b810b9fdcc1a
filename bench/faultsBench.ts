/**
 * Replay against answers too big to keep (DESIGN §9 budgets are reported, not asserted): a 250 MB streamed answer
 * and a gzip bomb (1 GB decoded) on loopback, with the default answer limit. Time, peak memory, and the size of
 * the record written: the limit must hold memory to a small multiple of itself and the record must be written.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { replayRecord } from '../src/net/replay/replay.ts';
import { DEFAULT_MAX_ANSWER_BYTES } from '../src/net/replay/sseCapture.ts';
import { appendRecords } from '../src/io/trace/traceWriter.ts';
import type { TraceRecord } from '../src/core/trace/record.ts';

const MB = 1024 * 1024;
const original: TraceRecord = { toolscope: 1, id: 'big', request: { model: 'm', messages: [{ role: 'user', content: 'Write a lot.' }] } };

async function serve(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `mb` megabytes of one character, gzipped a megabyte at a time (the whole never in memory). */
async function gzipBomb(mb: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((resolve) => gzip.once('end', resolve));
  const block = Buffer.alloc(MB, 0x61);
  for (let i = 0; i < mb; i++) if (!gzip.write(block)) await new Promise((r) => gzip.once('drain', r));
  gzip.end();
  await ended;
  return Buffer.concat(parts);
}

/** Peak RSS while `fn` runs, sampled every 20 ms. */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number; ms: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, peakMb: Math.max(peak, process.memoryUsage().rss) / MB, ms: performance.now() - t0 };
  } finally {
    clearInterval(timer);
  }
}

export async function benchFaults(log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-faults-bench-'));
  const chunk = Buffer.from(
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'x'.repeat(8000) }, finish_reason: null }] })}\n\n`,
  );
  const streamed = await serve(async (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let sent = 0; sent < 250 * MB && !res.destroyed; sent += chunk.length)
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    res.end('data: [DONE]\n\n');
  });
  const bomb = await gzipBomb(1024);
  const gzipped = await serve((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
    res.end(bomb);
  });
  try {
    log(
      `Replay past the answer limit (default ${DEFAULT_MAX_ANSWER_BYTES / MB} MiB), loopback; RSS before: ${(process.memoryUsage().rss / MB).toFixed(0)} MB`,
    );
    for (const [label, url] of [
      ['250 MB streamed answer', streamed.url],
      [`gzip bomb (${(bomb.length / MB).toFixed(1)} MB → 1 GB)`, gzipped.url],
    ] as const) {
      const out = join(dir, `${label.split(' ')[0]}.jsonl`);
      const { value, peakMb, ms } = await peakRss(async () => {
        const r = await replayRecord(original, {
          endpoint: { name: 'b', baseUrl: url, model: 'm', engine: 'openai' },
          mode: 'chat',
          guided: false,
          retries: 0,
          timeoutMs: 120_000,
        });
        await appendRecords(out, [r.record]);
        return r;
      });
      const size = (await stat(out)).size;
      log(
        `  ${label.padEnd(34)} ${value.error?.kind ?? 'ok'} in ${(ms / 1000).toFixed(2)} s · peak RSS ${peakMb.toFixed(0)} MB · record ${(size / MB).toFixed(1)} MB written`,
      );
    }
  } finally {
    await streamed.close();
    await gzipped.close();
    await rm(dir, { recursive: true, force: true });
  }
}
