import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');
const record = {
  toolscope: 1,
  id: 'w1',
  request: {
    model: 'kimi-k2',
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [
      {
        type: 'function',
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      },
    ],
  },
  completion: {
    text: 'Sure. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_wether:0<|tool_call_argument_begin|>{"town":"Paris"}<|tool_call_end|><|tool_calls_section_end|>',
  },
};

test('replay --guided both --json: two new records beside the trace, the original untouched', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-replay-'));
  try {
    const trace = join(dir, 'trace.jsonl');
    const original = JSON.stringify(record) + '\n';
    await writeFile(trace, original);
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, 'replay', trace, '--guided', 'both', '--json'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, TOOLSCOPE_API_KEY: 'sk-secret-never-written' },
    });
    assert.equal(r.status, 0, r.stderr);
    const printed = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { meta: Record<string, unknown> });
    assert.deepEqual(
      printed.map((p) => p.meta.guided),
      [false, true],
    );
    assert.ok(printed.every((p) => p.meta.replayOf === 'w1' && String(p.meta.endpoint).startsWith('http://127.0.0.1:')));
    const written = await readFile(join(dir, 'trace.replays.jsonl'), 'utf8');
    assert.equal(written.trim().split('\n').length, 2);
    assert.ok(!written.includes('sk-secret-never-written'));
    assert.equal(await readFile(trace, 'utf8'), original);
    const refused = spawnSync(process.execPath, ['--import', 'tsx', cli, 'replay', trace, '--out', trace], { cwd: repo, encoding: 'utf8' });
    assert.notEqual(refused.status, 0);
    assert.equal(await readFile(trace, 'utf8'), original, 'writing into the original is refused');
    assert.equal(
      spawnSync(process.execPath, ['--import', 'tsx', cli, 'replay', trace, '--record', 'nope'], { cwd: repo, encoding: 'utf8' }).status,
      2,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('serve --port 0: first stdout line names the URL; /v1/models answers', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--port', '0'], { cwd: repo });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('error', reject);
      setTimeout(() => reject(new Error('no line within 15 s')), 15_000);
    });
    const m = /^Listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(first);
    assert.ok(m, first);
    const models = (await (await fetch(`${m[1]}/models`)).json()) as { data: Array<{ id: string }> };
    assert.equal(models.data[0]?.id, 'toolscope-sim-kimi-k2');
  } finally {
    child.kill('SIGTERM');
  }
});

test('replay against the embedded endpoint ignores HTTPS_PROXY / HTTP_PROXY (no proxy reaches this 127.0.0.1)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-proxy-'));
  try {
    const trace = join(dir, 'trace.jsonl');
    await writeFile(trace, JSON.stringify(record) + '\n');
    // A proxy that refuses connections: a fresh process reads it, so a replay through it would fail.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HTTPS_PROXY: 'http://127.0.0.1:9',
      HTTP_PROXY: 'http://127.0.0.1:9',
      https_proxy: 'http://127.0.0.1:9',
      http_proxy: 'http://127.0.0.1:9',
    };
    delete env.NO_PROXY;
    delete env.no_proxy;
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, 'replay', trace, '--guided', 'on', '--json'], {
      cwd: repo,
      encoding: 'utf8',
      env,
    });
    assert.equal(r.status, 0, r.stderr);
    const written = JSON.parse(r.stdout.trim().split('\n')[0] as string) as { error?: string; meta: { guided: boolean } };
    assert.equal(written.error, undefined);
    assert.equal(written.meta.guided, true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
