/**
 * Trace index benchmark: writes a ~200 MB native trace to the temp dir, then times indexing it (bytes only),
 * reading the first record and random ones, and how much memory the index holds. The file is deleted after.
 */
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TraceIndex } from '../src/io/trace/traceIndex.ts';
import type { RecordedToken, TraceRecord } from '../src/core/trace/record.ts';

const TARGET_BYTES = 200 * 1024 * 1024;
const ID = '__ID__';

const WORDS = ['the', 'weather', 'in', 'Paris', 'is', 'sunny', 'today', 'with', 'a', 'light', 'breeze', 'and', 'clouds'];

function words(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(i * 7 + seed) % WORDS.length] ?? 'x');
  return out.join(' ');
}

/** A realistic record: a chat request with tools and history, and a raw completion with per-token logprobs. */
function template(turns: number, completionTokens: number, seed: number): string {
  const tokens: RecordedToken[] = [];
  for (let i = 0; i < completionTokens; i++) {
    const text = ` ${WORDS[(i + seed) % WORDS.length] ?? 'x'}`;
    tokens.push({
      id: 1000 + ((i * 31 + seed) % 160000),
      text,
      logprob: -((i % 17) / 10),
      top: [
        { text, logprob: -0.1 },
        { text: ' a', logprob: -2.3 },
      ],
    });
  }
  const messages: Array<{ role: string; content: string }> = [{ role: 'system', content: words(60, seed) }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: 'user', content: words(40 + t * 5, seed + t) });
    messages.push({ role: 'assistant', content: words(80, seed + 2 * t) });
  }
  const record: TraceRecord = {
    toolscope: 1,
    id: ID,
    request: {
      model: 'kimi-k2',
      messages: messages,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: words(20, seed),
            parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
          },
        },
      ],
      temperature: 0.6,
    },
    completion: { text: tokens.map((t) => t.text).join(''), tokens, finish_reason: 'stop' },
    meta: { source: 'bench', endpoint: '/v1/completions', model: 'kimi-k2', created: '2025-01-01T00:00:00Z' },
  };
  return JSON.stringify(record);
}

// Small records are the common case; a few large ones (long histories, long completions) among them.
const PATTERN = [0, 0, 3, 0, 1, 0, 3, 0, 0, 1, 3, 0, 2, 0, 0, 3, 1, 0, 0, 4];

/** Writes lines from a few templates of varied size (≈1 KB to ≈150 KB) until the target size. */
async function writeTrace(path: string, target: number): Promise<{ bytes: number; lines: number }> {
  const templates = [template(1, 10, 1), template(3, 120, 2), template(8, 600, 3), template(2, 40, 4), template(20, 1500, 5)];
  const parts = templates.map((t) => {
    const at = t.indexOf(ID);
    return [t.slice(0, at), t.slice(at + ID.length) + '\n'] as const;
  });
  const handle = await open(path, 'w');
  let bytes = 0;
  let lines = 0;
  try {
    let batch: string[] = [];
    let batchBytes = 0;
    while (bytes + batchBytes < target) {
      const [head, tail] = parts[PATTERN[lines % PATTERN.length] ?? 0] ?? ['', '\n'];
      const line = `${head}r${lines}${tail}`;
      batch.push(line);
      batchBytes += line.length; // ASCII only: characters are bytes
      lines++;
      if (batchBytes >= 4 * 1024 * 1024) {
        await handle.write(batch.join(''));
        bytes += batchBytes;
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length > 0) await handle.write(batch.join(''));
    bytes += batchBytes;
  } finally {
    await handle.close();
  }
  return { bytes, lines };
}

const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1);
const ms = (n: number): string => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

export async function benchTraceIndex(log: (line: string) => void): Promise<void> {
  const path = join(tmpdir(), `toolscope-bench-${process.pid}-${Date.now()}.jsonl`);
  try {
    let t = performance.now();
    const { bytes, lines } = await writeTrace(path, TARGET_BYTES);
    log(`trace index: wrote ${mb(bytes)} MB, ${lines} records in ${ms(performance.now() - t)}`);

    const before = process.memoryUsage();
    t = performance.now();
    const index = await TraceIndex.open(path);
    const seconds = (performance.now() - t) / 1000;
    const after = process.memoryUsage();
    try {
      log(`trace index: indexed ${index.count} entries in ${seconds.toFixed(2)} s (${(bytes / (1024 * 1024) / seconds).toFixed(0)} MB/s)`);
      log(
        `trace index: memory delta rss ${mb(after.rss - before.rss)} MB, heap ${mb(after.heapUsed - before.heapUsed)} MB, external ${mb(after.external - before.external)} MB`,
      );

      t = performance.now();
      const first = await index.read(0);
      log(`trace index: first record (${first.records[0]?.record.id ?? 'none'}) read in ${ms(performance.now() - t)}`);

      const i = Math.floor(Math.random() * index.count);
      t = performance.now();
      const random = await index.read(i);
      log(`trace index: random record #${i} (${random.records[0]?.record.id ?? 'none'}) read in ${ms(performance.now() - t)}`);

      const n = 200;
      t = performance.now();
      for (let k = 0; k < n; k++) await index.read(Math.floor(Math.random() * index.count));
      log(`trace index: ${n} random reads, ${ms((performance.now() - t) / n)} each on average`);
    } finally {
      await index.close();
    }
  } finally {
    await rm(path, { force: true });
  }
}
