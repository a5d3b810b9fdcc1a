/**
 * What the what-if would have stepped in on, in `detail` (real web-xgrammar 0.1.27): a call's header spelled with
 * whitespace the tag has no room for (Harmony's `to=functions.f <|constrain|>json`, as OpenAI's docs spell it) is
 * `header-spelling`, a warning that says the call itself is not refused; a tool the request does not offer is
 * `tool-name`; arguments the schema refuses are `arguments`; text where the markup allows none is `structure`.
 * Under `allOf: [{type: string}]` the grammar enforces a string — measured here by compiling it — and the message
 * says so rather than "any JSON value".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer, type AnalyzedRecord } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';
import { compileStructuralTag, grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { describeSchema } from '../../../src/core/guided/schemaHint.ts';
import type { ChatTool, JsonObject } from '../../../src/core/trace/record.ts';

const PARAMETERS: JsonObject = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { allOf: [{ type: 'string' }] } },
  required: ['city'],
};
const TOOLS: ChatTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: PARAMETERS } }];

async function whatIf(format: string, text: string): Promise<AnalyzedRecord> {
  const loaded = importText(JSON.stringify({ toolscope: 1, id: 'w', request: { tools: TOOLS }, completion: { text } }), 'w.jsonl');
  return new Analyzer({ format }, nodeServices()).analyzeWithGuided(loaded.records[0]!);
}

const blocked = (a: AnalyzedRecord) => a.diagnostics.filter((d) => d.kind === 'guided-would-block');

const KIMI = (header: string, args: string, after = '') =>
  `<|tool_calls_section_begin|><|tool_call_begin|>${header}<|tool_call_argument_begin|>${args}<|tool_call_end|>${after}<|tool_calls_section_end|>`;

test("what-if: Harmony's header spelled as OpenAI's docs spell it is header-spelling only, a warning", async () => {
  const a = await whatIf('harmony', '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>');
  const [d, ...rest] = blocked(a);
  assert.ok(d);
  assert.equal(rest.length, 0);
  assert.equal(d.detail, 'header-spelling');
  assert.equal(d.severity, 'warning');
  assert.equal(d.callIndex, 0);
  assert.match(
    d.message,
    /over the spelling of call .*\(get_weather\)'s header only: it allowed "<\|constrain\|>json<\|message\|>\{" and no whitespace there/u,
  );
  assert.match(d.message, /the tool and its arguments are not what it refuses/u);
  // The same call spelled as xgrammar's tag spells it goes through.
  const clean = await whatIf(
    'harmony',
    '<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city": "Paris"}<|call|>',
  );
  assert.deepEqual(blocked(clean), []);
});

test('what-if: a space before a Kimi call id is header-spelling; an unknown tool is tool-name; stray text is structure', async () => {
  const spaced = blocked(await whatIf('kimi_k2', KIMI(' functions.get_weather:0', '{"city": "Paris"}')));
  assert.deepEqual(
    spaced.map((d) => [d.detail, d.severity]),
    [['header-spelling', 'warning']],
  );
  const unknown = blocked(
    await whatIf('harmony', '<|channel|>commentary to=functions.get_wether<|constrain|>json<|message|>{"city": "Paris"}<|call|>'),
  );
  assert.deepEqual(
    unknown.map((d) => d.detail),
    ['tool-name'],
  );
  assert.match(unknown[0]!.message, /on the tool name of call .*: it allowed a tool name: get_weather;/u);
  const stray = blocked(await whatIf('kimi_k2', KIMI('functions.get_weather:0', '{"city": "Paris"}', 'trailing')));
  assert.deepEqual(
    stray.map((d) => d.detail),
    ['structure'],
  );
});

test('what-if: allOf of one schema — xgrammar enforces that schema, and the message says what it allows', async () => {
  // Measured: web-xgrammar 0.1.27 compiles `allOf: [{type: string}]` as a string, and an allOf of two as nothing.
  const tag = (json_schema: JsonObject) => ({ type: 'structural_tag' as const, format: { type: 'json_schema' as const, json_schema } });
  const one = await compileStructuralTag(tag({ type: 'object', properties: { p: { allOf: [{ type: 'string' }] } } }));
  assert.equal(await grammarAccepts(one, '{"p": "x"}'), true);
  for (const v of ['{}', '1', 'null', '[1]', 'true']) assert.equal(await grammarAccepts(one, `{"p": ${v}}`), false, v);
  const two = await compileStructuralTag(tag({ type: 'object', properties: { p: { allOf: [{ type: 'string' }, { minLength: 3 }] } } }));
  assert.equal(await grammarAccepts(two, '{"p": {}}'), true);
  assert.equal(describeSchema({ allOf: [{ type: 'string' }] }), 'a string');
  assert.match(
    describeSchema({ allOf: [{ type: 'string' }, { minLength: 3 }] }),
    /^any JSON value \(xgrammar leaves an allOf of several schemas unenforced\)$/u,
  );

  const [d, ...rest] = blocked(await whatIf('kimi_k2', KIMI('functions.get_weather:0', '{"city": "Paris", "unit": {}}')));
  assert.ok(d);
  assert.equal(rest.length, 0);
  assert.equal(d.detail, 'arguments');
  assert.match(
    d.message,
    /in the arguments of call functions\.get_weather:0 \(get_weather\): it allowed a string for unit; the model wrote "\{\}/u,
  );
  assert.doesNotMatch(d.message, /any JSON value/u);
});
