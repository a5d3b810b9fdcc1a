/**
 * The embedded endpoint (`serve`) under malformed and hostile requests, over real HTTP on 127.0.0.1: a clear 400
 * for a request of the wrong shape, 413 (not a reset) above the body limit, 403 for web pages and rebound host
 * names, 408 for a client that sends its body too slowly.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'node:http';
import { MAX_REQUEST_BODY, startServer, type RunningServer } from '../../../src/net/server/openAiServer.ts';
import { post } from '../capture/httpKit.ts';

let server: RunningServer;
before(async () => {
  server = await startServer({ constraint: null, requestTimeoutMs: 400 });
});
after(() => server.close());

const chat = (over: Record<string, unknown>) => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...over });

test('malformed requests get 400 with a message that names the field, never a 500', async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [chat({ messages: [null] }), /messages\[0\]/u],
    [chat({ messages: [{ role: 'user', content: [null] }] }), /messages\[0\]\.content\[0\]/u],
    [chat({ messages: [{ content: 'no role' }] }), /messages\[0\]\.role/u],
    [chat({ messages: [{ role: 'assistant', content: null, tool_calls: [null] }] }), /messages\[0\]\.tool_calls\[0\]/u],
    [chat({ tools: [null] }), /tools\[0\]/u],
    [chat({ tools: [{ type: 'function', function: { parameters: {} } }] }), /tools\[0\]\.function\.name/u],
    [chat({ tools: 'get_weather' }), /"tools"/u],
    [chat({ max_tokens: 'ten' }), /max_tokens/u],
    [chat({ stream: 'yes' }), /stream/u],
    [chat({ messages: JSON.parse('['.repeat(3000) + ']'.repeat(3000)) as unknown }), /nested deeper/u],
  ];
  for (const [body, field] of cases) {
    for (const stream of [false, true]) {
      const r = await post(`${server.url}/chat/completions`, { ...body, ...(body.stream === undefined ? { stream } : {}) });
      const text = r.body.toString();
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${r.status} ${text}`);
      const error = (JSON.parse(text) as { error: { message: string; type: string } }).error;
      assert.equal(error.type, 'invalid_request_error');
      assert.match(error.message, field);
    }
  }
});

test(`a body above the documented limit (${MAX_REQUEST_BODY / 1024 / 1024} MiB) is answered 413, not reset`, async () => {
  const big = 'x'.repeat(50 * 1024 * 1024);
  const r = await post(`${server.url}/chat/completions`, `{"model": "m", "messages": [], "pad": "${big}"}`);
  assert.equal(r.status, 413);
  assert.match(r.body.toString(), /request body over/u);
});

test('requests from web pages (Origin) and for other host names (DNS rebinding) get 403', async () => {
  const withOrigin = await post(`${server.url}/chat/completions`, chat({}), { headers: { origin: 'https://evil.example' } });
  assert.equal(withOrigin.status, 403);
  const { port } = new URL(server.url);
  const rebound = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/models', headers: { host: `evil.example:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(rebound, 403);
});

test('a client that sends its body too slowly gets 408', async () => {
  const { port } = new URL(server.url);
  const answer = await new Promise<string>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"model"`,
      );
    });
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => resolve(text));
    // A bound on the test, not a wait: it does not keep the process alive.
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
  assert.match(answer, /^HTTP\/1\.1 408/u);
});
