/** Checks that compare the raw completion with what the client received, or judge the response. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, call, completionResponse, ofKind, record, section, stream } from './analyze.helpers.ts';

const twoCalls = section(call('functions.search:0', '{"query":"a"}'), call('functions.get_weather:1', '{"city":"Oslo"}'));

test('dropped-call: the response delivered one of two calls', () => {
  const r = analyze(
    record({
      completion: { text: twoCalls },
      response: completionResponse(null, [{ id: 'functions.search:0', name: 'search', arguments: '{"query":"a"}' }], 'tool_calls'),
    }),
  );
  const d = ofKind(r, 'dropped-call');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.callIndex, 1);
  assert.match(d[0]?.message ?? '', /1 of 2 calls delivered/);
  assert.equal(r.completion?.tokens[d[0]?.tokenStart ?? -1]?.text, '<|tool_call_begin|>');
});

test('dropped-call: server-rewritten ids still match by position', () => {
  const r = analyze(
    record({
      completion: { text: twoCalls },
      response: completionResponse(
        null,
        [
          { id: 'chatcmpl-tool-1', name: 'search', arguments: '{"query":"a"}' },
          { id: 'chatcmpl-tool-2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        ],
        'tool_calls',
      ),
    }),
  );
  assert.deepEqual(ofKind(r, 'dropped-call'), []);
  assert.deepEqual(ofKind(r, 'arguments-mismatch'), []);
});

test('arguments-mismatch: streamed arguments cut at the first newline', () => {
  const args = '{\n  "query": "a"\n}';
  const r = analyze(
    record({
      completion: { text: section(call('functions.search:0', args)) },
      response: stream(
        [{ tool_calls: [{ index: 0, id: 'functions.search:0', type: 'function', function: { name: 'search', arguments: '{' } }] }],
        'tool_calls',
      ),
    }),
  );
  const d = ofKind(r, 'arguments-mismatch');
  assert.equal(d.length, 1);
  assert.match(d[0]?.message ?? '', /truncated prefix \(1 of 18 chars\)/);
});

test('arguments-mismatch: whitespace-only differences are not a mismatch', () => {
  const r = analyze(
    record({
      completion: { text: section(call('functions.search:0', '{"query": "a"}')) },
      response: completionResponse(null, [{ id: 'functions.search:0', name: 'search', arguments: '{"query":"a"}' }], 'tool_calls'),
    }),
  );
  assert.deepEqual(ofKind(r, 'arguments-mismatch'), []);
});

test('finish-reason-mismatch: calls with stop, and tool_calls with no calls', () => {
  const a = analyze(
    record({ response: completionResponse(null, [{ id: 'functions.search:0', name: 'search', arguments: '{"query":"a"}' }], 'stop') }),
  );
  assert.equal(ofKind(a, 'finish-reason-mismatch').length, 1);
  const b = analyze(record({ response: completionResponse('ok', [], 'tool_calls') }));
  assert.equal(ofKind(b, 'finish-reason-mismatch').length, 1);
  const c = analyze(
    record({
      response: completionResponse(null, [{ id: 'functions.search:0', name: 'search', arguments: '{"query":"a"}' }], 'tool_calls'),
    }),
  );
  assert.deepEqual(ofKind(c, 'finish-reason-mismatch'), []);
});

test('tool-call-when-none', () => {
  const r = record({ completion: { text: section(call('functions.search:0', '{"query":"a"}')) } });
  r.request = { ...r.request, tool_choice: 'none' };
  assert.equal(ofKind(analyze(r), 'tool-call-when-none').length, 1);
  r.request = { ...r.request, tool_choice: 'auto' };
  assert.deepEqual(ofKind(analyze(r), 'tool-call-when-none'), []);
});

test('tool-described-not-called: names a tool and stops', () => {
  const r = analyze(record({ response: completionResponse("I'll use search to find the latest figures.", [], 'stop') }));
  const d = ofKind(r, 'tool-described-not-called');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.severity, 'warning');
  assert.equal(d[0]?.charStart, "I'll use ".length);
});

test('tool-described-not-called: an error when tool_choice is required; silent for a plain answer', () => {
  const req = record({ response: completionResponse('Here is the answer: 42.', [], 'stop') });
  assert.deepEqual(ofKind(analyze(req), 'tool-described-not-called'), []);
  req.request = { ...req.request, tool_choice: 'required' };
  const d = ofKind(analyze(req), 'tool-described-not-called');
  assert.equal(d[0]?.severity, 'error');
});

test("tool-described-not-called: intent in the completion's content anchors to its tokens", () => {
  const r = analyze(record({ completion: { text: '<think>ok</think>Let me check the weather for you.', finish_reason: 'stop' } }));
  const d = ofKind(r, 'tool-described-not-called');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.where, 'completion');
  assert.equal(d[0]?.charStart, '<think>ok</think>'.length);
});

test('tool-described-not-called: quiet when the leak rule reads a call in the content (content-leak is the one finding)', () => {
  const leaked = "I'll use search.\n<tool_call>\n" + '{"name": "search", "arguments": {"query": "a"}}\n</tool_call>';
  const r = analyze(record({ response: completionResponse(leaked, [], 'stop') }));
  assert.deepEqual(
    ofKind(r, 'content-leak').map((d) => d.detail),
    ['hermes'],
  );
  assert.deepEqual(ofKind(r, 'tool-described-not-called'), []);
  // Markers alone claim no call: the model stopped at the opener, so it stopped without calling.
  const opener = analyze(record({ response: completionResponse("I'll use search. <tool_call>", [], 'stop') }));
  assert.deepEqual(
    ofKind(opener, 'content-leak').map((d) => d.detail),
    ['opener-only'],
  );
  assert.equal(ofKind(opener, 'tool-described-not-called').length, 1);
});

test('tool-described-not-called: quiet beside call-in-reasoning and beside a bare JSON call in content (one finding a fault)', () => {
  // The call was written, in the reasoning the client received: call-in-reasoning is the one finding.
  const inReasoning = completionResponse('', [], 'stop');
  (inReasoning.choices[0]!.message as { reasoning_content?: string }).reasoning_content =
    "I'll use search. " + section(call('functions.search:0', '{"query":"a"}'));
  const r1 = analyze(record({ response: inReasoning }));
  assert.equal(ofKind(r1, 'call-in-reasoning').length, 1);
  assert.deepEqual(ofKind(r1, 'tool-described-not-called'), []);
  // The call was written as bare JSON in the content: raw-fallback-format is the one finding.
  const r2 = analyze(record({ response: completionResponse('{"name": "search", "arguments": {"query": "a"}}', [], 'stop') }));
  assert.deepEqual(
    ofKind(r2, 'raw-fallback-format').map((d) => d.detail),
    ['bare-json'],
  );
  assert.deepEqual(ofKind(r2, 'tool-described-not-called'), []);
  // A reasoning that only plans the call, with none written anywhere, is still this finding.
  const planned = completionResponse('Done.', [], 'stop');
  (planned.choices[0]!.message as { reasoning_content?: string }).reasoning_content = 'I will call search next.';
  const r3 = analyze(record({ response: planned }));
  assert.deepEqual(ofKind(r3, 'call-in-reasoning'), []);
  assert.equal(ofKind(r3, 'tool-described-not-called').length, 1);
});
