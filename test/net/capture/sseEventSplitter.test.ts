import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventBytes, SseEventSplitter, type SseEvent } from '../../../src/net/capture/sseEventSplitter.ts';

function splitAll(parts: Buffer[]): { events: SseEvent[]; rest: SseEvent | null } {
  const s = new SseEventSplitter();
  const events = parts.flatMap((p) => s.push(p));
  return { events, rest: s.end() };
}

function bytesOf(r: { events: SseEvent[]; rest: SseEvent | null }): Buffer {
  return Buffer.concat([...r.events, ...(r.rest ? [r.rest] : [])].map(eventBytes));
}

const STREAM = Buffer.from(
  ': ping\n\n' +
    'data: {"a":1}\n\n' +
    'event: message\r\ndata: {"b":"é ✓"}\r\n\r\n' +
    'data:{"c":3}\r\rdata: line one\ndata: line two\n\n' +
    'id: 7\nretry: 100\ndata: [DONE]\n\n',
  'utf8',
);

test('events, data and comments are read the SSE way (LF, CRLF and CR line ends, one space dropped)', () => {
  const { events, rest } = splitAll([STREAM]);
  assert.equal(rest, null);
  assert.deepEqual(
    events.map((e) => e.data),
    [null, '{"a":1}', '{"b":"é ✓"}', '{"c":3}', 'line one\nline two', '[DONE]'],
  );
  assert.deepEqual(events[0]?.comments, [' ping']);
  assert.equal(events[2]?.type, 'message');
  assert.equal(events[4]?.dataLines, 2);
});

test('every split point of the stream gives the same events and the same bytes, a CRLF split in two included', () => {
  const whole = splitAll([STREAM]);
  for (let cut = 1; cut < STREAM.length; cut++) {
    const r = splitAll([STREAM.subarray(0, cut), STREAM.subarray(cut)]);
    assert.deepEqual(
      r.events.map((e) => e.data),
      whole.events.map((e) => e.data),
      `cut at ${cut}`,
    );
    assert.ok(bytesOf(r).equals(STREAM), `bytes at cut ${cut}`);
  }
  // Byte by byte (a multi-byte character split across reads too).
  const bytewise = splitAll([...STREAM].map((b) => Buffer.from([b])));
  assert.deepEqual(
    bytewise.events.map((e) => e.data),
    whole.events.map((e) => e.data),
  );
  assert.ok(bytesOf(bytewise).equals(STREAM));
});

test('a stream cut mid-event comes out at the end with its bytes; a lone CR at the end ends a line', () => {
  const cut = Buffer.from('data: {"a":1}\n\ndata: {"b":', 'utf8');
  const r = splitAll([cut]);
  assert.equal(r.events.length, 1);
  assert.equal(r.rest?.data, '{"b":');
  assert.ok(bytesOf(r).equals(cut));
  const cr = Buffer.from('data: x\r\r', 'utf8');
  const s = new SseEventSplitter();
  // The second CR could still be the start of CRLF: the event waits for the next byte or the end.
  assert.equal(s.push(cr).length, 0);
  const last = s.end();
  assert.equal(last?.data, 'x');
  assert.ok(last && eventBytes(last).equals(cr));
});
