import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { PythonLiteralError, parsePythonLiteral } from '../../../src/core/trace/importers/pythonLiteral.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import type { ChatCompletion, LoadedRecord } from '../../../src/core/trace/record.ts';
import { responseMessage } from '../../../src/core/trace/responseMessage.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/python-printouts/', import.meta.url));
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

function only(text: string): LoadedRecord {
  const got = importText(text);
  assert.deepEqual(got.errors, []);
  assert.equal(got.records.length, 1);
  return got.records[0] as LoadedRecord;
}

test('the literal reader: strings with escapes and prefixes, numbers, None/True/False, tuples, dicts, calls as objects', () => {
  assert.deepEqual(parsePythonLiteral(`{'a': "it's", 'b': '\\n\\t\\x41\\u00e9\\N', 'c': r'\\d+', 'd': u'x' 'y', 'e': '''tri"ple'''}`), {
    a: "it's",
    b: '\n\tAé\\N',
    c: '\\d+',
    d: 'xy',
    e: 'tri"ple',
  });
  assert.deepEqual(parsePythonLiteral('[1, -2.5, 1e3, 1_000, None, True, False, (1, 2), (), [], {}]'), [
    1,
    -2.5,
    1000,
    1000,
    null,
    true,
    false,
    [1, 2],
    [],
    [],
    {},
  ]);
  assert.deepEqual(parsePythonLiteral("Function(arguments='{}', name='f')"), { arguments: '{}', name: 'f' });
  for (const bad of ["Foo('positional')", 'x', 'float(inf)', "{1: 'a'}", "b'bytes'", "'unterminated", '[1, 2', '1j', "{'a': 1} trailing"]) {
    assert.throws(() => parsePythonLiteral(bad), PythonLiteralError, bad);
  }
  assert.throws(() => parsePythonLiteral("ChatCompletion(id='x', created=datetime(2024, 1, 1))"), /has a positional argument/);
  // Deep nesting is refused, not a stack overflow.
  assert.throws(() => parsePythonLiteral('['.repeat(5000)), /nested too deeply/);
});

test("a ChatCompletion(...) printout (the SDK's repr): a chat.completion record, the call and finish reason as printed", async () => {
  const loaded = only(await fixture('chat-completion.txt'));
  assert.equal(loaded.source, 'chat-completion');
  assert.equal(loaded.record.id, 'chatcmpl-BN62ezNYmOfNaNEbNEu58pvi1wlaO');
  assert.equal(loaded.record.meta?.printout, 'python');
  const msg = responseMessage(loaded.record.response ?? []);
  assert.deepEqual(
    msg.calls.map((c) => [c.id, c.name, c.arguments]),
    [['call_pOsKdUlqvdyttYB67MOj434b', 'get_current_time', '{"location":"San Francisco"}']],
  );
  assert.equal(msg.finishReason, 'tool_calls');
  assert.deepEqual((loaded.record.response as ChatCompletion).usage, {
    completion_tokens: 17,
    prompt_tokens: 65,
    total_tokens: 82,
    completion_tokens_details: { accepted_prediction_tokens: 0, audio_tokens: 0, reasoning_tokens: 0, rejected_prediction_tokens: 0 },
    prompt_tokens_details: { audio_tokens: 0, cached_tokens: 0 },
  });
});

test('a ChatCompletionMessage printout alone (Generative AI for Beginners, lesson 11): wrapped into a response with no finish reason', async () => {
  const loaded = only(await fixture('chat-completion-message.txt'));
  const msg = responseMessage(loaded.record.response ?? []);
  assert.deepEqual(
    msg.calls.map((c) => [c.name, c.arguments]),
    [['get_current_time', '{"location":"San Francisco"}']],
  );
  assert.equal(msg.finishReason, null);
  const call = only(
    "ChatCompletionMessageToolCall(id='call_1', function=Function(arguments='{\"q\": 1}', name='search'), type='function')",
  );
  assert.deepEqual(
    responseMessage(call.record.response ?? []).calls.map((c) => [c.id, c.name]),
    [['call_1', 'search']],
  );
  const fn = only("Function(arguments='{}', name='now')");
  assert.deepEqual(
    responseMessage(fn.record.response ?? []).calls.map((c) => c.name),
    ['now'],
  );
});

