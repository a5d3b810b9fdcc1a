/** `toolscope proxy` as a process: the first line, a line per exchange, rotation, Ctrl+C, and `analyze` on the result. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../src/net/server/openAiServer.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');

const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

test(
  'proxy --port 0: first line names the URL, HTTP(S)_PROXY is bypassed for a loopback upstream, --max-size rotates, Ctrl+C flushes, analyze reads it all',
  { timeout: 60_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolscope-proxy-cli-'));
    const sim = await startServer();
    try {
      const out = join(dir, 'traces.jsonl');
      // A proxy that refuses connections: were the loopback upstream reached through it, every request would fail.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        HTTPS_PROXY: 'http://127.0.0.1:9',
        HTTP_PROXY: 'http://127.0.0.1:9',
        https_proxy: 'http://127.0.0.1:9',
        http_proxy: 'http://127.0.0.1:9',
        TOOLSCOPE_TEST_KEY: 'sk-from-env-abcdefghijklmnop',
      };
      delete env.NO_PROXY;
      delete env.no_proxy;
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          cli,
          'proxy',
          '--upstream',
          sim.url,
          '--port',
          '0',
          '--out',
          out,
          '--max-size',
          '0.01',
          '--capture-tokens',
          '--api-key-env',
          'TOOLSCOPE_TEST_KEY',
        ],
        { cwd: repo, env },
      );
      const lines: string[] = [];
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const reader = createInterface({ input: child.stdout });
      // One listener for every line: lines that arrive together are not lost between two listeners.
      const first = await new Promise<string>((resolve, reject) => {
        reader.on('line', (l) => {
          if (lines.length === 0) resolve(l);
          lines.push(l);
        });
        child.once('error', reject);
        setTimeout(() => reject(new Error(`no line within 20 s: ${stderr}`)), 20_000).unref();
      });
      lines.shift();
      const m = /^Listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/u.exec(first);
      assert.ok(m, first);
      const url = m[1] as string;

      const N = 12;
      const answers = await Promise.all(
        Array.from({ length: N }, async (_, i) => {
          const r = await fetch(`${url}/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer client-dummy' },
            body: JSON.stringify({
              model: 'kimi-k2',
              stream: i % 2 === 0,
              messages: [{ role: 'user', content: `Weather #${i}?` }],
              tools: [weather],
            }),
          });
          return { status: r.status, text: await r.text() };
        }),
      );
      assert.ok(
        answers.every((a) => a.status === 200),
        JSON.stringify(answers.map((a) => a.text.slice(0, 200))),
      );
      child.kill('SIGINT');
      assert.equal(await exited, 0, stderr);
      assert.match(
        lines[0] ?? '',
        /^Recording to .*traces\.jsonl; forwarding to http:\/\/127\.0\.0\.1:\d+\/v1; capturing tokens \(vllm\)\. Ctrl\+C stops\.$/u,
      );
      assert.equal(
        lines.filter((l) => /^proxy-\S+ {2}POST \/v1\/chat\/completions {2}200 {2}(stream, \d+ events|whole) {2}\d+ ms$/u.test(l)).length,
        N,
        lines.join('\n'),
      );
      assert.ok(
        lines.some((l) => l.startsWith('Recording to ') && l.endsWith('(rotated at --max-size)')),
        'the trace rotated',
      );
      assert.equal(
        lines.at(-1),
        `Stopped: ${N} exchanges recorded (last file: ${join(dir, (await readdir(dir)).sort((a, b) => a.length - b.length || a.localeCompare(b)).at(-1) as string)})`,
      );

      const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
      assert.ok(files.length > 1, `rotated into ${files.join(', ')}`);
      let total = 0;
      for (const f of files) {
        const text = await readFile(join(dir, f), 'utf8');
        assert.ok(text.endsWith('\n'));
        assert.ok(!text.includes('sk-from-env') && !text.includes('client-dummy'), 'no credentials in the trace');
        total += text.split('\n').filter(Boolean).length;
      }
      assert.equal(total, N);

      const analyzed = spawnSync(process.execPath, ['--import', 'tsx', cli, 'analyze', dir, '--json', '--fail-on', 'error'], {
        cwd: repo,
        encoding: 'utf8',
      });
      assert.equal(analyzed.status, 0, analyzed.stdout + analyzed.stderr);
      const rows = analyzed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { error?: string; calls?: Array<{ name: string }>; id: string });
      assert.equal(rows.length, N);
      assert.ok(
        rows.every((r) => r.error === undefined && r.calls?.length === 1 && r.calls[0]?.name === 'get_weather'),
        analyzed.stdout,
      );
    } finally {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
);

test('proxy usage errors exit 2', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', cli, 'proxy', ...args], { cwd: repo, encoding: 'utf8' });
  assert.equal(run().status, 2, 'no --upstream');
  assert.equal(run('--upstream', 'http://127.0.0.1:1/v1', '--max-size', '-1').status, 2);
  assert.equal(run('--upstream', 'http://127.0.0.1:1/v1', '--engine', 'tgi').status, 2);
  const noKey = run('--upstream', 'http://127.0.0.1:1/v1', '--api-key-env', 'TOOLSCOPE_SURELY_UNSET_VARIABLE');
  assert.equal(noKey.status, 2);
  assert.match(noKey.stderr, /TOOLSCOPE_SURELY_UNSET_VARIABLE is not set/u);
});
