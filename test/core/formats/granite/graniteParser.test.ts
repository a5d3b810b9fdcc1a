/**
 * Granite's reference parser on vLLM's own test vectors (granite, granite-20b-fc), whole and streamed (the split
 * property runs over the same fixtures in kit/formatSuite.test.ts), detection (markup, then the server's parser name,
 * then the model name) and the call writer read back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat, getFormat } from '../../../../src/core/formats/registry.ts';
import { formatOfModel, formatOfParser } from '../../../../src/core/formats/resolveFormat.ts';
import type { ParserOptions } from '../../../../src/core/formats/toolCallFormat.ts';
import { writeCompletion } from '../../../../src/core/formats/callWriter.ts';
import { GRANITE_FIXTURES } from '../../../fixtures/granite/graniteCompletions.ts';
import { checkDeltas, checkFixture, checkNameFirst, oneShot } from '../kit/formatTestKit.ts';

const granite = getFormat('granite');
const make = (options?: ParserOptions) => granite.createParser(options);

for (const fx of GRANITE_FIXTURES) {
  test(`granite one-shot parse: ${fx.name}`, () => checkFixture(make, fx, { argumentsVerbatim: true }));
}

test('granite: deltas never carry empty strings or markup; names go out before arguments', () => {
  for (const fx of GRANITE_FIXTURES) {
    checkDeltas(make, fx, ['<|tool_call|>', '<function_call>', '<|end_of_text|>']);
    checkNameFirst(make, fx);
  }
});

test('granite detection: markup first, then the server parser name, then the model name; Hermes keeps its <tool_call>', () => {
  assert.equal(detectFormat('<|tool_call|>[{"name": "f", "arguments": {}}]').name, 'granite');
  assert.equal(detectFormat('<function_call> {"name": "f", "arguments": {}}').name, 'granite');
  // Granite 3.1's `<tool_call>` string before its list, never closed (vLLM test_granite_string_prefix_format).
  assert.equal(detectFormat('<tool_call> [{"name": "f", "arguments": {}}]').name, 'granite');
  assert.equal(detectFormat('Sure.\n<tool_call>[{"arguments": {}, "name": "f"}]<|end_of_text|>').name, 'granite');
  assert.equal(detectFormat('<tool_call>[').name, 'granite');
  // Hermes' calls stay Hermes': an object, closed or cut off; a list inside closed tags (SGLang reads lists there).
  assert.equal(detectFormat('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>').name, 'hermes');
  assert.equal(detectFormat('<tool_call>\n{"name": "f", "arguments": {').name, 'hermes');
  assert.equal(detectFormat('<tool_call>\n[{"name": "f", "arguments": {}}]\n</tool_call>').name, 'hermes');
  assert.equal(formatOfParser('granite')?.name, 'granite');
  assert.equal(formatOfParser('granite-20b-fc')?.name, 'granite');
  assert.equal(formatOfModel('ibm-granite/granite-3.0-8b-instruct')?.name, 'granite');
  assert.equal(formatOfModel('ibm-granite/granite-3.1-8b-instruct')?.name, 'granite');
  assert.equal(formatOfModel('ibm-granite/granite-20b-functioncalling')?.name, 'granite');
  assert.equal(formatOfModel('ibm-granite/granite-3.10-x'), undefined);
  // Granite 4 writes Hermes' calls; vLLM's parser for it is `granite4` (docs/features/tool_calling.md @ 017e9f4).
  assert.equal(formatOfModel('ibm-granite/granite-4.0-h-small')?.name, 'hermes');
  assert.equal(formatOfParser('granite4')?.name, 'hermes');
});

test('granite call writer: what it writes parses back to the same calls', () => {
  const calls = [
    { name: 'get_weather', arguments: '{"city": "Paris"}' },
    { name: 'get_time', arguments: '{}' },
  ];
  const text = writeCompletion(
    granite.callWriter!,
    '',
    calls.map((c, index) => ({ ...c, index })),
  );
  assert.equal(text, '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]');
  const r = oneShot(make, text);
  assert.deepEqual(
    r.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
    calls,
  );
  assert.deepEqual(r.notes, []);
});
