/**
 * A what-if job's request text kept by tool set (requestJsonCache.ts): a tool set seen before is not written out
 * again, a different tool choice or a new tool set is, and a choice naming a function is never kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepRequestJson, keptRequestJson } from '../../../src/io/guided/requestJsonCache.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';

const tools = (): ChatTool[] => [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];

test('the text kept for a tool set comes back for the same object and tool choice only', () => {
  const a = tools();
  const json = JSON.stringify({ tools: a, tool_choice: 'auto' });
  assert.equal(keptRequestJson({ tools: a, tool_choice: 'auto' }), undefined);
  keepRequestJson({ tools: a, tool_choice: 'auto' }, json);
  assert.equal(keptRequestJson({ tools: a, tool_choice: 'auto' }), json);
  assert.equal(keptRequestJson({ tools: a, tool_choice: 'required' }), undefined, 'another tool choice is written again');
  assert.equal(keptRequestJson({ tools: a }), undefined, 'no tool choice is not "auto"');
  assert.equal(keptRequestJson({ tools: tools(), tool_choice: 'auto' }), undefined, 'an equal copy is another object');
});

test('no tool choice is kept as none; a choice naming a function is never kept', () => {
  const a = tools();
  keepRequestJson({ tools: a }, 'none-json');
  assert.equal(keptRequestJson({ tools: a, tool_choice: undefined }), 'none-json');
  const named = { type: 'function' as const, function: { name: 'f' } };
  keepRequestJson({ tools: a, tool_choice: named }, 'named-json');
  assert.equal(keptRequestJson({ tools: a, tool_choice: named }), undefined);
  assert.equal(keptRequestJson({ tools: a }), 'none-json', 'the text kept before stays');
});