test('a pprint-ed dict over several lines: one record from its first to its last line, a string split over two lines joined', async () => {
  const text = await fixture('chat-completion-pprint.txt');
  const loaded = only(text);
  assert.deepEqual([loaded.line, loaded.lastLine], [1, text.trimEnd().split('\n').length]);
  assert.deepEqual(
    responseMessage(loaded.record.response ?? []).calls.map((c) => c.arguments),
    ['{"location":"San Francisco"}'],
  );
  // The same from a file, with other records around it.
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-printout-'));
  try {
    const path = join(dir, 'report.txt');
    await writeFile(path, `${JSON.stringify({ toolscope: 1, id: 'before' })}\n${text}${await fixture('chat-completion.txt')}`);
    for (const chunkSize of [3, undefined]) {
      const got = await loadAll(path, { chunkSize });
      assert.deepEqual(got.errors, []);
      assert.deepEqual(
        got.records.map((r) => [r.record.id, r.line]),
        [
          ['before', 1],
          ['chatcmpl-BN62ezNYmOfNaNEbNEu58pvi1wlaO', 2],
          ['chatcmpl-BN62ezNYmOfNaNEbNEu58pvi1wlaO', 2 + text.trimEnd().split('\n').length],
        ],
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('printed ChatCompletionChunk lines (a print loop over a stream): one streamed record, grouped like an SSE dump', async () => {
  const text = await fixture('chunks.txt');
  const loaded = only(text);
  assert.equal(loaded.source, 'sse');
  assert.deepEqual([loaded.line, loaded.lastLine], [1, 4]);
  const msg = responseMessage(loaded.record.response ?? []);
  assert.deepEqual(
    msg.calls.map((c) => [c.id, c.name, c.arguments, c.fragments.length]),
    [['call_TFRZlgvrguGShDwqCJeOzOcj', 'get_current_time', '{"location":"San Francisco"}', 2]],
  );
  assert.equal(msg.finishReason, 'tool_calls');
  assert.deepEqual(
    new Analyzer().analyze(loaded).diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  // A chunk line that is cut is an error for that line; the other chunks still make the stream.
  const lines = text.trim().split('\n');
  const cut = importText([lines[0], (lines[1] ?? '').slice(0, 80), lines[2], lines[3]].join('\n'));
  assert.deepEqual(
    cut.errors.map((e) => e.line),
    [2],
  );
  assert.match(cut.errors[0]?.message ?? '', /^line 2: a ChatCompletionChunk printout Toolscope cannot read/);
  assert.equal(cut.records.length, 1);
});

test('what is neither JSON nor a readable printout says both; a log line stays "invalid JSON"', () => {
  const bad = importText("ChatCompletion(id='x', choices=[Choice(finish_reason='stop', message=<object at 0x7f>)])");
  assert.match(bad.errors[0]?.message ?? '', /^line 1: not JSON, nor a Python printout Toolscope can read: unexpected "<" at offset \d+/);
  assert.match(importText('2025-10-21 12:00:01 INFO started').errors[0]?.message ?? '', /^line 1: invalid JSON/);
  assert.match(importText('{oops').errors[0]?.message ?? '', /^line 1: invalid JSON/);
});

test('a __proto__ key (a dict key or a keyword) is a plain key: it sets no prototype and makes no call appear', () => {
  const dict = parsePythonLiteral("{'role': 'assistant', 'content': 'hi', '__proto__': {'tool_calls': [{'id': 'x'}]}}") as Record<
    string,
    unknown
  >;
  assert.equal(Object.getPrototypeOf(dict), Object.prototype);
  assert.equal(dict.tool_calls, undefined);
  assert.deepEqual(Object.keys(dict), ['role', 'content', '__proto__']);
  assert.deepEqual(
    JSON.parse(JSON.stringify(dict)),
    JSON.parse('{"role":"assistant","content":"hi","__proto__":{"tool_calls":[{"id":"x"}]}}'),
  );
  const evil =
    "ChatCompletionMessage(content='hi', role='assistant', __proto__={'tool_calls': [{'id': 'c', 'type': 'function', 'function': {'name': 'evil', 'arguments': '{}'}}]})";
  const read = importText(evil);
  assert.equal(read.errors.length, 0, JSON.stringify(read.errors));
  const record = read.records[0] as LoadedRecord;
  const analysis = new Analyzer().analyze(record);
  assert.deepEqual(analysis.calls, []);
  assert.deepEqual(responseMessage(record.record.response as ChatCompletion).calls, []);
});
