import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeepSeekV31Parser, parseDeepSeekV31 } from '../../../../src/core/formats/deepseekV31/deepseekV31Parser.ts';
import { deepseekV31Format } from '../../../../src/core/formats/deepseekV31/deepseekV31Format.ts';
import { DEEPSEEK_TOOL_MARKER_TEXTS } from '../../../../src/core/formats/deepseekV31/deepseekV31Markers.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { DEEPSEEK_V31_FIXTURES } from '../../../fixtures/deepseekV31Completions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new DeepSeekV31Parser(options);

for (const fx of DEEPSEEK_V31_FIXTURES) {
  test(`deepseek_v31 one-shot parse: ${fx.name}`, () => checkFixture(make, fx, { argumentsVerbatim: true }));
}

test('deepseek_v31: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of DEEPSEEK_V31_FIXTURES) {
    checkDeltas(make, fx, DEEPSEEK_TOOL_MARKER_TEXTS);
    checkNameFirst(make, fx);
  }
});

test('deepseek_v31: the name goes out at the separator, arguments as they come', () => {
  const p = new DeepSeekV31Parser();
  assert.equal(p.push('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_'), null);
  assert.deepEqual(p.push('weather<｜tool▁sep｜>{"ci'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }],
  });
  // A marker split across deltas is held back, never leaked.
  assert.deepEqual(p.push('ty": 1}<｜tool▁ca'), { tool_calls: [{ index: 0, function: { arguments: 'ty": 1}' } }] });
  assert.equal(p.push('ll▁end｜>'), null);
});

test('deepseek_v31: result() mid-stream shows the open call', () => {
  const p = new DeepSeekV31Parser();
  p.push('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": ');
  const r = p.result();
  assert.equal(r.calls[0]?.arguments, '{"a":');
  assert.equal(r.calls[0]?.terminated, false);
  assert.throws(() => {
    p.finish();
    p.push('x');
  }, /after finish/);
});

test('deepseek_v31: every marker is recorded, fullwidth bars and all', () => {
  const fx = DEEPSEEK_V31_FIXTURES.find((f) => f.name === 'single call');
  assert.ok(fx);
  assert.deepEqual(
    parseDeepSeekV31(fx.text).markers.map((m) => m.name),
    ['section-begin', 'call-begin', 'argument-begin', 'call-end', 'section-end', 'end-of-turn'],
  );
});

test('deepseek_v31: linear time in the size of the input', () => {
  checkLinear(make, '<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris", "x": "a < b"}<｜tool▁call▁end｜> text ');
});

test('deepseek_v31 format: registered, detected from its markers, no call ids', () => {
  assert.equal(getFormat('deepseek_v31'), deepseekV31Format);
  const fx = DEEPSEEK_V31_FIXTURES.find((f) => f.name === 'parallel calls');
  assert.ok(fx);
  assert.equal(detectFormat(fx.text).name, 'deepseek_v31');
  assert.equal(detectFormat('Hello.<｜end▁of▁sentence｜>').name, 'deepseek_v31');
  assert.equal(deepseekV31Format.callIds, undefined);
  assert.equal(deepseekV31Format.markers.length, 8);
});
