/**
 * Replay client overhead against the loopback endpoint: a streamed chat request through Toolscope's capture
 * (SSE parsing, timing, verbatim chunks) next to a bare fetch that only drains the same stream.
 */
import { startServer } from '../src/net/server/openAiServer.ts';
import { capture } from '../src/net/replay/sseCapture.ts';

const body = {
  model: 'sim',
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

export async function benchReplay(log: (line: string) => void): Promise<void> {
  const server = await startServer();
  const url = `${server.url}/chat/completions`;
  try {
    const runs = 200;
    const bare: number[] = [];
    const ours: number[] = [];
    let chunks = 0;
    for (let i = 0; i < 20; i++) await capture({ url, body }); // warm-up
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await r.text();
      bare.push(performance.now() - t);
      t = performance.now();
      const c = await capture({ url, body });
      ours.push(performance.now() - t);
      chunks = c.events.length;
    }
    const b = median(bare);
    const o = median(ours);
    log(`Replay client on loopback (${runs} streamed requests, ${chunks} chunks each)`);
    log(`  bare fetch   median ${b.toFixed(2)} ms`);
    log(`  capture      median ${o.toFixed(2)} ms  (overhead ${(o - b).toFixed(2)} ms per request, ${(o / b).toFixed(2)}×)`);
  } finally {
    await server.close();
  }
}
