import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeltaAccumulator } from '../../../src/core/trace/deltaAccumulator.ts';

const deltas = [
  { content: 'Hi' },
  { tool_calls: [{ index: 0, id: 'a', type: 'function' as const, function: { name: 'f', arguments: '{"x"' } }] },
  { tool_calls: [{ index: 0, function: { arguments: ': 1}' } }] },
];

test('the delta accumulator keeps each call’s fragments, or none when told so, the message otherwise the same', () => {
  const kept = new DeltaAccumulator();
  const bare = new DeltaAccumulator({ fragments: false });
  for (const d of deltas) {
    kept.add(d);
    bare.add(d);
  }
  const call = { index: 0, id: 'a', name: 'f', arguments: '{"x": 1}' };
  assert.deepEqual(kept.message(), { content: 'Hi', reasoning: null, calls: [{ ...call, fragments: ['{"x"', ': 1}'] }] });
  assert.deepEqual(bare.message(), { content: 'Hi', reasoning: null, calls: [{ ...call, fragments: [] }] });
});
