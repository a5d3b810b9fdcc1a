/**
 * Every format's call writer is the inverse of its parser: what the simulated model writes in a format parses back,
 * through that format's own parser, to the same content, tool names and argument values — and detection finds the
 * format in it where the format has markup of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormatIn, formatNames, getFormat } from '../../../src/core/formats/registry.ts';
import { writeCompletion, type WrittenCall } from '../../../src/core/formats/callWriter.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';

const tools: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' }, units: { type: 'object' }, hourly: { type: 'boolean' } },
        required: ['city'],
      },
    },
  },
  { type: 'function', function: { name: 'web.search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
];

const calls: WrittenCall[] = [
  { name: 'get_weather', index: 0, arguments: JSON.stringify({ city: 'Paris, "FR"', days: 3, units: { t: 'C' }, hourly: false }) },
  { name: 'web.search', index: 1, arguments: JSON.stringify({ q: 'a < b & c' }) },
];

for (const name of formatNames()) {
  const format = getFormat(name);
  test(`${name}: a written completion parses back to the calls written`, () => {
    for (const subset of [calls.slice(0, 1), calls]) {
      const text = writeCompletion(format.callWriter, 'Let me check that.', subset);
      // A bare JSON call (Llama) is told apart by the record's model, not by its text.
      if (!format.nativeBareJson) assert.equal(detectFormatIn(text)?.name, name, text);
      const parser = format.createParser({ tools });
      parser.push(text);
      parser.finish();
      const result = parser.result();
      assert.deepEqual(
        result.calls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as unknown })),
        subset.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as unknown })),
        text,
      );
      assert.ok(
        result.calls.every((c) => c.terminated && c.source === 'markup'),
        text,
      );
      // What the model said first is kept, as content or (gpt-oss) as reasoning; Llama writes calls alone.
      const said = `${result.content ?? ''}${result.reasoning ?? ''}`;
      if (format.callWriter.lead('x') !== '') assert.match(said, /Let me check that\./u, text);
      else assert.equal(said.trim(), '', text);
    }
  });
}

test('a completion without calls is what the model said, in the format', () => {
  assert.equal(writeCompletion(getFormat('kimi_k2').callWriter, 'Hello.', []), 'Hello. ');
  assert.equal(writeCompletion(getFormat('kimi_k2').callWriter, '', []), '');
});
