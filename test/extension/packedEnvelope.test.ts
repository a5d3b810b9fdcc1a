/** The list's messages to the page as bytes (src/shared/packedEnvelope.ts): the page gets what JSON gave it before. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packEnvelope, unpackEnvelope } from '../../src/shared/packedEnvelope.ts';
import type { Envelope, RecordSummary, TraceInfo } from '../../src/shared/protocol.ts';

const info = {
  fileName: 'a.jsonl',
  entries: 2,
  analysing: true,
  host: 'vscode',
  format: null,
  eval: null,
  diagnosticKinds: {},
} as unknown as TraceInfo;
const row = (i: number): RecordSummary => ({
  key: `${i}:0`,
  entry: i,
  line: i + 1,
  id: `r${i} ✓ "quoted" \u2028`,
  model: null,
  source: 'native',
  format: 'kimi_k2',
  calls: 1,
  worst: 'warning',
  counts: { error: 0, warning: 1, info: 0 },
  kinds: { 'missing-section-marker': 1 },
  failed: null,
  preview: 'Sure. 🙂',
  guidedPending: true,
});

test('packed envelope: rows and findings travel as UTF-8 JSON and decode to what JSON gave', () => {
  const events: Envelope[] = [
    { kind: 'event', body: { type: 'summaries', summaries: [row(0), row(1)], lineErrors: [{ line: 3, message: 'bad' }], info } },
    { kind: 'event', body: { type: 'guidedFindings', findings: [{ key: '0:0', diagnostics: [], ignored: {}, summary: row(0) }] } },
  ];
  for (const e of events) {
    const packed = packEnvelope(e);
    assert.equal(packed.kind, 'packed');
    assert.ok('bytes' in packed && packed.bytes instanceof Uint8Array);
    assert.deepEqual(unpackEnvelope(packed), JSON.parse(JSON.stringify(e)));
  }
});

test('packed envelope: replies, requests and other events go as they are', () => {
  const others: Envelope[] = [
    { kind: 'reply', id: 1, body: { type: 'ok' } },
    { kind: 'request', id: 2, body: { type: 'ready' } },
    { kind: 'event', body: { type: 'step', action: 'next' } },
    { kind: 'event', body: { type: 'reset', info } },
  ];
  for (const m of others) {
    assert.equal(packEnvelope(m), m);
    assert.equal(unpackEnvelope(m), m);
  }
  // Anything not packed, or packed wrongly, is handed on unchanged (the RPC ignores what is not an envelope).
  for (const m of [null, 'text', { kind: 'packed', bytes: 'no' }]) assert.equal(unpackEnvelope(m), m);
});
