/**
 * Calls written with no markup (Gemma `call:`, pythonic, `<invoke>`) in content and reasoning: each a finding of
 * its shape carrying the call as the engine would have sent it, judged against the request's tools, the prose guard
 * keeping talk about code quiet, and no second finding where a registered format's leak already reports the span.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, completionResponse, ofKind, record, TOOLS } from './analyze.helpers.ts';
import { findUnmarkedCalls, formatWriting } from '../../../src/core/diagnostics/unmarkedCalls.ts';
import { getFormat } from '../../../src/core/formats/registry.ts';
import type { ToolCallFormat, UnmarkedCallShape } from '../../../src/core/formats/toolCallFormat.ts';
import { recordJson } from '../../../src/cli/analyzeJson.ts';

const answer = (content: string, fields: Parameters<typeof record>[0] = {}, calls: Parameters<typeof completionResponse>[1] = []) =>
  analyze(record({ response: completionResponse(content, calls, calls.length ? 'tool_calls' : 'stop'), ...fields }));
const tools = new Map(TOOLS.map((t) => [t.function.name, t]));
const scan = (text: string, userMessage: string | null = null) =>
  findUnmarkedCalls(text, { tools, userMessage }).map((c) => [c.shape, c.name, c.arguments, text.slice(c.start, c.end)]);

test('each shape naming an offered tool is a content-leak carrying the call; tool-described-not-called stays quiet', () => {
  const cases: Array<[string, string, string, string]> = [
    [
      "I'll check the weather.\n\n[get_weather(city=\"Paris\", unit='celsius')]",
      'pythonic',
      'get_weather',
      '{"city": "Paris", "unit": "celsius"}',
    ],
    ['Let me look that up:\nsearch(query="vllm tool parser", top_k=3)', 'pythonic', 'search', '{"query": "vllm tool parser", "top_k": 3}'],
    ['call:get_weather{city:<|"|>Paris<|"|>,unit:<|"|>celsius<|"|>}', 'call-colon', 'get_weather', '{"city": "Paris", "unit": "celsius"}'],
    ['Checking.\ncall:search{query:vllm,top_k:3}', 'call-colon', 'search', '{"query": "vllm", "top_k": 3}'],
    [
      '<invoke name="search">\n<parameter name="query">vllm</parameter>\n<parameter name="top_k">3</parameter>\n</invoke>',
      'invoke-xml',
      'search',
      '{"query": "vllm", "top_k": 3}',
    ],
  ];
  for (const [content, shape, name, args] of cases) {
    const r = answer(content);
    const leaks = ofKind(r, 'content-leak');
    assert.equal(leaks.length, 1, `${content}: ${JSON.stringify(leaks)}`);
    const d = leaks[0]!;
    // The detail names the shape, and the registered format that writes it (Gemma 4 writes call:) when there is one.
    const writer = formatWriting(shape as UnmarkedCallShape, null)?.name;
    assert.equal(d.detail, writer ? `${shape}:${writer}` : shape);
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.call, { name, arguments: args }, content);
    assert.match(d.message, /written as text with no tool-call markup.*never delivered as tool_calls/u);
    assert.equal(
      content
        .slice(d.charStart ?? 0, d.charEnd ?? 0)
        .startsWith(shape === 'pythonic' ? name : shape === 'invoke-xml' ? '<invoke' : 'call:'),
      true,
    );
    assert.deepEqual(ofKind(r, 'tool-described-not-called'), [], content);
  }
});

test('a pythonic list gives one finding per call; what cannot be turned is carried as problems', () => {
  const content = '[get_weather(city="Paris"), search(query=q, top_k=-x)]';
  const leaks = ofKind(answer(content), 'content-leak');
  assert.deepEqual(
    leaks.map((d) => d.call),
    [
      { name: 'get_weather', arguments: '{"city": "Paris"}' },
      {
        name: 'search',
        arguments: null,
        problems: ['query: a bare name (q) is not a literal', 'top_k: a bare name (x) is not a literal'],
      },
    ],
  );
  assert.match(leaks[1]!.message, /search \(arguments not turned: query: a bare name \(q\)/u);
});

test('judged against the tool list: a name not offered is no call; without a tool list call: and <invoke> still count, a pythonic list only as the whole text', () => {
  assert.deepEqual(scan('[delete_everything(confirm=True)]'), []);
  assert.deepEqual(scan('call:delete_everything{confirm:true}'), []);
  const noTools = (text: string) => findUnmarkedCalls(text, { tools: null }).map((c) => [c.shape, c.name, c.arguments]);
  assert.deepEqual(noTools('call:write_file{content:hello,path:a.txt}'), [
    ['call-colon', 'write_file', '{"content": "hello", "path": "a.txt"}'],
  ]);
  assert.deepEqual(noTools('court\n<invoke name="Bash">\n<parameter name="command">ls</parameter>\n</invoke>'), [
    ['invoke-xml', 'Bash', '{"command": "ls"}'],
  ]);
  assert.deepEqual(noTools('<|tool_call_start|>[get_current_temperature(location="Tokyo")] <|tool_call_end|>'), [
    ['pythonic', 'get_current_temperature', '{"location": "Tokyo"}'],
  ]);
  assert.deepEqual(noTools('Run it like this:\n[get_current_temperature(location="Tokyo")]\nand read the answer.'), []);
  assert.deepEqual(noTools('print(x=1)'), []);
});

test('<invoke> parameters are typed by the tool schema as vLLM minimax_m2 types them', () => {
  const text =
    '<invoke name="search">\n<parameter name="query">null</parameter>\n<parameter name="top_k">7</parameter>\n<parameter name="extra">{"a": 1.0}</parameter>\n</invoke>';
  assert.deepEqual(
    scan(text).map((c) => c[2]),
    ['{"query": null, "top_k": 7, "extra": "{\\"a\\": 1.0}"}'],
  );
});

test('the prose guard: a function named in a sentence, code in a fence the user asked for, an example in an explanation', () => {
  const quiet = [
    'You can call get_weather(city="Paris") to get it.',
    'Call `get_weather(city="Paris")` first.',
    '- get_weather(city="Paris") — the first step',
    '### get_weather(city, unit="celsius")',
    '>>> get_weather(city="Paris")',
    '> get_weather(city="Paris") returns a dict.',
    'For example:\n\nget_weather(city="Paris")\n\nreturns the weather.',
    "Here's how you would call it:\n\nsearch(query='x')",
    'Sure:\n\n```python\nget_weather(city="Paris")\n```',
    'Put this in your script:\n\n    get_weather(city="Paris")',
    'get_weather(city: str, unit: str = "celsius") -> dict',
    'The older XML format:\n\n```xml\n<invoke name="search">\n<parameter name="query">x</parameter>\n</invoke>\n```',
    'Gemma writes `call:search{query:x}` between its tokens.',
    'the client sees text like call:search{query:x} and runs nothing',
  ];
  for (const text of quiet) assert.deepEqual(scan(text, 'What does this tool do?'), [], text);
  // The whole answer one fenced block: code when the user asked for code, the call when not.
  const fenced = '```python\nget_weather(city="Paris")\n```';
  assert.deepEqual(scan(fenced, 'Show me how to call it from Python'), []);
  assert.deepEqual(scan(fenced, 'What is the weather in Paris?'), [
    ['pythonic', 'get_weather', '{"city": "Paris"}', 'get_weather(city="Paris")'],
  ]);
});

test("a span a registered format's leak already reports is not reported again", () => {
  const content = '<tool_call>\n[get_weather(city="Paris")]\n</tool_call>';
  const leaks = ofKind(answer(content), 'content-leak');
  assert.ok(leaks.length >= 1);
  assert.ok(
    leaks.every((d) => d.detail !== 'pythonic'),
    JSON.stringify(leaks),
  );
});

test('a call also delivered as tool_calls is a warning; calls in the reasoning are call-in-reasoning', () => {
  const delivered = answer('[get_weather(city="Paris")]', {}, [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  const [d] = ofKind(delivered, 'content-leak');
  assert.equal(d?.severity, 'warning');
  assert.match(d?.message ?? '', /also delivered/u);
  const r = analyze(
    record({
      response: {
        id: 'x',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Done.', reasoning_content: 'Plan.\ncall:search{query:vllm}' },
            finish_reason: 'stop',
          },
        ],
      },
    }),
  );
  const [inReasoning] = ofKind(r, 'call-in-reasoning');
  const writer = formatWriting('call-colon', null)?.name;
  assert.equal(inReasoning?.detail, writer ? `call-colon:${writer}` : 'call-colon');
  assert.equal(inReasoning?.where, 'reasoning');
  assert.deepEqual(inReasoning?.call, { name: 'search', arguments: '{"query": "vllm"}' });
  assert.deepEqual(ofKind(r, 'tool-described-not-called'), []);
});

test('the detail names a registered format that writes the shape; --json carries the call', () => {
  const hermes = getFormat('hermes');
  const writer = { ...hermes, name: 'fake_pythonic', unmarkedShape: 'pythonic' } as ToolCallFormat;
  assert.equal(formatWriting('pythonic', null, [hermes, writer])?.name, 'fake_pythonic');
  assert.equal(formatWriting('invoke-xml', null, [hermes, writer]), null);
  assert.equal(formatWriting('pythonic', writer, [])?.name, 'fake_pythonic');
  const r = answer('[get_weather(city="Paris")]');
  const json = recordJson('f.jsonl', r);
  assert.deepEqual(json.diagnostics.find((d) => d.kind === 'content-leak')?.call, { name: 'get_weather', arguments: '{"city": "Paris"}' });
});

test('hostile text: unclosed calls, bodies and backticks by the thousand, deep nesting — no finding, no stack overflow; a deep body is a call whose arguments are reported', () => {
  const texts = [
    'call:get_weather{'.repeat(20_000),
    '<invoke name="search">'.repeat(20_000),
    `<invoke name="search">${'<parameter name="query">'.repeat(20_000)}</invoke>`,
    'get_weather('.repeat(20_000),
    `get_weather(city=${'['.repeat(50_000)}`,
  ];
  for (const text of texts) assert.equal(scan(text).length, 0, text.slice(0, 40));
  // Backticks by the thousand: the code spans are found in one pass, and a call on its own line after them still counts.
  assert.deepEqual(
    scan('`a``b'.repeat(50_000) + '\nget_weather(city="P")').map((c) => c[2]),
    ['{"city": "P"}'],
  );
  // The deep Gemma body still reads as a call, its arguments reported as not turned.
  const deep = findUnmarkedCalls(`call:get_weather{a:${'{b:'.repeat(200)}1${'}'.repeat(201)}`, { tools });
  assert.equal(deep[0]?.arguments, null);
  assert.match(deep[0]?.problems.join() ?? '', /nested deeper than 100 levels/u);
});

test('in the reasoning, a call on its own line while calls were delivered is the plan of one: no finding', () => {
  const r = analyze(
    record({
      response: {
        id: 'x',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              reasoning_content: 'The user wants Paris.\nget_weather(city="Paris", unit="celsius")',
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    }),
  );
  assert.deepEqual(ofKind(r, 'call-in-reasoning'), []);
});

test('pythonic calls: a tool set scanned again (its patterns made once and shared) finds what a fresh tool set finds', () => {
  const texts = [
    "I'll check the weather.\n\n[get_weather(city=\"Paris\", unit='celsius')]",
    'Let me look that up:\nsearch(query="vllm tool parser", top_k=3)',
    'No call in this one.',
    'Once more.\n\n[get_weather(city="Oslo", unit=\'celsius\')]',
  ];
  const fresh = texts.map((t) => findUnmarkedCalls(t, { tools: new Map(tools) }).map((c) => [c.name, c.arguments, c.start]));
  for (let round = 0; round < 2; round++)
    for (const [i, t] of texts.entries())
      assert.deepEqual(
        findUnmarkedCalls(t, { tools }).map((c) => [c.name, c.arguments, c.start]),
        fresh[i],
        `round ${round}, text ${i}`,
      );
  assert.deepEqual(
    fresh.map((calls) => calls.length),
    [1, 1, 0, 1],
    'the texts with a call have it found',
  );
});
