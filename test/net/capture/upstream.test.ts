import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientResponseHeaders, Upstream, upstreamRequestHeaders } from '../../../src/net/capture/upstream.ts';
import { routeOf } from '../../../src/net/capture/recordingProxy.ts';

test('client paths map under the upstream base URL, its own prefix kept; a URL with credentials is refused', async () => {
  const plain = new Upstream({ url: '127.0.0.1:8000' });
  assert.equal(plain.baseUrl, 'http://127.0.0.1:8000/v1');
  assert.equal(plain.urlFor('/v1/chat/completions'), 'http://127.0.0.1:8000/v1/chat/completions');
  assert.equal(plain.urlFor('/health?x=1'), 'http://127.0.0.1:8000/health?x=1');
  const prefixed = new Upstream({ url: 'https://api.example.com/openai/v1/' });
  assert.equal(prefixed.urlFor('/v1/models'), 'https://api.example.com/openai/v1/models');
  assert.equal(prefixed.label, 'https://api.example.com/openai/v1');
  assert.throws(() => new Upstream({ url: 'https://user:secret@api.example.com/v1' }), /carries credentials/u);
  await plain.close();
  await prefixed.close();
});

test("headers: hop-by-hop and Connection-listed ones never cross; the proxy key replaces the client's; identity when rewriting", () => {
  const incoming = {
    host: '127.0.0.1:1',
    connection: 'keep-alive, x-hop',
    'x-hop': '1',
    'keep-alive': 'timeout=5',
    'transfer-encoding': 'chunked',
    'content-length': '10',
    expect: '100-continue',
    'proxy-authorization': 'Basic abc',
    authorization: 'Bearer client',
    'api-key': 'k',
    'accept-encoding': 'gzip',
    'content-type': 'application/json',
    'x-stainless-lang': 'python',
  };
  assert.deepEqual(upstreamRequestHeaders(incoming), {
    authorization: 'Bearer client',
    'api-key': 'k',
    'accept-encoding': 'gzip',
    'content-type': 'application/json',
    'x-stainless-lang': 'python',
  });
  assert.deepEqual(upstreamRequestHeaders(incoming, { apiKey: 'sk-proxy', identityEncoding: true }), {
    authorization: 'Bearer sk-proxy',
    'accept-encoding': 'identity',
    'content-type': 'application/json',
    'x-stainless-lang': 'python',
  });
  const upstream = {
    'content-type': 'text/event-stream',
    'content-length': '99',
    'transfer-encoding': 'chunked',
    connection: 'close',
    'set-cookie': ['a=1', 'b=2'],
    'x-request-id': 'r1',
  };
  assert.deepEqual(clientResponseHeaders(upstream, true), {
    'content-type': 'text/event-stream',
    'content-length': '99',
    'set-cookie': ['a=1', 'b=2'],
    'x-request-id': 'r1',
  });
  assert.deepEqual(clientResponseHeaders(upstream, false), {
    'content-type': 'text/event-stream',
    'set-cookie': ['a=1', 'b=2'],
    'x-request-id': 'r1',
  });
});

test('recorded routes: chat completions and completions, POST only, under any prefix', () => {
  assert.equal(routeOf('POST', '/v1/chat/completions'), 'chat');
  assert.equal(routeOf('POST', '/openai/v1/chat/completions'), 'chat');
  assert.equal(routeOf('POST', '/v1/completions'), 'completions');
  assert.equal(routeOf('GET', '/v1/chat/completions'), null);
  assert.equal(routeOf('POST', '/v1/embeddings'), null);
  assert.equal(routeOf('POST', '/v1/responses'), null);
});
