/**
 * An upstream that answers 413 as soon as it has read the request's headers and closes the connection (nginx's
 * `client_max_body_size`, a gateway's limit) while the proxy is still sending a 16 MiB body: the client gets the
 * upstream's 413 and its body, not a 502 for the broken write, and the exchange is recorded with that answer.
 * Issue 30 reported a 502 EPIPE here; these loopback runs (closed, reset, stalled) did not reproduce it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startRecordingProxy } from '../../../src/net/capture/recordingProxy.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { post, withTempDir } from './httpKit.ts';

const ANSWER = JSON.stringify({ error: { message: 'Request Entity Too Large', type: 'invalid_request_error' } });

/** A raw upstream: after the request's headers, the 413, then `after` on the socket (the body left unread). */
async function earlyAnswer(after: (socket: Socket) => void) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let head = '';
    socket.on('error', () => undefined);
    socket.on('data', (d: Buffer) => {
      if (head.includes('\r\n\r\n')) return;
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.write(
        `HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: ${ANSWER.length}\r\nconnection: close\r\n\r\n${ANSWER}`,
      );
      after(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy(); // the stalled one too
      }),
  };
}

for (const [how, after] of [
  ['closes the connection', (s: Socket) => s.destroy()],
  ['resets the connection', (s: Socket) => s.resetAndDestroy()],
  ['stops reading', (s: Socket) => s.pause()],
] as const) {
  test(`an upstream that answers 413 before the body and ${how}: the client gets the 413, the exchange is recorded`, async () => {
    const upstream = await earlyAnswer(after);
    try {
      await withTempDir(async (dir) => {
        const statuses: number[] = [];
        const proxy = await startRecordingProxy({
          upstream: upstream.url,
          out: join(dir, 't.jsonl'),
          onExchange: (s) => statuses.push(s.status ?? 0),
        });
        try {
          const body = { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(16 * 1024 * 1024) }] };
          const r = await post(`${proxy.url}/chat/completions`, body);
          assert.equal(r.status, 413);
          assert.equal(r.body.toString(), ANSWER);
        } finally {
          await proxy.close();
        }
        assert.deepEqual(statuses, [413]);
        const { records, errors } = await loadAll(join(dir, 't.jsonl'));
        assert.deepEqual(errors, []);
        assert.match(String(records[0]?.record.error), /upstream answered 413: .*Request Entity Too Large/u);
      });
    } finally {
      await upstream.close();
    }
  });
}
