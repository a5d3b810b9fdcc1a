import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, call, ofKind, record, section } from './analyze.helpers.ts';

test('unknown-tool: a call to a tool the request does not offer, anchored to its tokens', () => {
  const text = `Sure. ${section(call('functions.get_stock_price:0', '{"ticker":"NVDA"}'))}`;
  const r = analyze(record({ completion: { text } }));
  const d = ofKind(r, 'unknown-tool');
  assert.equal(d.length, 1);
  assert.match(d[0]?.message ?? '', /get_stock_price.*offered: get_weather, search, send_email/);
  assert.ok(d[0]?.tokenStart !== null && d[0]?.tokenEnd !== null);
  assert.equal(r.completion?.tokens[d[0]?.tokenStart ?? -1]?.text, '<|tool_call_begin|>');
});

test('unknown-tool: declared tools pass, and no request means no verdict', () => {
  const text = section(call('functions.search:0', '{"query":"x"}'));
  assert.deepEqual(ofKind(analyze(record({ completion: { text } })), 'unknown-tool'), []);
  assert.deepEqual(ofKind(analyze({ toolscope: 1, id: 'x', completion: { text } }), 'unknown-tool'), []);
});
