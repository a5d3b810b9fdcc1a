import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { TraceIndex } from '../../../src/io/trace/traceIndex.ts';
import type { ChatCompletion, LoadedRecord } from '../../../src/core/trace/record.ts';
import { responseMessage } from '../../../src/core/trace/responseMessage.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/otel/', import.meta.url));
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-otel-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function indexed(name: string, text: string) {
  const path = join(dir, name);
  await writeFile(path, text);
  const index = await TraceIndex.open(path);
  try {
    const records: Array<[number, LoadedRecord]> = [];
    const errors: string[] = [];
    for (let e = 0; e < index.count; e++) {
      const got = await index.read(e);
      for (const r of got.records) records.push([e, r]);
      errors.push(...got.errors.map((x) => x.message));
    }
    return { count: index.count, records, errors };
  } finally {
    await index.close();
  }
}

test('the semantic conventions’ tool-call example (pretty-printed OTLP): one record per chat span, the tool span skipped', async () => {
  const text = await fixture('semconv-tool-calls.otlp.json');
  const got = importText(text);
  assert.deepEqual(got.errors, []);
  assert.deepEqual(
    got.records.map((r) => [r.source, r.line, r.lastLine, r.record.id]),
    [
      ['otel', 1, text.trimEnd().split('\n').length, 'eee19b7ec3c1b174'],
      ['otel', 1, text.trimEnd().split('\n').length, '9a4d2c1f7e6b3a05'],
    ],
  );
  const [first, second] = got.records.map((r) => r.record);
  assert.equal(first?.request?.model, 'gpt-4');
  assert.deepEqual(first?.request?.messages, [{ role: 'user', content: 'Weather in Paris?' }]);
  assert.deepEqual(
    first?.request?.tools?.map((t) => t.function.name),
    ['get_weather'],
  );
  const msg = responseMessage(first?.response ?? []);
  assert.equal(msg.finishReason, 'tool_calls', 'tool_call → tool_calls');
  assert.deepEqual(
    msg.calls.map((c) => [c.id, c.name, c.arguments]),
    [['call_VSPygqKTWdrhaFErNvMV18Yl', 'get_weather', '{"location":"Paris"}']],
  );
  assert.equal((first?.response as ChatCompletion).id, 'chatcmpl-9J3uIL87gldCFtiIbyaOvTeYBRA3l');
  assert.equal((first?.response as ChatCompletion).model, 'gpt-4-0613');
  assert.deepEqual(first?.meta, {
    source: 'otel',
    model: 'gpt-4',
    trace_id: '5b8efff798038103d269b633813fc60c',
    span_id: 'eee19b7ec3c1b174',
    span_name: 'chat gpt-4',
    provider: 'openai',
    response_id: 'chatcmpl-9J3uIL87gldCFtiIbyaOvTeYBRA3l',
    input_tokens: 47,
    output_tokens: 17,
    start_time_unix_nano: '1713800000000000000',
    end_time_unix_nano: '1713800001200000000',
  });
  // The second span's history: the call, then the tool's answer tied to it by id.
  assert.deepEqual(second?.request?.messages?.slice(1), [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { type: 'function', id: 'call_VSPygqKTWdrhaFErNvMV18Yl', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
      ],
    },
    { role: 'tool', content: 'rainy, 57°F', tool_call_id: 'call_VSPygqKTWdrhaFErNvMV18Yl' },
  ]);
  const answer = responseMessage(second?.response ?? []);
  assert.equal(answer.content, 'The weather in Paris is currently rainy with a temperature of 57°F.');
  assert.equal(answer.finishReason, 'stop');
});

test('OpenLLMetry’s legacy flattened attributes (one export per line): calls, finish reason, llm.request.functions as tools', async () => {
  const text = await fixture('openllmetry-function-calls.otlp.jsonl');
  const got = importText(text);
  assert.deepEqual(got.errors, []);
  assert.equal(got.records.length, 1, 'the workflow span is no LLM span');
  const record = got.records[0]?.record;
  assert.equal(record?.id, '7d3b2c1a09f8e7d6');
  assert.deepEqual(record?.request?.messages, [{ role: 'user', content: "What's the weather like in Boston?" }]);
  assert.deepEqual(record?.request?.tools, [
    {
      type: 'function',
      function: {
        name: 'get_current_weather',
        description: 'Get the current weather',
        parameters: {
          type: 'object',
          properties: { location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' } },
          required: ['location'],
        },
      },
    },
  ]);
  const msg = responseMessage(record?.response ?? []);
  assert.equal(msg.finishReason, 'tool_calls');
  assert.deepEqual(
    msg.calls.map((c) => [c.id, c.name, c.arguments]),
    [['call_b4lU3wKOqwO7Xb2Ksok2XWyB', 'get_current_weather', '{\n  "location": "Boston"\n}']],
    'arguments kept exactly as recorded',
  );
  assert.equal(record?.meta?.system, 'OpenAI');
  assert.equal(record?.meta?.input_tokens, 80);
  // Every check runs on it: a clean call against its declared schema.
  const analysed = new Analyzer({}).analyze(got.records[0] as LoadedRecord);
  assert.deepEqual(
    analysed.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.kind),
    [],
  );
});

