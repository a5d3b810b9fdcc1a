import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestKey, ScriptedModel } from '../../../src/net/server/scriptedModel.ts';
import { canonicalJson } from '../../../src/core/util/canonicalJson.ts';
import { exampleFor } from '../../../src/core/schema/schemaExample.ts';
import { parseKimiK2 } from '../../../src/core/formats/kimiK2/kimiK2Parser.ts';
import { ToolSchemas } from '../../../src/core/schema/toolSchemas.ts';
import type { ChatRequest, ChatTool } from '../../../src/core/trace/record.ts';

const tool: ChatTool = {
  type: 'function',
  function: {
    name: 'book_meeting',
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 3 },
        attendees: { type: 'array', items: { type: 'string', format: 'email' }, minItems: 2 },
        duration_minutes: { type: 'integer', minimum: 15, maximum: 240 },
        room: { type: 'string', enum: ['north', 'south'] },
        when: { type: 'object', properties: { date: { type: 'string', format: 'date' } }, required: ['date'] },
      },
      required: ['title', 'attendees', 'duration_minutes', 'room', 'when'],
      additionalProperties: false,
    },
  },
};
const request: ChatRequest = { messages: [{ role: 'user', content: 'Book it' }], tools: [tool] };

test('schema examples validate against their schema', () => {
  const value = exampleFor(tool.function.parameters);
  assert.deepEqual(new ToolSchemas().check(tool, value), { kind: 'ok' });
});

test('default script: a valid call to the first tool, index after the history', () => {
  const out = new ScriptedModel().complete({
    ...request,
    messages: [
      ...(request.messages ?? []),
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'functions.book_meeting:0', function: { name: 'book_meeting', arguments: '{}' } }],
      },
    ],
  });
  const parsed = parseKimiK2(out.text);
  assert.equal(out.kind, 'call');
  assert.equal(parsed.calls[0]?.id, 'functions.book_meeting:1');
});

test('hallucination is deterministic by seed and splits into both failure kinds', () => {
  const kinds = new Map<string, number>();
  for (let i = 0; i < 200; i++) {
    const r = { ...request, messages: [{ role: 'user', content: `request ${i}` }] };
    const a = new ScriptedModel({ hallucinate: 0.3, seed: 7 }).complete(r);
    const b = new ScriptedModel({ hallucinate: 0.3, seed: 7 }).complete(r);
    assert.deepEqual(a, b);
    kinds.set(a.kind, (kinds.get(a.kind) ?? 0) + 1);
  }
  const broken = (kinds.get('hallucinated-tool') ?? 0) + (kinds.get('schema-break') ?? 0);
  assert.ok(broken > 40 && broken < 80, `about 30% broken, got ${broken}/200`);
  assert.ok((kinds.get('hallucinated-tool') ?? 0) > 10 && (kinds.get('schema-break') ?? 0) > 10);
});

test('script records match on messages and tools regardless of key order and strict flags', () => {
  const script = [{ toolscope: 1 as const, id: 's', request, completion: { text: 'scripted answer' } }];
  const reordered: ChatRequest = {
    tools: [{ type: 'function', function: { ...tool.function, strict: true } }],
    messages: request.messages,
  };
  assert.equal(new ScriptedModel({ script }).complete(reordered).text, 'scripted answer');
  assert.equal(requestKey(request), requestKey(reordered));
  assert.equal(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] }), '{"a":[2,{"c":2,"d":1}],"b":1}');
});

test('no tools, or tool_choice none: plain text', () => {
  assert.equal(new ScriptedModel().complete({ messages: [{ role: 'user', content: 'hi' }] }).kind, 'text');
  assert.equal(new ScriptedModel().complete({ ...request, tool_choice: 'none' }).kind, 'text');
});

test('a schema value comes from default, then examples, before a typed placeholder', () => {
  assert.equal(exampleFor({ type: 'string', default: 'kept' }), 'kept');
  assert.equal(exampleFor({ type: 'string', examples: ['Design review', 'x'] }), 'Design review');
  assert.equal(exampleFor({ type: 'string' }), 'example');
});
