/**
 * End to end over the bundled samples: the Mistral records of samples/other-formats.jsonl are detected without
 * meta.format, each failure sample fires its kind, the clean one (its server id Mistral's 9 characters) is clean.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertMarkerChips, checkSamples, sampleRecords } from '../kit/analysisKit.ts';

test('mistral analysis: the bundled samples fire their kinds and the clean one is clean', async () => {
  await checkSamples('mistral');
  const clean = (await sampleRecords('mistral')).get('clean-call');
  assert.deepEqual(
    clean?.response?.calls.map((c) => c.id),
    ['Lx7Qm2Va9'],
  );
  assertMarkerChips(clean!, ['[TOOL_CALLS]', '[CALL_ID]', '[ARGS]']);
});
