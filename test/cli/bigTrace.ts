/**
 * A big trace made of the samples, for the tests of big files cut into ranges (analyze and report): about 600 KB of
 * JSON lines, SSE streams, Ollama chunk runs, printed Python chunks (multi-line entries), pretty-printed records and
 * the malformed-lines sample, over and over, with one malformed line of its own in the middle.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO } from './builtCli.ts';

export const BAD_LINE = '{"toolscope": 1, "id": "cut-short", "completion": {"text": "the line ends he';

/** Writes the big trace to `path`; returns the 1-based line of BAD_LINE in it. */
export async function writeBigTrace(path: string): Promise<number> {
  const samples = [
    'kimi-k2-raw-completions.jsonl',
    'anthropic-stream.sse',
    'other-formats.jsonl',
    'python-sdk-printouts.txt',
    'malformed-lines.jsonl',
    'ollama-chat-stream.ndjson',
    'real-failures.jsonl',
    'openai-responses-stream.sse',
    'token-problems.jsonl',
  ];
  const texts = await Promise.all(samples.map((f) => readFile(join(REPO, 'samples', f), 'utf8')));
  const firstRecord = JSON.parse(texts[0]?.split('\n')[0] ?? '') as Record<string, unknown>;
  const lines: string[] = [];
  // Where each round's raw Kimi completions start (one record a line).
  const kimiAt: number[] = [];
  for (let round = 0; lines.join('\n').length < 600_000; round++) {
    for (const [k, text] of texts.entries()) {
      if (k === 0) kimiAt.push(lines.length);
      lines.push(...text.trimEnd().split('\n'), '');
      // Multi-line records all over the file, so that cuts fall on some.
      lines.push(...JSON.stringify({ ...firstRecord, id: `pretty-${round}-${k}` }, null, 2).split('\n'));
    }
  }
  // Between two of the middle round's raw Kimi completions.
  const at = (kimiAt[Math.floor(kimiAt.length / 2)] as number) + 2;
  lines.splice(at, 0, BAD_LINE);
  await writeFile(path, lines.join('\n') + '\n');
  return at + 1;
}
