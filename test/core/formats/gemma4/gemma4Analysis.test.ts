/**
 * End to end over the bundled samples: the Gemma 4 and FunctionGemma records of samples/other-formats.jsonl
 * are detected without meta.format, each failure sample fires its kind, the clean one is clean; Gemma 4's schema
 * sample is a violation because `days:30` is typed by the tool's schema (an integer above the maximum).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record, sampleRecords } from '../kit/analysisKit.ts';
import { Analyzer } from '../../../../src/core/analysis.ts';
import { importText } from '../../../../src/core/trace/importText.ts';
import { nodeServices } from '../../../../src/io/nodeServices.ts';

test('gemma4 and functiongemma analysis: the bundled samples fire their kinds and the clean one is clean', async () => {
  await checkSamples('gemma4');
  await checkSamples('functiongemma');
});

test("the samples' calls: Gemma 4's bare days typed by the schema, the markers shown as chips", async () => {
  const gemma = await sampleRecords('gemma4');
  const schema = gemma.get('schema-violation');
  assert.deepEqual(
    schema?.calls.map((c) => [c.name, c.arguments]),
    [['get_weather', '{"city": "Oslo", "unit": "kelvin", "days": 30}']],
  );
  assertMarkerChips(gemma.get('clean-call')!, ['<|channel>', '<channel|>', '<|tool_call>', '<tool_call|>', '<|"|>']);
  const fg = await sampleRecords('functiongemma');
  assertMarkerChips(fg.get('clean-call')!, ['<start_function_call>', '<end_function_call>', '<escape>']);
});

test("the analysis types Gemma 4's bare values by the request's tools: a string parameter's 42 is no schema violation", () => {
  const tools = [
    {
      type: 'function' as const,
      function: { name: 'f', parameters: { type: 'object', properties: { n: { type: 'string' }, on: { type: 'boolean' } } } },
    },
  ];
  const text = '<|tool_call>call:f{n:42,on:1}<tool_call|>';
  const r = analyze({
    toolscope: 1,
    id: 'typed',
    request: { model: 'google/gemma-4-31B-it', messages: [{ role: 'user', content: 'hi' }], tools },
    completion: { text, finish_reason: 'tool_calls' },
  });
  assert.equal(r.format, 'gemma4');
  assert.deepEqual(
    r.calls.map((c) => c.arguments),
    ['{"n": "42", "on": true}'],
  );
  assertClean(r, text);
  // Without the tools, by its look: 42 and 1.
  const bare = analyze({ toolscope: 1, id: 'bare', request: { model: 'google/gemma-4-31B-it', messages: [] }, completion: { text } });
  assert.deepEqual(
    bare.calls.map((c) => c.arguments),
    ['{"n": 42, "on": 1}'],
  );
  assert.ok(!kinds(bare).includes('schema-violation'));
});

test('no engine grammar: with the grammar engine on, the what-if says so once per record for Gemma 4 and FunctionGemma, as info, and compiles nothing', async () => {
  const services = nodeServices();
  for (const [format, text] of [
    ['gemma4', '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>'],
    ['functiongemma', '<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>'],
  ] as const) {
    const loaded = importText(JSON.stringify(record({ completion: { text } })), 'case.jsonl');
    const a = await new Analyzer({}, services).analyzeWithGuided(loaded.records[0] as (typeof loaded.records)[0]);
    assert.equal(a.format, format);
    const guided = a.diagnostics.filter((d) => d.kind.startsWith('guided-'));
    assert.deepEqual(
      guided.map((d) => [d.kind, d.severity, d.detail]),
      [['guided-unavailable', 'info', 'no-engine-grammar']],
      format,
    );
    assert.match(guided[0]!.message, /has no engine grammar for .* calls to compile \(no structural tag for .*017e9f44/u);
  }
});
