/**
 * No API key on disk: the recording proxy, replay and the HTML report run with one known key, carried every way a
 * key travels (a raw body that is not JSON, headers, a key-named field, an upstream that echoes the key in its
 * error), and every file they wrote is searched for it. Loopback only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startRecordingProxy } from '../../src/net/capture/recordingProxy.ts';
import { replayCommand } from '../../src/cli/replayCommand.ts';
import { embeddedTraces } from '../../src/host/view/embeddedTrace.ts';
import { reportPageHtml } from '../../src/host/view/pageHtml.ts';
import { post, testUpstream, withTempDir } from '../net/capture/httpKit.ts';

// Made up, in the shape of an OpenAI project key.
const KEY = 'sk-proj-Kx7Lm2Np9Qr4St6Uv8Wx1Yz3Ab5Cd7Ef';
const SHORT = 'k-9f8e7d6c';

const sink = () => new Writable({ write: (_c, _e, done) => done() });

test('proxy, replay and report write no file holding the key', async () => {
  // An upstream that echoes the credentials it got in its error messages, as some do.
  const upstream = await testUpstream((req, res) => {
    const auth = String(req.headers.authorization ?? '');
    if (req.headers['x-fail'] !== undefined || auth.includes(KEY)) {
      res.writeHead(401, { 'content-type': 'application/json', 'x-echo': auth });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${auth.replace('Bearer ', '')}` } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  });
  const previous = process.env.TOOLSCOPE_NO_KEY_TEST;
  try {
    await withTempDir(async (dir) => {
      const trace = join(dir, 'traces.jsonl');
      const proxy = await startRecordingProxy({ upstream: upstream.url, out: trace });
      try {
        await post(`${proxy.url}/chat/completions`, `{"model": "m", "api_key": "${KEY}", "messages": [`, { headers: { 'x-api-key': KEY } });
        await post(
          `${proxy.url}/chat/completions`,
          { model: 'm', apiKey: KEY, messages: [{ role: 'user', content: `my key is ${KEY}` }] },
          { headers: { authorization: `Bearer ${KEY}` } },
        );
        await post(
          `${proxy.url}/chat/completions?key=${SHORT}`,
          { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
          { headers: { 'x-fail': '1', authorization: `Bearer ${KEY}` } },
        );
        await post(`${proxy.url}/chat/completions`, {
          model: 'm',
          stream: true,
          messages: [{ role: 'user', content: 'hi' }],
          metadata: { note: `{"api_key": "${SHORT}"}` },
        });
      } finally {
        await proxy.close();
      }
      // Replay sends the key from the environment; the upstream echoes it back in a 401.
      process.env.TOOLSCOPE_NO_KEY_TEST = KEY;
      const code = await replayCommand(
        trace,
        {
          endpoint: upstream.url,
          engine: 'vllm',
          apiKeyEnv: 'TOOLSCOPE_NO_KEY_TEST',
          guided: 'both',
          mode: 'chat',
          timeoutS: 10,
          retries: 0,
          json: true,
        },
        sink(),
      );
      assert.equal(code, 1, 'the echoed 401 is a failed replay');
      const data = await embeddedTraces(
        [
          { path: trace, label: 'traces' },
          { path: join(dir, 'traces.replays.jsonl'), label: 'replays' },
        ],
        'report',
        'report',
      );
      await writeFile(join(dir, 'report.html'), reportPageHtml({ script: '', style: '', data, title: 'report' }));

      const files = await readdir(dir);
      assert.deepEqual(files.sort(), ['report.html', 'traces.jsonl', 'traces.replays.jsonl']);
      for (const name of files) {
        const text = await readFile(join(dir, name), 'utf8');
        const at = text.indexOf(KEY);
        assert.ok(at < 0, `${name} holds the key: …${text.slice(Math.max(0, at - 300), at + 60)}`);
        assert.ok(!text.includes(SHORT), `${name} holds the short key`);
        assert.ok(!text.includes(KEY.slice(0, 20)), `${name} holds part of the key`);
      }
    });
  } finally {
    if (previous === undefined) delete process.env.TOOLSCOPE_NO_KEY_TEST;
    else process.env.TOOLSCOPE_NO_KEY_TEST = previous;
    await upstream.close();
  }
});
