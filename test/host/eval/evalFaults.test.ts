/**
 * `toolscope eval` against a fault-injecting server on 127.0.0.1: the output folder is checked before any request,
 * and an error event mid-stream is a failed result (partial stream kept) and a non-zero exit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { evalRunCommand, type EvalRunOptions } from '../../../src/cli/evalRunCommand.ts';

const samples = fileURLToPath(new URL('../../../samples/k2vv-requests.jsonl', import.meta.url));
const sink = () => new Writable({ write: (_c, _e, done) => done() });

async function withServer(answer: (res: ServerResponse) => void, fn: (url: string, requests: () => number) => Promise<void>) {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, () => requests);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const options = (endpoint: string, outDir: string): EvalRunOptions => ({
  endpoint,
  engine: 'vllm',
  apiKeyEnv: 'TOOLSCOPE_API_KEY',
  guided: 'off',
  concurrency: 2,
  timeoutS: 10,
  outDir,
  resume: false,
  limit: 2,
});

test('an output folder that cannot be made is refused before any request is sent', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-eval-out-'));
  try {
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, '');
    await withServer(
      (res) => res.end('{}'),
      async (url, requests) => {
        await assert.rejects(evalRunCommand(samples, options(url, join(blocker, 'results')), sink()), /cannot write/u);
        assert.equal(requests(), 0);
      },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an error event mid-stream: a failed result with the partial stream, exit 1', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-eval-err-'));
  try {
    const answer = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'Checking' }, finish_reason: null }] })}\n\n`,
      );
      res.write(`data: ${JSON.stringify({ error: { message: 'engine crashed', code: 500 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    await withServer(answer, async (url) => {
      assert.equal(await evalRunCommand(samples, options(url, dir), sink()), 1);
      const lines = (await readFile(join(dir, 'results.guided-off.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              status: string;
              response: { error?: string };
              toolscope_record: { response: unknown[]; meta: { partial: boolean } };
            },
        );
      assert.equal(lines.length, 2);
      for (const l of lines) {
        assert.equal(l.status, 'failed');
        assert.match(l.response.error ?? '', /engine crashed/u);
        assert.equal(l.toolscope_record.response.length, 1);
        assert.equal(l.toolscope_record.meta.partial, true);
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
