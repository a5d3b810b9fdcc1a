import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { TraceIndex } from '../../../src/io/trace/traceIndex.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import type { ChatCompletion, LoadedRecord } from '../../../src/core/trace/record.ts';
import { responseMessage } from '../../../src/core/trace/responseMessage.ts';
import { mulberry32, randomCuts } from '../../fixtures/randomCuts.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/ollama/', import.meta.url));
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

let dir = '';
let counter = 0;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-ollama-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function only(text: string): LoadedRecord {
  const got = importText(text);
  assert.deepEqual(got.errors, []);
  assert.equal(got.records.length, 1);
  return got.records[0] as LoadedRecord;
}

const chunk = (message: Record<string, unknown>, done = false, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    model: 'qwen3:8b',
    created_at: '2025-10-21T09:00:00.000000Z',
    message: { role: 'assistant', content: '', ...message },
    done,
    ...extra,
  });

test('a streamed /api/chat answer (Ollama docs): one record over both lines, the last chunk only done + timings', async () => {
  const text = await fixture('chat-stream.ndjson');
  const loaded = only(text);
  assert.deepEqual([loaded.source, loaded.record.id, loaded.line, loaded.lastLine], ['ollama', 'line-1', 1, 2]);
  const msg = responseMessage(loaded.record.response ?? []);
  assert.deepEqual([msg.content, msg.finishReason, msg.streamed], ['The', 'stop', true]);
  assert.deepEqual(loaded.record.meta, {
    source: 'ollama',
    endpoint: '/api/chat',
    model: 'llama3.2',
    created_at: '2023-08-04T08:52:19.385406455-07:00',
    total_duration: 8113331500,
    load_duration: 6396458,
    prompt_eval_count: 61,
    prompt_eval_duration: 398801000,
    eval_count: 468,
    eval_duration: 7701267000,
    stream: true,
  });
  const path = join(dir, `c${counter++}.ndjson`);
  await writeFile(path, text);
  const index = await TraceIndex.open(path);
  assert.equal(index.count, 1);
  assert.equal(index.entry(0).ollama, true);
  await index.close();
});

test('/api/chat with tools (pretty-printed, as in the docs): arguments object serialised canonically, stop with calls → tool_calls', async () => {
  const loaded = only(await fixture('chat-tools.json'));
  const choice = (loaded.record.response as ChatCompletion).choices[0];
  assert.deepEqual(choice, {
    index: 0,
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [
        { index: 0, type: 'function', function: { name: 'get_current_weather', arguments: '{"format":"celsius","location":"Paris, FR"}' } },
      ],
    },
    finish_reason: 'tool_calls',
  });
  assert.equal(loaded.record.meta?.done_reason, 'stop');
  assert.deepEqual(
    new Analyzer().analyze(loaded).diagnostics.filter((d) => d.kind === 'finish-reason-mismatch'),
    [],
  );
});

test('/api/generate: the response text is the completion (streamed or not, raw or not); done_reason load kept', async () => {
  const streamed = only(await fixture('generate-stream.ndjson'));
  assert.deepEqual(
    [streamed.record.completion, streamed.record.meta?.endpoint, streamed.lastLine],
    [{ text: 'The', finish_reason: 'stop' }, '/api/generate', 2],
  );
  const got = importText(await fixture('generate-raw.ndjson'));
  assert.deepEqual(got.errors, []);
  assert.deepEqual(
    got.records.map((r) => [
      r.line,
      r.record.meta?.endpoint,
      r.record.completion?.text ?? null,
      r.record.completion?.finish_reason ?? responseMessage(r.record.response ?? []).finishReason,
    ]),
    [
      [1, '/api/generate', ' The sky appears blue because of a phenomenon called Rayleigh scattering.', 'stop'],
      [2, '/api/chat', null, 'load'],
    ],
  );
  // A raw completion with a model's own markup is parsed like any raw completion.
  const raw = only(
    JSON.stringify({
      model: 'qwen3:8b',
      created_at: '2025-10-21T09:00:00Z',
      response: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>',
      thinking: 'Oslo weather.',
      done: true,
      done_reason: 'stop',
    }),
  );
  const analysed = new Analyzer().analyze(raw);
  assert.equal(analysed.format, 'hermes');
  assert.deepEqual(
    analysed.calls.map((c) => [c.name, c.arguments]),
    [['get_weather', '{"city": "Oslo"}']],
  );
  assert.equal(raw.record.meta?.thinking, 'Oslo weather.');
});