test('through the byte-offset index: one entry gives several records, keys entry:k stay unique, lines are the export’s first', async () => {
  const pretty = await fixture('semconv-tool-calls.otlp.json');
  const compact = await fixture('openllmetry-function-calls.otlp.jsonl');
  const text = compact + pretty + compact;
  const { count, records, errors } = await indexed('mixed.json', text);
  assert.deepEqual(errors, []);
  assert.equal(count, 3);
  const prettyLines = pretty.trimEnd().split('\n').length;
  assert.deepEqual(
    records.map(([e, r]) => [e, r.line, r.lastLine, r.record.id]),
    [
      [0, 1, 1, '7d3b2c1a09f8e7d6'],
      [1, 2, 1 + prettyLines, 'eee19b7ec3c1b174'],
      [1, 2, 1 + prettyLines, '9a4d2c1f7e6b3a05'],
      [2, 2 + prettyLines, 2 + prettyLines, '7d3b2c1a09f8e7d6'],
    ],
  );
});

test('a span that cannot be read is an error on the export’s line; the other spans still load', () => {
  const span = (spanId: string, attributes: unknown[]) => ({ spanId, name: 'chat', attributes });
  const bad = { key: 'gen_ai.output.messages', value: { stringValue: '[{"role": "assistant", "parts": [' } };
  const good = { key: 'gen_ai.completion.0.content', value: { stringValue: 'hi' } };
  const badDefs = { key: 'gen_ai.tool.definitions', value: { stringValue: '{"name": "x"}' } };
  const exported = {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              span('a1', [bad]),
              'oops',
              span('b2', [good]),
              span('c3', [{ key: 'gen_ai.request.model', value: { stringValue: 'm' } }, badDefs]),
            ],
          },
        ],
      },
    ],
  };
  const got = importText(`{"toolscope": 1, "id": "before", "completion": {"text": "x"}}\n${JSON.stringify(exported)}\n`);
  assert.deepEqual(
    got.records.map((r) => [r.line, r.record.id]),
    [
      [1, 'before'],
      [2, 'b2'],
    ],
  );
  assert.equal(got.errors.length, 3);
  assert.match(
    got.errors[0]?.message ?? '',
    /^line 2: OTLP export: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\] \("chat"\): gen_ai\.output\.messages is not JSON/,
  );
  assert.match(got.errors[1]?.message ?? '', /^line 2: OTLP export: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\] is not an object/);
  assert.match(got.errors[2]?.message ?? '', /spans\[3\].*gen_ai\.tool\.definitions must be an array/);
});

test('an export with no LLM span says so; AnyValue kinds (int as string, arrays, kvlists, bools) read as JSON', () => {
  const none = importText(
    JSON.stringify({
      resourceSpans: [
        { scopeSpans: [{ spans: [{ name: 'GET /', attributes: [{ key: 'http.method', value: { stringValue: 'GET' } }] }] }] },
      ],
    }),
  );
  assert.deepEqual(none.records, []);
  assert.match(none.errors[0]?.message ?? '', /^line 1: OTLP export: none of its 1 span\(s\) is a GenAI or OpenInference LLM span/);
  const attrs = [
    { key: 'gen_ai.request.model', value: { stringValue: 'm' } },
    { key: 'gen_ai.usage.input_tokens', value: { intValue: '12' } },
    {
      key: 'gen_ai.tool.definitions',
      value: {
        arrayValue: {
          values: [
            {
              kvlistValue: {
                values: [
                  { key: 'name', value: { stringValue: 'f' } },
                  { key: 'strict', value: { boolValue: true } },
                ],
              },
            },
          ],
        },
      },
    },
    { key: 'gen_ai.completion.0.content', value: { stringValue: 'ok' } },
    { key: 'gen_ai.completion.0.finish_reason', value: { stringValue: 'stop' } },
  ];
  const got = importText(
    JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'chat m', attributes: attrs, status: { code: 2, message: 'upstream 500' } }] }] }],
    }),
  );
  assert.deepEqual(got.errors, []);
  const record = got.records[0]?.record;
  assert.equal(record?.id, 'line-1-span-1', 'no spanId: an id from the line and the span’s place');
  assert.equal(record?.meta?.input_tokens, 12);
  assert.deepEqual(record?.request?.tools, [{ type: 'function', function: { name: 'f' } }]);
  assert.equal(record?.error, 'upstream 500', 'a span with status ERROR carries its message as the record’s error');
});
