/**
 * Guided replay sends the record's own format's structural tag where the engine takes one from the client (SGLang's
 * response_format, completions mode's structured_outputs), for every format (Qwen3-Coder's with its qwen_xml
 * arguments), never Kimi K2's for another format's record. Loopback (127.0.0.1): a server that keeps each request body.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { replayRecord, type ReplayOptions } from '../../../src/net/replay/replay.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';
import type { Engine } from '../../../src/net/replay/endpoint.ts';
import { buildKimiStructuralTag } from '../../../src/core/formats/kimiK2/kimiK2StructuralTag.ts';

const bodies: Array<Record<string, unknown>> = [];
let server: Server;
let url = '';

before(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => server.close());

const tools = [
  {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
];
const record = (id: string, completion: string): TraceRecord => ({
  toolscope: 1,
  id,
  request: { messages: [{ role: 'user', content: 'Weather in Paris?' }], tools },
  completion: { text: completion },
});
const opts = (engine: Engine): ReplayOptions => ({
  endpoint: { name: 'test', baseUrl: url, model: 'm', engine },
  mode: 'chat',
  guided: true,
  retries: 0,
});

test("sglang: Hermes, DeepSeek-V3.1 and Kimi K2 records are each sent their own format's tag; Harmony its tags_with_separator", async () => {
  const cases: Array<[TraceRecord, string]> = [
    [record('hermes', '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'), '<tool_call>'],
    [
      record(
        'deepseek',
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      ),
      '<｜tool▁calls▁begin｜>',
    ],
    [
      record(
        'kimi',
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
      ),
      '<|tool_calls_section_begin|>',
    ],
  ];
  for (const [r, trigger] of cases) {
    bodies.length = 0;
    const { error } = await replayRecord(r, opts('sglang'));
    assert.equal(error, null, error?.message);
    const sent = bodies[0]?.response_format as { type: string; format: { triggers: string[] } };
    assert.equal(sent.type, 'structural_tag');
    assert.deepEqual(sent.format.triggers, [trigger], r.id);
  }
  bodies.length = 0;
  await replayRecord(
    record('harmony', '<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"city": "Paris"}<|call|>'),
    opts('sglang'),
  );
  const harmony = bodies[0]?.response_format as { format: { type: string; separator: string } };
  assert.deepEqual([harmony.format.type, harmony.format.separator], ['tags_with_separator', '<|start|>assistant']);
});

test('vllm chat: strict tools only, no tag of ours unless a shape is chosen (the server builds its own)', async () => {
  bodies.length = 0;
  const { error } = await replayRecord(
    record('hermes', '<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>'),
    opts('vllm'),
  );
  assert.equal(error, null);
  assert.equal(bodies[0]?.structured_outputs, undefined);
  assert.equal((bodies[0]?.tools as Array<{ function: { strict?: boolean } }>)[0]?.function.strict, true);
});

test("sglang: a Qwen3-Coder record is sent its own tag, the arguments in xgrammar's qwen_xml style", async () => {
  bodies.length = 0;
  const coder = record('coder', '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>');
  const { error } = await replayRecord(coder, opts('sglang'));
  assert.equal(error, null, error?.message);
  const sent = bodies[0]?.response_format as {
    type: string;
    format: { triggers: string[]; tags: Array<{ begin: string; content: { type: string; style: string } }> };
  };
  assert.equal(sent.type, 'structural_tag');
  assert.deepEqual(sent.format.triggers, ['<tool_call>\n<function=']);
  assert.equal(sent.format.tags[0]?.begin, '<tool_call>\n<function=get_weather>\n');
  assert.deepEqual([sent.format.tags[0]?.content.type, sent.format.tags[0]?.content.style], ['json_schema', 'qwen_xml']);
});

test("vllm chat with --tag-shape: the record's format's tag in that shape beside strict tools; a shape of another format leaves the default", async () => {
  const kimi = record(
    'kimi',
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
  );
  const hermes = record('hermes', '<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>');
  const sentTag = async (r: TraceRecord) => {
    bodies.length = 0;
    const { error } = await replayRecord(r, { ...opts('vllm'), tagShape: 'pr36891' });
    assert.equal(error, null, error?.message);
    const so = bodies[0]?.structured_outputs as { structural_tag: string } | undefined;
    assert.ok(so, 'a chosen shape is sent beside strict tools');
    return JSON.parse(so.structural_tag) as { format: { type: string; triggers?: string[] } };
  };
  // Kimi K2 offers pr36891: its tag in that shape, not xgrammar's kimi shape.
  assert.deepEqual(await sentTag(kimi), JSON.parse(JSON.stringify(buildKimiStructuralTag(tools, undefined, { shape: 'pr36891' }))));
  assert.notDeepEqual(await sentTag(kimi), JSON.parse(JSON.stringify(buildKimiStructuralTag(tools, undefined))));
  // Hermes does not: its own default tag, never Kimi K2's.
  assert.deepEqual((await sentTag(hermes)).format.triggers, ['<tool_call>']);
});
