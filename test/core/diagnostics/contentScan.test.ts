/**
 * The format-agnostic content scan: markup of any registered format (and Kimi's reserved-token spellings) is a
 * content-leak naming its format; shapes of no format are unknown-markup-in-content; calls that exist only in the
 * leaked markup get the call-level checks; bare JSON calls are a lost call (raw-fallback-format).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A, B, C, E, S, analyze, call, completionResponse, ofKind, record, section } from './analyze.helpers.ts';
import { findUnknownMarkup, scanToolMarkup } from '../../../src/core/diagnostics/toolMarkupScan.ts';

const answer = (content: string, fields: Parameters<typeof record>[0] = {}) =>
  analyze(record({ response: completionResponse(content, [], 'stop'), ...fields }));

test('content-leak: Qwen3-Coder XML in a record read as Hermes names its own format', () => {
  const content = 'Sure.\n<function=search>\n<parameter=query>\nx\n</parameter>\n</function>\n</tool_call>';
  const r = answer(content, { meta: { format: 'hermes' } });
  const leaks = ofKind(r, 'content-leak');
  assert.ok(
    leaks.some(
      (d) =>
        d.detail === 'qwen3_coder' &&
        d.charStart === content.indexOf('<function=') &&
        /Qwen3-Coder markup, in a record read as Hermes/u.test(d.message),
    ),
    JSON.stringify(leaks),
  );
});

test("content-leak: Kimi's markers spelled by id (<|reserved_token_163595|> …) are Kimi markup; the call is parsed through them", () => {
  const content = `Let me check.<|reserved_token_163595|><|reserved_token_163597|>functions.get_weather:0<|reserved_token_163598|>{"city": "Paris"}<|reserved_token_163599|><|reserved_token_163596|>`;
  const r = answer(content);
  const [d, ...rest] = ofKind(r, 'content-leak');
  assert.ok(d);
  assert.equal(rest.length, 0);
  assert.equal(d.detail, 'kimi_k2');
  assert.equal(d.charStart, 'Let me check.'.length);
  assert.match(d.message, /<\|tool_calls_section_begin\|> spelled by its token id.*1 call \(get_weather\)/u);
  const kimi = scanToolMarkup(content).find((f) => f.format.name === 'kimi_k2');
  assert.deepEqual(
    kimi?.calls.map((c) => [c.name, c.arguments, content.slice(c.argumentsStart ?? 0, c.argumentsEnd ?? 0)]),
    [['get_weather', '{"city": "Paris"}', '{"city": "Paris"}']],
  );
  // The reserved spellings of other ids are not Kimi markers.
  assert.deepEqual(scanToolMarkup('<|reserved_token_163600|>'), []);
  assert.deepEqual(ofKind(r, 'unknown-markup-in-content'), []);
});

test('unknown-markup-in-content: DSML spelled with ‖ bars, full-width and ASCII special-token shapes of no registered format; prose is left alone', () => {
  const r = answer('Calling <‖DSML‖tool_calls> now <|END_OF_TURN_TOKEN|>');
  const [d] = ofKind(r, 'unknown-markup-in-content');
  assert.ok(d);
  assert.equal(d.code, 'TS033');
  assert.equal(d.severity, 'warning');
  assert.equal(d.charStart, 'Calling '.length);
  assert.match(d.message, /"<‖DSML‖tool_calls>", "<\|END_OF_TURN_TOKEN\|>" \(2 occurrences\)/u);
  assert.deepEqual(findUnknownMarkup('a <b> tag, x <| y, 1 < 2 | 3 > 0, <think>, <tool_call>'), []);
  assert.deepEqual(
    findUnknownMarkup('<|tool_call_begin|> <｜tool▁call▁begin｜> <|channel|> <|python_tag|> <|eot_id|> <｜DSML｜function_calls>'),
    [],
    'registered formats own their markers',
  );
  assert.deepEqual(
    findUnknownMarkup('x<s▁p>y').map((m) => m.text),
    ['<s▁p>'],
  );
});

test('unknown markup: upper-case bracket tags naming a tool or call (OpenFang #354), never Mistral markers or prose brackets', () => {
  // https://github.com/RightNow-AI/openfang/issues/354: the model wrote its call as a `[TOOL_CALL]` block.
  assert.deepEqual(
    findUnknownMarkup('[TOOL_CALL]\n{tool => "shell_exec"}\n[/TOOL_CALL]').map((m) => m.text),
    ['[TOOL_CALL]', '[/TOOL_CALL]'],
  );
  assert.deepEqual(findUnknownMarkup('[TOOL_CALLS][{"name": "a", "arguments": {}}]'), [], "Mistral's marker is registered");
  assert.deepEqual(findUnknownMarkup('See [1], [Tool call] docs, [tool_call], [NOTE] and [x](http://y) — a [CALL ME] sign.'), []);
});

test('leaked calls get the call-level checks, each saying it leaked and was never delivered', () => {
  const content = section(call('functionsexec5', '{"command": "ls"}'), call('functions.get_weather:1', '{"city": 5}'));
  const r = answer(content);
  assert.ok(ofKind(r, 'content-leak').length >= 1);
  const bad = ofKind(r, 'bad-call-id');
  assert.deepEqual(
    bad.map((d) => [d.detail, d.where, d.callIndex]),
    [['leaked', 'response', undefined]],
  );
  assert.match(bad[0]!.message, /^leaked Kimi K2 call in content, never delivered: call id "functionsexec5"/u);
  assert.equal(bad[0]!.charStart, content.indexOf(B));
  assert.ok(ofKind(r, 'unknown-tool').some((d) => d.detail === 'leaked' && /functionsexec5/u.test(d.message)));
  assert.ok(ofKind(r, 'schema-violation').some((d) => d.detail === 'leaked' && d.path === '$.city'));
  // With a raw completion the reference parse's calls are the calls: no second round on the leak.
  const withCompletion = analyze(record({ completion: { text: content }, response: completionResponse(content, [], 'stop') }));
  assert.ok(ofKind(withCompletion, 'bad-call-id').every((d) => d.detail === undefined));
});

test('raw-fallback-format: a bare JSON call naming an offered tool in content; unknown names and prose JSON are not calls', () => {
  const r = answer('I will run {"name": "search", "parameters": {"query": "q"}} now.');
  const [d] = ofKind(r, 'raw-fallback-format');
  assert.ok(d);
  assert.equal(d.detail, 'bare-json');
  assert.equal(d.where, 'response');
  assert.match(d.message, /bare JSON \(search\) reached the client as content/u);
  assert.deepEqual(ofKind(answer('{"name": "nope", "arguments": {}}'), 'raw-fallback-format'), []);
  // Tools unknown: only content that is nothing but the call counts.
  const bare = (content: string) => {
    const rec = record({ response: completionResponse(content, [], 'stop') });
    delete rec.request;
    return ofKind(analyze(rec), 'raw-fallback-format').length;
  };
  assert.equal(bare('[{ "name": "get_weather", "parameters": { "city": "Berlin" } }]'), 1);
  assert.equal(bare('Example: {"name": "get_weather", "parameters": {"city": "Berlin"}}'), 0);
  // Nothing but the call in one Markdown code fence (Ollama's llama3.2 answers, ollama/ollama#13519) counts too;
  // a fence with prose around it does not.
  assert.equal(bare('```json\n{"name": "query_web_search", "parameters": {"query": "install ollama models"}}\n```'), 1);
  assert.equal(bare('Try this:\n```json\n{"name": "get_weather", "parameters": {"city": "Berlin"}}\n```'), 0);
  // A call the client also received as tool_calls is not lost.
  const both = analyze(
    record({
      response: completionResponse(
        '{"name": "search", "arguments": {"query": "q"}}',
        [{ id: 'c1', name: 'search', arguments: '{"query": "q"}' }],
        'tool_calls',
      ),
    }),
  );
  assert.deepEqual(ofKind(both, 'raw-fallback-format'), []);
  assert.equal([A, B, C, E, S].length, 5);
});
