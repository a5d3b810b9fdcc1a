/**
 * A fuzz test per importer (issue 30): every field of a sample record — each value at every path, objects and
 * arrays included — is replaced by a value nested 5,000 deep, a huge string or number, each wrong JSON type and
 * dates no Date holds, one variant a line. Read as a file, every line is accounted for: a record or an error naming
 * that line, nothing thrown and no line lost. Samples are the repository's own (the shortest one-line record of each, 400 characters or more); streams grouped over several lines (SSE, Ollama's NDJSON) are left to their own tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTraceItems } from '../../../src/io/trace/traceIndex.ts';

const samples = join(import.meta.dirname, '..', '..', '..', 'samples');

/** One sample line per importer. */
const SAMPLES: Array<{ importer: string; line: string }> = [
  ['native (Toolscope records)', 'kimi-k2-raw-completions.jsonl'],
  ['chat.completion', 'openai-chat-completions.jsonl'],
  ['completions with logprobs', 'completions-logprobs.jsonl'],
  ['Anthropic message', 'anthropic-messages.jsonl'],
  ['OpenAI Responses', 'openai-responses.jsonl'],
  ['K2VV request', 'k2vv-requests.jsonl'],
  ['K2VV result', 'k2vv-results.jsonl'],
  ['llama.cpp server log', 'llama-cpp-server.log'],
  ['OTLP spans', 'otel-genai-spans.json'],
].map(([importer, file]) => ({
  importer: importer as string,
  // The shortest one-line JSON of the sample that is a whole record (not an error line) (the OTLP sample starts pretty-printed; a one-line export follows).
  line: readFileSync(join(samples, file as string), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{"') && l.length >= 400)
    .reduce((a, b) => (b.length < a.length ? b : a)),
}));
const DEEP = '__toolscope_fuzz_deep__';
const DEEP_TEXT = `${'['.repeat(5000)}${']'.repeat(5000)}`;
/** Deep, huge, every wrong type, dates past what a Date holds or not dates at all. */
const VALUES: unknown[] = [
  DEEP,
  'x'.repeat(64 * 1024),
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  null,
  true,
  0,
  -1,
  '',
  '2025-13-45T99:99:99Z',
  8.64e15 + 1,
  [],
  [null],
  {},
  { __proto__: null, constructor: 'x' },
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every path to a value in `root`, the root excluded (no recursion: samples are small, but the habit holds). */
function paths(root: Json): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  const stack: Array<{ v: Json; path: Array<string | number> }> = [{ v: root, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop() as { v: Json; path: Array<string | number> };
    if (path.length) out.push(path);
    if (Array.isArray(v)) v.forEach((c, i) => stack.push({ v: c, path: [...path, i] }));
    else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) stack.push({ v: c, path: [...path, k] });
  }
  return out;
}

function withValue(root: Json, path: ReadonlyArray<string | number>, value: unknown): string {
  const copy = JSON.parse(JSON.stringify(root)) as Json;
  let at = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = value;
  return JSON.stringify(copy).replace(JSON.stringify(DEEP), DEEP_TEXT);
}

for (const { importer, line } of SAMPLES)
  test(`${importer}: every field replaced by hostile values, each line is a record or an error naming it`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolscope-importer-fuzz-'));
    try {
      const root = JSON.parse(line) as Json;
      const lines = paths(root).flatMap((path) => VALUES.map((value) => withValue(root, path, value)));
      const file = join(dir, 'fuzz.jsonl');
      await writeFile(file, `${lines.join('\n')}\n`);
      const seen = new Set<number>();
      for await (const item of readTraceItems(file)) {
        const n = item.kind === 'record' ? item.loaded.line : item.error.line;
        seen.add(n);
        if (item.kind === 'error') assert.match(item.error.message, new RegExp(`^line ${n}\\b`, 'u'));
      }
      const lost: string[] = [];
      for (let n = 1; n <= lines.length; n++) if (!seen.has(n)) lost.push(`line ${n}: ${lines[n - 1]?.slice(0, 160)}`);
      assert.deepEqual(lost.slice(0, 20), [], `${lost.length} of ${lines.length} lines not accounted for`);
      assert.ok(lines.length >= 16 * 10, `${lines.length} variants`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
