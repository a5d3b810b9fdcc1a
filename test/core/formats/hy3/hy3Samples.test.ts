/**
 * Hunyuan Hy3's samples (samples/other-formats.jsonl, spelled with the tokenizer's `:opensource` suffix): each failure
 * fires its kind, the clean call is clean and delivered as the reference parse gives it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSamples, sampleRecords } from '../kit/analysisKit.ts';

test('hy_v3 samples: each failure fires its kind; the clean call is clean and delivered as parsed', async () => {
  await checkSamples('hy_v3');
});

test('hy_v3 samples are written in the suffixed spelling of the public checkpoints', async () => {
  for (const r of (await sampleRecords('hy_v3')).values()) {
    const text = r.completion?.text;
    if (text === undefined) continue;
    assert.match(text, /<tool_calls:opensource>/, r.id);
    assert.doesNotMatch(text, /<tool_calls>|<tool_sep>|<arg_key>/, r.id);
  }
});
