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
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');
const record = { toolscope: 1, id: 'r1', request: { model: 'm', messages: [{ role: 'user', content: 'Weather in Paris?' }] } };

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: repo, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
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

const chunk = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

test('--out that cannot be written is refused before any request is sent', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-replay-out-'));
  try {
    const trace = join(dir, 'trace.jsonl');
    await writeFile(trace, JSON.stringify(record) + '\n');
    await withServer((res) => res.end('{}'), async (url, requests) => {
      const r = await run(['replay', trace, '--endpoint', url, '--out', join(dir, 'missing', 'dir', 'out.jsonl')]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /cannot write/u);
      assert.equal(requests(), 0, 'no request was sent');
    });
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
      const r = await run(['replay', trace, '--endpoint', url, '--retries', '0']);
      assert.equal(r.status, 1, r.stdout + r.stderr);
      const line = r.stdout.split('\n').find((l) => l.includes('guided off')) ?? '';
      assert.match(line, /✖/u, r.stdout);
      assert.doesNotMatch(line, /✔/u);
      assert.match(r.stdout, /TS031 stream-error/u);
      const written = JSON.parse((await readFile(join(dir, 'trace.replays.jsonl'), 'utf8')).trim()) as { error?: string; meta: Record<string, unknown> };
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
    await withServer((res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error": {"message": "boom"}}');
    }, async (url) => {
      const r = await run(['replay', trace, '--endpoint', url, '--retries', '0']);
      assert.equal(r.status, 1);
      const line = r.stdout.split('\n').find((l) => l.includes('guided off')) ?? '';
      assert.match(line, /✖ guided off +failed: /u, r.stdout);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
