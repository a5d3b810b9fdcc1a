/**
 * Guided decoding call by call (guided/constrainedCalls.ts), the path of every format whose call markup is plain text
 * to the grammar: a hallucinated tool becomes the declared tool whose name is closest, a refused value the nearest
 * the schema allows (a Qwen3-Coder parameter as well as a JSON member), text the grammar allows no room for is
 * dropped, and a valid answer comes back byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { writeCompletion } from '../../../src/core/formats/callWriter.ts';
import { constrainCalls } from '../../../src/core/guided/constrainedCalls.ts';
import { compileFormatGrammar } from '../../../src/core/guided/xgrammar.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';

const tools: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'integer', minimum: 1, maximum: 20 },
        },
        required: ['city', 'days'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: { name: 'search_web', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  },
];

async function run(formatName: string, choice: 'auto' | 'required', name: string, args: unknown, said = 'Let me check that.') {
  const format = getFormat(formatName);
  assert.ok(format.guided);
  const grammar = await compileFormatGrammar(format.guided, tools, choice);
  const text = writeCompletion(format.callWriter, said, [{ name, index: 0, arguments: JSON.stringify(args) }]);
  const out = await constrainCalls(grammar, format, text, tools);
  const parser = format.createParser({ tools });
  parser.push(out.text);
  parser.finish();
  const calls = parser.result().calls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as unknown }));
  return { text, out, calls, content: parser.result().content };
}

test('a valid answer passes byte for byte, nothing counted as changed', async () => {
  for (const format of ['hermes', 'qwen3_coder', 'deepseek_v31', 'llama', 'harmony']) {
    const { text, out } = await run(format, 'auto', 'get_weather', { city: 'Paris', unit: 'celsius', days: 3 });
    assert.equal(out.text, text, format);
    assert.deepEqual([out.firstChange, out.forced, out.dropped, out.complete], [null, 0, 0, true], format);
  }
});

test('a hallucinated tool becomes the declared tool whose name shares the longest prefix with it', async () => {
  for (const format of ['hermes', 'qwen3_coder', 'deepseek_v31', 'llama', 'harmony']) {
    const weather = await run(format, 'auto', 'get_weather_v2', { city: 'Paris', days: 3 });
    assert.deepEqual(weather.calls, [{ name: 'get_weather', args: { city: 'Paris', days: 3 } }], format);
    const search = await run(format, 'auto', 'search_webpage', { query: 'acme' });
    assert.deepEqual(search.calls, [{ name: 'search_web', args: { query: 'acme' } }], format);
    assert.ok(weather.out.complete && weather.out.firstChange !== null && weather.out.forced > 0, format);
    // The change starts where the name does: what came before it is the model's own.
    assert.equal(weather.out.text.slice(0, weather.out.firstChange ?? 0), weather.text.slice(0, weather.out.firstChange ?? 0));
  }
});

test('refused values: an out-of-range integer is clamped, a bad enum value becomes the nearest, a missing required key the schema supplies', async () => {
  for (const format of ['hermes', 'qwen3_coder', 'deepseek_v31', 'llama', 'harmony']) {
    const { calls, out } = await run(format, 'auto', 'get_weather', { city: 'Paris', unit: 'celcius', days: 99 });
    assert.deepEqual(calls, [{ name: 'get_weather', args: { city: 'Paris', unit: 'celsius', days: 20 } }], format);
    assert.ok(out.complete, format);
    const missing = await run(format, 'auto', 'get_weather', { days: 2 });
    const args = missing.calls[0]?.args as { city?: unknown; days?: unknown };
    assert.equal(typeof args.city, 'string', format);
    assert.equal(args.days, 2, format);
  }
});

test('under tool_choice "required" the text before the call is dropped (the grammar starts with the call)', async () => {
  for (const format of ['hermes', 'qwen3_coder', 'deepseek_v31']) {
    const { out, calls, content } = await run(format, 'required', 'get_weather', { city: 'Paris', days: 3 });
    assert.equal(out.firstChange, 0, format);
    assert.ok(out.dropped > 0 && out.complete, format);
    assert.equal((content ?? '').trim(), '', format);
    assert.deepEqual(calls, [{ name: 'get_weather', args: { city: 'Paris', days: 3 } }], format);
  }
});
