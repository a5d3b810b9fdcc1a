/** The tools a built tag allows, read back from it (tagTools.ts): read once per tag and reader, as a fresh read gives. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tagTools, type TagToolReader } from '../../../src/core/guided/tagTools.ts';
import { getFormat } from '../../../src/core/formats/registry.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';

const tools: ChatTool[] = [
  { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
  { type: 'function', function: { name: 'open_page', parameters: { type: 'object' } } },
];

test("a tag's tools are read once per reader: the same list again, equal to a fresh read of an equal tag", () => {
  const guided = getFormat('kimi_k2').guided;
  assert.ok(guided?.callHeader);
  const reader = guided.callHeader.toolOfTag;
  const tag = guided.structuralTag(tools, 'auto');
  const first = tagTools(tag, reader);
  assert.deepEqual(
    first.map((t) => t.name),
    ['search', 'open_page'],
  );
  assert.equal(tagTools(tag, reader), first, 'the list read before, not the tag walked again');
  assert.deepEqual(tagTools(guided.structuralTag(tools, 'auto'), reader), first, 'an equal tag built anew reads the same');
  // Another reader of the same tag reads it for itself.
  const onlySearch: TagToolReader = (begin) => (reader(begin) === 'search' ? 'search' : undefined);
  assert.deepEqual(
    tagTools(tag, onlySearch).map((t) => t.name),
    ['search'],
  );
  assert.equal(tagTools(tag, reader), first);
});