test('streamed calls and thinking: calls numbered across chunks, thinking as reasoning; done:true ends a stream, the next starts', () => {
  const lines = [
    chunk({ thinking: 'Need the weather' }),
    chunk({ thinking: ' for two cities.' }),
    chunk({ tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Oslo' } } }] }),
    chunk({ tool_calls: [{ function: { name: 'get_weather', arguments: { unit: 'celsius', city: 'Bergen' } } }] }),
    chunk({}, true, { done_reason: 'stop', eval_count: 40 }),
    chunk({ content: 'Done.' }),
    chunk({}, true, { done_reason: 'length' }),
  ];
  const got = importText(lines.join('\n'));
  assert.deepEqual(got.errors, []);
  assert.deepEqual(
    got.records.map((r) => [r.line, r.lastLine]),
    [
      [1, 5],
      [6, 7],
    ],
  );
  const first = responseMessage(got.records[0]?.record.response ?? []);
  assert.equal(first.reasoning, 'Need the weather for two cities.');
  assert.deepEqual(
    first.calls.map((c) => [c.index, c.name, c.arguments]),
    [
      [0, 'get_weather', '{"city":"Oslo"}'],
      [1, 'get_weather', '{"city":"Bergen","unit":"celsius"}'],
    ],
  );
  assert.equal(first.finishReason, 'tool_calls');
  assert.equal(
    first.deltas.some((d) => d.content === ''),
    false,
    'no empty content delta is made up from Ollama\'s "" content',
  );
  assert.equal(responseMessage(got.records[1]?.record.response ?? []).finishReason, 'length');
});

test("a bad line inside a run is an error for that line; another JSON line ends the run; key order other than Ollama's is read alone", () => {
  const lines = [
    chunk({ content: 'a' }),
    '{"model":"qwen3:8b","created_at":"x", oops',
    chunk({ content: 'b' }, true),
    '{"toolscope":1,"id":"n"}',
    JSON.stringify({ done: true, model: 'm', created_at: 't', message: { role: 'assistant', content: 'c' } }),
  ];
  const got = importText(lines.join('\n'));
  assert.deepEqual(
    got.errors.map((e) => e.line),
    [2],
  );
  assert.match(got.errors[0]?.message ?? '', /^line 2: invalid JSON/);
  assert.deepEqual(
    got.records.map((r) => [r.record.id, r.line, r.lastLine]),
    [
      ['line-1', 1, 3],
      ['n', 4, 4],
      ['line-5', 5, 5],
    ],
  );
  assert.equal(responseMessage(got.records[0]?.record.response ?? []).content, 'ab');
});

test('a stream written to a file piece by piece: after each refresh every entry reads, the complete file gives the same records', async () => {
  const lines = [
    chunk({ content: 'Hel' }),
    chunk({ content: 'lo' }),
    chunk({ tool_calls: [{ function: { name: 'f', arguments: {} } }] }),
    chunk({}, true, { done_reason: 'stop' }),
    chunk({ content: 'again' }, true),
  ];
  const whole = lines.join('\n') + '\n';
  const expected = importText(whole).records;
  assert.equal(expected.length, 2);
  const rnd = mulberry32(11);
  for (let round = 0; round < 5; round++) {
    const path = join(dir, `s${counter++}.ndjson`);
    await writeFile(path, '');
    const index = await TraceIndex.open(path);
    try {
      for (const piece of randomCuts(whole, rnd, 90)) {
        await appendFile(path, piece);
        await index.refresh();
        for (let i = 0; i < index.count; i++) await index.read(i);
      }
      assert.equal(index.count, 1);
      assert.deepEqual((await index.read(0)).records, expected);
    } finally {
      await index.close();
    }
    assert.deepEqual((await loadAll(path, { chunkSize: 5 })).records, expected);
  }
});
