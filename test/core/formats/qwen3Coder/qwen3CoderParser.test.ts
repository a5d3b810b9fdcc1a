import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQwen3Coder, Qwen3CoderParser } from '../../../../src/core/formats/qwen3Coder/qwen3CoderParser.ts';
import { qwen3CoderFormat } from '../../../../src/core/formats/qwen3Coder/qwen3CoderFormat.ts';
import { ParameterTypes, typedValueJson } from '../../../../src/core/formats/qwen3Coder/parameterTypes.ts';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { QWEN3_CODER_FIXTURES, QWEN3_CODER_TOOLS } from '../../../fixtures/qwen3CoderCompletions.ts';
import { checkDeltas, checkFixture, checkLinear, checkNameFirst } from '../kit/formatTestKit.ts';

const make = (options?: ParserOptions) => new Qwen3CoderParser(options);
const tools = { tools: QWEN3_CODER_TOOLS };

for (const fx of QWEN3_CODER_FIXTURES) {
  test(`qwen3_coder one-shot parse: ${fx.name}`, () => {
    checkFixture(make, fx, { argumentsVerbatim: false });
    // Arguments are JSON built from the parameters: valid whenever the call completed.
    const r = parseQwen3Coder(fx.text, fx.options);
    for (const c of r.calls) if (c.terminated) assert.doesNotThrow(() => JSON.parse(c.arguments), `${fx.name}: ${c.arguments}`);
  });
}

test('qwen3_coder: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of QWEN3_CODER_FIXTURES) {
    checkDeltas(make, fx, ['<tool_call>', '</tool_call>', '<function=', '<parameter=', '<think>', '</think>']);
    checkNameFirst(make, fx);
  }
});

test('qwen3_coder: string values stream as written; typed values go out when their parameter closes', () => {
  const p = new Qwen3CoderParser(tools);
  assert.equal(p.push('<tool_call>\n<function=get_wea'), null);
  assert.deepEqual(p.push('ther>\n<parameter=city>\nPa'), {
    tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city": "Pa' } }],
  });
  // The newline may be layout before </parameter>: held back.
  assert.deepEqual(p.push('ris\n'), { tool_calls: [{ index: 0, function: { arguments: 'ris' } }] });
  assert.deepEqual(p.push('</parameter>\n<parameter=days>\n1'), { tool_calls: [{ index: 0, function: { arguments: '", "days": ' } }] });
  assert.deepEqual(p.push('4\n</parameter>\n</function>'), { tool_calls: [{ index: 0, function: { arguments: '14}' } }] });
  assert.equal(p.push('\n</tool_call>'), null);
});

test('qwen3_coder: a closing tag inside a value waits only for what follows it', () => {
  const p = new Qwen3CoderParser(tools);
  p.push('<tool_call>\n<function=write_file>\n<parameter=content>\nx</parameter>');
  assert.equal(p.state, 'call-arguments');
  assert.deepEqual(p.push(' y'), { tool_calls: [{ index: 0, function: { arguments: '</parameter> y' } }] });
});

test('qwen3_coder: result() mid-stream shows the open call as it stands', () => {
  const p = new Qwen3CoderParser(tools);
  p.push('<tool_call>\n<function=get_weather>\n<parameter=city>\nOs');
  const r = p.result();
  assert.equal(r.calls.length, 1);
  assert.equal(r.calls[0]?.name, 'get_weather');
  assert.equal(r.calls[0]?.arguments, '{"city": "Os');
  assert.equal(r.calls[0]?.terminated, false);
});

test('qwen3_coder: only the special tokens are recorded as markers', () => {
  const fx = QWEN3_CODER_FIXTURES.find((f) => f.name === 'think, then call');
  assert.ok(fx);
  assert.deepEqual(
    parseQwen3Coder(fx.text, fx.options).markers.map((m) => m.text),
    ['<think>', '</think>', '<tool_call>', '</tool_call>'],
  );
  // A literal </tool_call> inside a value is text, not a marker.
  const literal = QWEN3_CODER_FIXTURES.find((f) => f.name === 'a literal </parameter> inside a value is text');
  assert.ok(literal);
  assert.deepEqual(
    parseQwen3Coder(literal.text, literal.options).markers.map((m) => m.text),
    ['<tool_call>', '</tool_call>'],
  );
});

test('qwen3_coder: parameter types from the schema', () => {
  const types = new ParameterTypes(QWEN3_CODER_TOOLS);
  assert.deepEqual(types.of('get_weather', 'city'), { string: true, nullable: false, boolean: false });
  assert.deepEqual(types.of('get_weather', 'days'), { string: false, nullable: false, boolean: false });
  assert.deepEqual(types.of('get_weather', 'unit'), { string: true, nullable: true, boolean: false });
  assert.deepEqual(types.of('write_file', 'mode'), { string: false, nullable: true, boolean: false });
  assert.deepEqual(types.of('write_file', 'overwrite'), { string: false, nullable: false, boolean: true });
  assert.deepEqual(types.of('nope', 'x'), { string: true, nullable: false, boolean: false });
  const int = types.of('get_weather', 'days');
  assert.equal(typedValueJson(' 12 ', int), '12');
  assert.equal(typedValueJson('12345678901234567890', int), '12345678901234567890', 'big integers keep their digits');
  assert.equal(typedValueJson('1,000', int), '"1,000"');
  assert.equal(typedValueJson('', int), '""');
});

test('qwen3_coder: linear time in the size of the input', () => {
  checkLinear(
    make,
    '<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nline </parameter> x\n<div>\n</parameter>\n</function>\n</tool_call>\n',
    tools,
  );
  // One long value full of near-markers, fed in small pieces.
  checkLinear(make, 'a < b </param </function x <parameter y\n', tools);
});

test('qwen3_coder format: registered, detected from its markup, no call ids', () => {
  assert.equal(getFormat('qwen3_coder'), qwen3CoderFormat);
  assert.equal(
    detectFormat('<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>').name,
    'qwen3_coder',
  );
  assert.equal(detectFormat('<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>').name, 'qwen3_coder');
  assert.equal(detectFormat('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>').name, 'hermes');
  assert.equal(qwen3CoderFormat.callIds, undefined);
  assert.deepEqual([...qwen3CoderFormat.markers], ['<tool_call>', '</tool_call>', '<think>', '</think>', '<|im_end|>', '<|endoftext|>']);
});
