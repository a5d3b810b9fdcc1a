/**
 * Mistral's call-id rule (`callIds`, mistralCallIds.ts): an id after `[CALL_ID]`, a server's id and a history id must
 * be 9 letters or digits (vLLM `MistralToolCall.is_valid_id`, vllm/parser/mistral.py @ 017e9f4). The id checks speak
 * of the format's form, not Kimi's; a 9-character id is no evidence of Mistral on its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer, type AnalyzedRecord } from '../../../../src/core/analysis.ts';
import { getFormat } from '../../../../src/core/formats/registry.ts';
import type { TraceRecord } from '../../../../src/core/trace/record.ts';
import { completionResponse } from '../../diagnostics/analyze.helpers.ts';

const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }];
const analyze = (r: TraceRecord): AnalyzedRecord => new Analyzer().analyze({ record: r, line: 1, lastLine: 1, source: 'native' });
const record = (fields: Partial<TraceRecord>, model = 'mistralai/Mistral-Small-3.2-24B-Instruct-2506'): TraceRecord => ({
  toolscope: 1,
  id: 'r1',
  request: { model, messages: [{ role: 'user', content: 'weather?' }], tools },
  ...fields,
});
const ofKind = (a: AnalyzedRecord, kind: string) => a.diagnostics.filter((d) => d.kind === kind);
const written = (id: string) => `[TOOL_CALLS]get_weather[CALL_ID]${id}[ARGS]{"city": "Paris"}`;

test('the rule: 9 ASCII letters or digits; the id names no tool and has no index', () => {
  const rules = getFormat('mistral').callIds;
  assert.ok(rules);
  for (const ok of ['a1B2c3D4e', 'ABCDEFGHI', '123456789']) assert.equal(rules.problem(ok), null, ok);
  for (const bad of ['a1B2c3D4', 'a1B2c3D4e5', 'call_1234', 'a1B2-3D4e', 'é1B2c3D4e', ''])
    assert.match(rules.problem(bad) ?? '', /is not 9 letters or digits/u, bad);
  assert.equal(rules.nameOf('a1B2c3D4e'), null);
  assert.equal(rules.indexOf('a1B2c3D4e'), null);
});

test('bad-call-id: an id the model wrote after [CALL_ID] that is not 9 letters or digits; a good one passes', () => {
  const bad = analyze(record({ completion: { text: written('call_42') } }));
  assert.equal(bad.format, 'mistral');
  const d = ofKind(bad, 'bad-call-id');
  assert.equal(d.length, 1, JSON.stringify(bad.diagnostics));
  assert.equal(d[0]?.message, 'call id "call_42" is not 9 letters or digits');
  assert.match(d[0]?.hint ?? '', /9-character alphanumeric/u);
  assert.doesNotMatch(`${d[0]?.message} ${d[0]?.hint}`, /functions\.|Kimi/u);
  assert.deepEqual(ofKind(analyze(record({ completion: { text: written('a1B2c3D4e') } })), 'bad-call-id'), []);
});

test("bad-call-id: a server's id for a Mistral call, checked by the format's rule (no tool named in it)", () => {
  const response = (id: string) => completionResponse(null, [{ id, name: 'get_weather', arguments: '{"city": "Paris"}' }], 'tool_calls');
  const d = ofKind(analyze(record({ response: response('call_a1b2c3d4e5f6') })), 'bad-call-id');
  assert.deepEqual(
    d.map((x) => x.message),
    ['call id "call_a1b2c3d4e5f6" is not 9 letters or digits'],
  );
  assert.deepEqual(ofKind(analyze(record({ response: response('Xy7Pq2Lm9') })), 'bad-call-id'), []);
});

test("template-bad-history-id: a history id in Mistral's words; a 9-character id alone is no evidence of Mistral", () => {
  const history = (id: string, model: string): TraceRecord => ({
    toolscope: 1,
    id: 'r1',
    request: {
      model,
      tools,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: id, content: 'sunny' },
      ],
    },
  });
  const d = ofKind(analyze(history('call_0', 'mistralai/Devstral-Small-2507')), 'template-bad-history-id');
  assert.equal(d.length, 1);
  assert.equal(d[0]?.message, 'the history carries call id "call_0", not 9 letters or digits');
  assert.match(d[0]?.hint ?? '', /mistral-common/u);
  assert.deepEqual(ofKind(analyze(history('a1B2c3D4e', 'mistralai/Devstral-Small-2507')), 'template-bad-history-id'), []);
  // An unknown model whose history ids happen to be 9 letters or digits is not read as Mistral.
  const unknown = analyze(history('a1B2c3D4e', 'some-local-model'));
  assert.notEqual(unknown.format, 'mistral');
  assert.equal(unknown.formatBasis, 'default');
});
