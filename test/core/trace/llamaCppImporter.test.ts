import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import type { LoadedRecord } from '../../../src/core/trace/record.ts';
import { mulberry32, randomCuts } from '../../fixtures/randomCuts.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/llama-cpp/', import.meta.url));
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

function only(text: string): LoadedRecord {
  const got = importText(text);
  assert.deepEqual(got.errors, []);
  assert.equal(got.records.length, 1);
  return got.records[0] as LoadedRecord;
}

test('/completion with completion_probabilities: the raw completion with recorded tokens, logprobs and alternatives; stop_type limit → length', async () => {
  const loaded = only(await fixture('completion-probabilities.json'));
  assert.equal(loaded.source, 'llama.cpp');
  const completion = loaded.record.completion;
  assert.equal(completion?.text, '<tool_call>');
  assert.equal(completion?.finish_reason, 'length');
  assert.deepEqual(completion?.tokens?.[0], {
    text: '<tool_call>',
    id: 151657,
    logprob: -0.0021,
    top: [
      { text: '<tool_call>', logprob: -0.0021, id: 151657 },
      { text: 'I', logprob: -6.31, id: 40 },
    ],
  });
  assert.deepEqual(
    completion?.tokens?.map((t) => t.text),
    ['<tool_call>', '\n', '{"'],
  );
  assert.equal(loaded.record.prompt, '<|im_start|>user\nWeather in Oslo?<|im_end|>\n<|im_start|>assistant\n');
  assert.equal(loaded.record.meta?.stop_type, 'limit');
  assert.deepEqual(Object.keys(loaded.record.meta?.timings as object), [
    'prompt_n',
    'prompt_ms',
    'prompt_per_token_ms',
    'prompt_per_second',
    'predicted_n',
    'predicted_ms',
    'predicted_per_token_ms',
    'predicted_per_second',
  ]);
  // Recorded tokens anchor the analysis: the marker is one recorded token.
  const analysed = new Analyzer().analyze(loaded);
  assert.equal(analysed.completion?.origin, 'recorded');
  assert.ok(
    analysed.diagnostics.some((d) => d.kind === 'unterminated-call'),
    'cut by n_predict inside the call',
  );
});

test('post_sampling_probs: prob values become ln(prob) logprobs', () => {
  const loaded = only(
    JSON.stringify({
      content: 'Hi',
      stop_type: 'eos',
      completion_probabilities: [
        {
          id: 9,
          token: 'Hi',
          prob: 0.5,
          top_probs: [
            { id: 9, token: 'Hi', prob: 0.5 },
            { id: 7, token: 'Yo', prob: 0.25 },
          ],
        },
      ],
    }),
  );
  assert.deepEqual(loaded.record.completion, {
    text: 'Hi',
    finish_reason: 'stop',
    tokens: [
      {
        text: 'Hi',
        id: 9,
        logprob: Math.log(0.5),
        top: [
          { text: 'Hi', logprob: Math.log(0.5), id: 9 },
          { text: 'Yo', logprob: Math.log(0.25), id: 7 },
        ],
      },
    ],
  });
  const bad = importText(JSON.stringify({ content: 'x', stop_type: 'eos', completion_probabilities: [{ id: 1 }] }));
  assert.match(
    bad.errors[0]?.message ?? '',
    /^line 1: llama.cpp \/completion response: completion_probabilities\[0\]\.token must be a string/,
  );
  const chunk = importText(JSON.stringify({ content: 'x', stop: false }));
  assert.match(chunk.errors[0]?.message ?? '', /outside an SSE dump/);
});

test('a streamed /completion: one record, the chunks joined, the token ids kept, stop_type eos → stop; split anywhere, the same', async () => {
  const text = await fixture('completion-stream.sse');
  const loaded = only(text);
  assert.equal(loaded.source, 'llama.cpp-stream');
  assert.equal(loaded.record.completion?.text, '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>');
  assert.equal(loaded.record.completion?.finish_reason, 'stop');
  assert.equal(loaded.record.completion?.tokens?.length, 19);
  assert.equal(loaded.record.completion?.tokens?.[0]?.id, 151657);
  assert.equal((loaded.record.meta?.timings as { predicted_n: number }).predicted_n, 20);
  const analysed = new Analyzer().analyze(loaded);
  assert.deepEqual(
    analysed.calls.map((c) => [c.name, c.arguments]),
    [['get_weather', '{"city": "Oslo"}']],
  );
  // Cut into arbitrary pieces (as a log written while streaming), each complete prefix parses, the whole is equal.
  const rnd = mulberry32(3);
  let prefix = '';
  for (const piece of randomCuts(text, rnd, 200)) {
    prefix += piece;
    importText(prefix);
  }
  assert.deepEqual(importText(prefix).records, [loaded]);
});

test('__verbose on a chat response: the raw completion beside the parsed message, the lost call a dropped-call', async () => {
  const loaded = only(await fixture('verbose-chat.json'));
  assert.equal(loaded.source, 'chat-completion');
  assert.match(loaded.record.completion?.text ?? '', /"Bergen"/);
  assert.equal(loaded.record.meta?.source, 'llama.cpp');
  assert.equal((loaded.record.meta?.timings as { predicted_n: number }).predicted_n, 44);
  const analysed = new Analyzer().analyze(loaded);
  const dropped = analysed.diagnostics.filter((d) => d.kind === 'dropped-call');
  assert.equal(dropped.length, 1);
  assert.match(dropped[0]?.message ?? '', /get_weather/);
});

test('a stream that is only a parser error quoting Qwen3-Coder markup (issue 24644): stream-error, and the quoted call a dropped-call', async () => {
  const loaded = only(await fixture('parse-error.sse'));
  assert.match(loaded.record.error ?? '', /^Failed to parse input at pos 1360: <tool_call>/);
  const analysed = new Analyzer().analyze(loaded);
  assert.equal(analysed.format, 'qwen3_coder');
  assert.deepEqual(analysed.diagnostics.map((d) => d.kind).sort(), ['dropped-call', 'stream-error']);
  assert.deepEqual(
    analysed.calls.map((c) => c.name),
    ['write'],
  );
  // Only a closing tag quoted (issue 20761): still a stream-error; no call is invented.
  const closeTag = new Analyzer().analyze(only(await fixture('parse-error-close-tag.sse')));
  assert.ok(closeTag.diagnostics.some((d) => d.kind === 'stream-error'));
  assert.deepEqual(closeTag.calls, []);
});
