/**
 * `toolscope replay` against a fault-injecting server on 127.0.0.1: `--out` is checked before any request is sent,
 * a failed replay is marked ✖ (never "✔ … failed") and exits non-zero, with its partial stream written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { InputError } from '../../src/cli/analyzeCommand.ts';
import { replayCommand, type ReplayCommandOptions } from '../../src/cli/replayCommand.ts';

const record = { toolscope: 1, id: 'r1', request: { model: 'm', messages: [{ role: 'user', content: 'Weather in Paris?' }] } };

/** Runs `toolscope replay` in-process (no colours: the output is not a terminal); resolves with its exit code and output. */
async function run(trace: string, options: Partial<ReplayCommandOptions>): Promise<{ status: number; stdout: string }> {
  let stdout = '';
  const out = new Writable({
    write(chunk: Buffer, _e, done) {
      stdout += chunk.toString();
      done();
    },
  });
  const status = await replayCommand(
    trace,
    { engine: 'vllm', apiKeyEnv: 'TOOLSCOPE_API_KEY', guided: 'off', mode: 'chat', timeoutS: 10, retries: 0, ...options },
    out,
  );
  return { status, stdout };
}

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

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

test('--out that cannot be written is refused before any request is sent', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-replay-out-'));
  try {
    const trace = join(dir, 'trace.jsonl');
    await writeFile(trace, JSON.stringify(record) + '\n');
    await withServer(
      (res) => res.end('{}'),
      async (url, requests) => {
        // An InputError: the CLI's exit code 2.
        await assert.rejects(
          run(trace, { endpoint: url, out: join(dir, 'missing', 'dir', 'out.jsonl') }),
          (err: unknown) => err instanceof InputError && /cannot write/u.test(err.message),
        );
        assert.equal(requests(), 0, 'no request was sent');
      },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an error event mid-stream: ✖, exit 1, the partial stream and the error written', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-replay-err-'));
  try {
    const trace = join(dir, 'trace.jsonl');
    await writeFile(trace, JSON.stringify(record) + '\n');
    const answer = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('It is'));
      res.write(`data: ${JSON.stringify({ error: { message: 'engine crashed', code: 500 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    await withServer(answer, async (url) => {
      const r = await run(trace, { endpoint: url });
      assert.equal(r.status, 1, r.stdout);
      const line = r.stdout.split('\n').find((l) => l.includes('guided off')) ?? '';
      assert.match(line, /✖/u, r.stdout);
      assert.doesNotMatch(line, /✔/u);
      assert.match(r.stdout, /TS031 stream-error/u);
      const written = JSON.parse((await readFile(join(dir, 'trace.replays.jsonl'), 'utf8')).trim()) as {
        error?: string;
        meta: Record<string, unknown>;
      };
      assert.match(written.error ?? '', /engine crashed/u);
      assert.equal(written.meta.partial, true);
      assert.deepEqual(written.meta.streamErrors, ['engine crashed']);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a failed replay (500) is marked ✖, never "✔ … failed"', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-replay-500-'));
  try {
    const trace = join(dir, 'trace.jsonl');
    await writeFile(trace, JSON.stringify(record) + '\n');
    await withServer(
      (res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error": {"message": "boom"}}');
      },
      async (url) => {
        const r = await run(trace, { endpoint: url });
        assert.equal(r.status, 1);
        const line = r.stdout.split('\n').find((l) => l.includes('guided off')) ?? '';
        assert.match(line, /✖ guided off +failed: /u, r.stdout);
      },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
