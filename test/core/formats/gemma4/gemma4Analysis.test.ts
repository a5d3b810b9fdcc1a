/**
 * End to end over the bundled samples: the Gemma 4 and FunctionGemma records of samples/other-formats.jsonl
 * are detected without meta.format, each failure sample fires its kind, the clean one is clean; Gemma 4's schema
 * sample is a violation because `days:30` is typed by the tool's schema (an integer above the maximum).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertMarkerChips, checkSamples, sampleRecords } from '../kit/analysisKit.ts';

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
