/** The checks that report the parser's structure notes: one test block per kind. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A, B, C, E, S, analyze, call, ofKind, record, section } from './analyze.helpers.ts';

test('missing-section-marker: calls without a section begin and end', () => {
  const text = `Sure. ${call('functions.search:0', '{"query":"a"}')} Done.`;
  const d = ofKind(analyze(record({ completion: { text } })), 'missing-section-marker');
  assert.equal(d.length, 2);
  assert.ok(d.every((x) => x.code === 'TS008'));
  assert.deepEqual(
    ofKind(analyze(record({ completion: { text: section(call('functions.search:0', '{"query":"a"}')) } })), 'missing-section-marker'),
    [],
  );
});

test('missing-section-marker: a truncated call is not also a missing section end', () => {
  const text = `${S}${B}functions.search:0${A}{"query": "ab`;
  const r = analyze(record({ completion: { text, finish_reason: 'length' } }));
  assert.deepEqual(ofKind(r, 'missing-section-marker'), []);
  assert.equal(ofKind(r, 'unterminated-call').length, 1);
});

test('unterminated-call: mentions finish_reason length and anchors to the call', () => {
  const text = `Let me search. ${S}${B}functions.search:0${A}{"query": "ab`;
  const r = analyze(record({ completion: { text, finish_reason: 'length' } }));
  const d = ofKind(r, 'unterminated-call');
  assert.equal(d.length, 1);
  assert.match(d[0]?.message ?? '', /finish_reason "length"/);
  assert.equal(r.completion?.tokens[d[0]?.tokenStart ?? -1]?.text, B);
});

test('call-in-think: a section in an unclosed think ends the reasoning; a warning says which engines deliver the calls', () => {
  const text = `<think>I should call ${section(call('functions.search:0', '{"query":"a"}'))}`;
  const r = analyze(record({ completion: { text } }));
  const d = ofKind(r, 'call-in-think');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.severity, 'warning');
  assert.equal(d[0]?.detail, 'section-ends-reasoning');
  assert.match(
    d[0]?.message ?? '',
    /current vLLM .*SGLang .*llama\.cpp .*deliver the calls; vLLM's earlier kimi_k2 reasoning parser .*the client got no call/u,
  );
  assert.deepEqual(
    r.calls.map((c) => c.name),
    ['search'],
  );
  assert.equal(r.reasoning, 'I should call ');
  assert.equal(r.completion?.tokens[d[0]?.tokenStart ?? -1]?.text, S);
  // With </think> after the section: the calls still count, and the finding says non-streaming parsers split there.
  const closed = analyze(record({ completion: { text: `${text}</think>Searching now.` } }));
  const [c] = ofKind(closed, 'call-in-think');
  assert.equal(c?.detail, 'section-ends-reasoning-closed-later');
  assert.match(c?.message ?? '', /non-streaming parsers split at that <\/think>/u);
  assert.equal(closed.content, 'Searching now.');
  assert.deepEqual(ofKind(closed, 'stray-marker'), []);
});

test('call-in-think: a bare call begin inside think stays reasoning, a warning names the engines', () => {
  const r = analyze(
    record({ completion: { text: `<think>I should call ${call('functions.search:0', '{"query":"a"}')}</think>Searching now.` } }),
  );
  const d = ofKind(r, 'call-in-think');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.severity, 'warning');
  assert.equal(d[0]?.detail, 'stays-reasoning');
  assert.match(d[0]?.message ?? '', /llama\.cpp's Kimi K2 parser ends the reasoning at it/u);
  assert.equal(r.calls.length, 0);
  assert.equal(r.completion?.tokens[d[0]?.tokenStart ?? -1]?.text, B);
});

test('raw-fallback-format: in the completion and in response content', () => {
  const r = analyze(record({ completion: { text: `I'll search. functions.search:0 {"query": "x"}` } }));
  assert.equal(ofKind(r, 'raw-fallback-format').length, 1);
  const r2 = analyze(
    record({
      response: { choices: [{ message: { role: 'assistant', content: 'functions.search:0 {"query": "x"}' }, finish_reason: 'stop' }] },
    }),
  );
  assert.equal(ofKind(r2, 'raw-fallback-format')[0]?.where, 'response');
  const recovered = analyze(record({ completion: { text: `functions.search:0 {"query": "x"}` } }), { recoverRawFallback: true });
  assert.equal(recovered.calls.length, 1);
  assert.equal(ofKind(recovered, 'raw-fallback-format').length, 1);
});

test('marker-whitespace: info for trimmed spaces, warning for a newline after call begin', () => {
  const spaces = analyze(record({ completion: { text: `${S}${B}functions.search:0 ${A} {"query":"a"} ${C}${E}` } }));
  const d = ofKind(spaces, 'marker-whitespace');
  assert.equal(d.length, 3);
  assert.ok(d.every((x) => x.severity === 'info'));
  const newline = analyze(record({ completion: { text: `${S}${B}\nfunctions.search:0${A}{"query":"a"}${C}${E}` } }));
  assert.equal(ofKind(newline, 'marker-whitespace')[0]?.severity, 'warning');
});

test('text-in-section and stray-marker', () => {
  const r = analyze(record({ completion: { text: `${S}hmm ${call('functions.search:0', '{"query":"a"}')}${E}</think>` } }));
  assert.equal(ofKind(r, 'text-in-section').length, 1);
  const stray = ofKind(r, 'stray-marker');
  assert.equal(stray.length, 1);
  assert.match(stray[0]?.hint ?? '', /opened the think block in the prompt/);
});

test('marker-split: a section marker recorded as three tokens', () => {
  const tokens = [
    { text: 'Hi ', id: 1000 },
    { text: '<|tool_calls_', id: 1001 },
    { text: 'section_', id: 1002 },
    { text: 'begin|>', id: 1003 },
    { text: B, id: 163597 },
    { text: 'functions.search:0', id: 1004 },
    { text: A, id: 163598 },
    { text: '{"query":"a"}', id: 1005 },
    { text: C, id: 163599 },
    { text: E, id: 163596 },
  ];
  const text = tokens.map((t) => t.text).join('');
  const r = analyze(record({ completion: { text, tokens } }));
  const d = ofKind(r, 'marker-split');
  assert.equal(d.length, 1);
  assert.deepEqual([d[0]?.tokenStart, d[0]?.tokenEnd], [1, 4]);
  assert.equal(r.calls.length, 1, 'the reference parser still finds the call');
});
