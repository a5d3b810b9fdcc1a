import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HermesParser, parseHermes } from '../../../../src/core/formats/hermes/hermesParser.ts';
import { hermesFormat } from '../../../../src/core/formats/hermes/hermesFormat.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { accumulate } from '../../../../src/core/trace/deltaAccumulator.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { HERMES_FIXTURES } from '../../../fixtures/hermesCompletions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new HermesParser(options);

for (const fx of HERMES_FIXTURES) {
  test(`hermes one-shot parse: ${fx.name}`, () => checkFixture(make, fx, { argumentsVerbatim: true }));
}

test('hermes: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of HERMES_FIXTURES) {
    checkDeltas(make, fx, ['<tool_call>', '</tool_call>', '<think>', '</think>']);
    checkNameFirst(make, fx);
  }
});

test('hermes: the name goes out as soon as its string closes; arguments stream as written', () => {
  const p = new HermesParser();
  assert.equal(p.push('<tool_call>\n{"name": "get_wea'), null);
  assert.deepEqual(p.push('ther", "arguments": {"ci'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }],
  });
  assert.deepEqual(p.push('ty": "Paris"}}\n</tool_call>'), { tool_calls: [{ index: 0, function: { arguments: 'ty": "Paris"}' } }] });
});

test('hermes: arguments written before the name wait for it', () => {
  const p = new HermesParser();
  assert.equal(p.push('<tool_call>{"arguments": {"a": 1}, '), null);
  assert.deepEqual(p.push('"name": "f"}'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }],
  });
});

test('hermes: result() mid-stream shows the open call with its partial arguments', () => {
  const p = new HermesParser();
  p.push('<tool_call>{"name": "f", "arguments": {"a": ');
  const r = p.result();
  assert.equal(r.calls.length, 1);
  assert.equal(r.calls[0]?.name, 'f');
  assert.equal(r.calls[0]?.arguments, '{"a":');
  assert.equal(r.calls[0]?.terminated, false);
});

test('hermes: push after finish is an error; finish twice is harmless', () => {
  const p = new HermesParser();
  assert.equal(p.finish(), null);
  assert.equal(p.finish(), null);
  assert.throws(() => p.push('x'), /after finish/);
});

test('hermes: streaming deltas accumulate like a client would', () => {
  const fx = HERMES_FIXTURES.find((f) => f.name === 'parallel calls in a row');
  assert.ok(fx);
  const p = new HermesParser();
  const msg = accumulate([p.push(fx.text.slice(0, 40)), p.push(fx.text.slice(40, 90)), p.push(fx.text.slice(90)), p.finish()]);
  assert.deepEqual(
    msg.calls.map((c) => [c.id, c.name, c.arguments]),
    [
      [null, 'get_weather', '{"city": "Tokyo"}'],
      [null, 'get_weather', '{"city": "Osaka"}'],
      [null, 'get_time', '{"tz": "Asia/Tokyo"}'],
    ],
  );
});

test('hermes: the special tokens are the markers recorded, in order', () => {
  const r = parseHermes('<think>a</think><tool_call>{"name": "f", "arguments": {}}</tool_call><|im_end|>');
  assert.deepEqual(
    r.markers.map((m) => m.name),
    ['think-begin', 'think-end', 'call-begin', 'call-end', 'end-of-turn'],
  );
});

test('hermes: linear time in the size of the input', () => {
  checkLinear(make, '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "note": "a < b"}}\n</tool_call>\nSome text. ');
  checkLinear(make, '{"k": "v", "n": [1, 2, {"x": "y"}]} ', {});
});

test('hermes format: registered, detected from its markers, no call ids', () => {
  assert.equal(getFormat('hermes'), hermesFormat);
  assert.equal(detectFormat('Sure.\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>').name, 'hermes');
  assert.equal(detectFormat('<tool_call>\n{"name": "f", "arguments": {"html": "<function=x>"}}\n</tool_call>').name, 'hermes');
  assert.equal(detectFormat('just text').name, 'kimi_k2');
  assert.equal(hermesFormat.callIds, undefined);
  assert.ok(hermesFormat.markers.includes('<tool_call>') && hermesFormat.markers.includes('</tool_call>'));
  for (const f of hermesFormat.leakFragments) assert.ok(!'Ordinary prose with <b>tags</b> and a < b.'.includes(f));
});
