import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientView, planTokenCapture, upstreamBody } from '../../../src/net/capture/tokenCapturePlan.ts';
import { CompletionCollector } from '../../../src/net/capture/completionCollector.ts';

test('the plan: what is asked for per route and engine, and nothing when the client asked itself', () => {
  const chatStream = planTokenCapture('chat', { stream: true, messages: [] }, 'vllm');
  assert.deepEqual(chatStream?.added, { logprobs: true, stream_options: { include_usage: true } });
  assert.equal(chatStream?.dropUsageChunk, true);
  // The client's own stream options are kept.
  assert.deepEqual(
    planTokenCapture('chat', { stream: true, stream_options: { continuous_usage_stats: false } }, 'vllm')?.added.stream_options,
    { continuous_usage_stats: false, include_usage: true },
  );
  // OpenAI adds "usage": null to every chunk once asked for usage: never ask there.
  assert.deepEqual(planTokenCapture('chat', { stream: true }, 'openai')?.added, { logprobs: true });
  assert.deepEqual(planTokenCapture('chat', { stream: false }, 'vllm')?.added, { logprobs: true });
  const own = planTokenCapture('chat', { stream: true, logprobs: true, stream_options: { include_usage: true } }, 'vllm');
  assert.deepEqual(own, { route: 'chat', added: {}, nullFields: [], dropUsageChunk: false });
  // The client's own logprobs stay; the usage count that proves them complete is still asked for on vLLM.
  assert.deepEqual(planTokenCapture('chat', { stream: true, logprobs: true }, 'vllm'), {
    route: 'chat',
    added: { stream_options: { include_usage: true } },
    nullFields: [],
    dropUsageChunk: true,
  });

  assert.deepEqual(planTokenCapture('completions', { prompt: 'x' }, 'vllm')?.added, { logprobs: 1, return_tokens_as_token_ids: true });
  assert.deepEqual(planTokenCapture('completions', { prompt: 'x' }, 'sglang')?.added, { logprobs: 1 });
  // logprobs: 0 is the client's own request too.
  assert.deepEqual(planTokenCapture('completions', { prompt: 'x', logprobs: 0 }, 'vllm')?.added, {});
  assert.equal(planTokenCapture('completions', { prompt: 'x', echo: true }, 'vllm'), null);
  const body = { model: 'm', prompt: 'x' };
  assert.deepEqual(upstreamBody(body, planTokenCapture('completions', body, 'vllm')!), {
    model: 'm',
    prompt: 'x',
    logprobs: 1,
    return_tokens_as_token_ids: true,
  });
});

test('the client view: logprobs back to null byte for byte, logprob-only and usage chunks dropped', () => {
  const plan = planTokenCapture('chat', { stream: true }, 'vllm')!;
  const withContent =
    '{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":{"content":[{"token":"Hi","logprob":-0.5,"bytes":[72,105],"top_logprobs":[]}]},"finish_reason":null}]}';
  const v = clientView(withContent, JSON.parse(withContent), plan, true);
  assert.equal(v.text, '{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}');
  assert.deepEqual(v.value, JSON.parse(v.text as string));
  const onlyLogprob =
    '{"id":"c","choices":[{"index":0,"delta":{},"logprobs":{"content":[{"token":"<|tool_call_begin|>","logprob":0}]},"finish_reason":null}]}';
  assert.equal(clientView(onlyLogprob, JSON.parse(onlyLogprob), plan, true).text, null);
  // The finish chunk stays even with an empty delta.
  const finish = '{"id":"c","choices":[{"index":0,"delta":{},"logprobs":{"content":[]},"finish_reason":"tool_calls"}]}';
  assert.equal(
    clientView(finish, JSON.parse(finish), plan, true).text,
    '{"id":"c","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}',
  );
  const usage = '{"id":"c","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":9,"total_tokens":12}}';
  assert.equal(clientView(usage, JSON.parse(usage), plan, true).text, null);
  // An empty-delta chunk the engine sends without logprobs is not the proxy's doing: it stays.
  const plain = '{"id":"c","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":null}]}';
  assert.equal(clientView(plain, JSON.parse(plain), plan, true).text, plain);
  // Without a plan, or when the client asked itself, nothing changes.
  assert.equal(clientView(withContent, JSON.parse(withContent), null, true).text, withContent);
  const own = planTokenCapture('chat', { stream: true, logprobs: true }, 'vllm');
  assert.equal(clientView(withContent, JSON.parse(withContent), own, true).text, withContent);
  // Not JSON the scanner can read: forwarded as is.
  assert.equal(clientView('{"choices": [', null, plan, true).text, '{"choices": [');
});

test('chat tokens: text rebuilt from bytes (a character split across tokens comes out whole), complete by the usage count', () => {
  const c = new CompletionCollector('chat', true);
  const chunk = (content: Array<{ token: string; bytes: number[] }>, extra: Record<string, unknown> = {}) => ({
    choices: [
      {
        index: 0,
        delta: { content: 'x' },
        logprobs: {
          content: content.map((t) => ({ ...t, logprob: -0.25, top_logprobs: [{ token: t.token, logprob: -0.25, bytes: t.bytes }] })),
        },
        finish_reason: null,
        ...extra,
      },
    ],
  });
  const e = [...Buffer.from('é')];
  c.add(
    chunk([
      { token: 'Caf', bytes: [...Buffer.from('Caf')] },
      { token: 'bytes:\\xc3', bytes: [e[0] as number] },
    ]),
  );
  c.add(
    chunk(
      [
        { token: 'bytes:\\xa9', bytes: [e[1] as number] },
        { token: '<|tool_calls_section_begin|>', bytes: [...Buffer.from('<|tool_calls_section_begin|>')] },
      ],
      { finish_reason: 'tool_calls' },
    ),
  );
  c.add({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 } });
  const r = c.result();
  assert.equal(r.complete, true);
  assert.equal(r.completion?.text, 'Café<|tool_calls_section_begin|>');
  assert.equal(r.completion?.finish_reason, 'tool_calls');
  assert.deepEqual(r.completion?.tokens?.[0], { text: 'Caf', logprob: -0.25, top: [{ text: 'Caf', logprob: -0.25 }] });
  assert.equal(r.completion?.tokens?.length, 4);
});

test('chat tokens that do not add up to the usage count are not the completion; without a count a stream is unproven', () => {
  const missing = new CompletionCollector('chat', true);
  missing.add({ choices: [{ index: 0, delta: { content: 'Hi' }, logprobs: { content: [{ token: 'Hi', logprob: 0 }] } }] });
  missing.add({ choices: [], usage: { completion_tokens: 9 } });
  const r = missing.result();
  assert.equal(r.complete, false);
  assert.equal(r.completion, null);
  assert.match(r.reason ?? '', /generated 9 tokens but sent logprobs for 1/);
  assert.equal(missing.partialText(), 'Hi');

  const unproven = new CompletionCollector('chat', true);
  unproven.add({ choices: [{ index: 0, delta: { content: 'Hi' }, logprobs: { content: [{ token: 'Hi', logprob: 0 }] } }] });
  assert.equal(unproven.result().complete, null);
  assert.equal(unproven.result().completion, null);

  // A whole (non-streamed) answer's logprobs are all of its tokens; ids in vLLM's token_id:N form become ids.
  const whole = new CompletionCollector('chat', false);
  whole.add({
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hi' },
        logprobs: {
          content: [
            { token: 'token_id:163595', logprob: 0, bytes: [] },
            { token: 'Hi', logprob: -1 },
          ],
        },
        finish_reason: 'stop',
      },
    ],
  });
  const w = whole.result();
  assert.equal(w.complete, true);
  assert.deepEqual(w.completion?.tokens, [
    { id: 163595, text: '', logprob: 0 },
    { text: 'Hi', logprob: -1 },
  ]);
});

test('completions: text and token ids joined across chunks; a chunk without logprobs makes the tokens incomplete', () => {
  const c = new CompletionCollector('completions', true);
  c.add({
    object: 'text_completion',
    choices: [
      { index: 0, text: 'Let', logprobs: { tokens: ['Let'], token_logprobs: [-0.1], top_logprobs: [{ Let: -0.1 }] }, finish_reason: null },
    ],
  });
  c.add({
    object: 'text_completion',
    choices: [
      {
        index: 0,
        text: '',
        logprobs: { tokens: ['token_id:163595'], token_logprobs: [0], top_logprobs: [{ 'token_id:163595': 0 }] },
        finish_reason: 'stop',
      },
    ],
  });
  const r = c.result();
  assert.equal(r.complete, true);
  assert.deepEqual(r.completion, {
    text: 'Let',
    tokens: [
      { text: 'Let', logprob: -0.1, top: [{ text: 'Let', logprob: -0.1 }] },
      { id: 163595, text: '', logprob: 0, top: [{ id: 163595, text: '', logprob: 0 }] },
    ],
    finish_reason: 'stop',
  });
  const gap = new CompletionCollector('completions', true);
  gap.add({ choices: [{ index: 0, text: 'a', logprobs: { tokens: ['a'], token_logprobs: [0] } }] });
  gap.add({ choices: [{ index: 0, text: 'b', logprobs: null }] });
  const g = gap.result();
  assert.equal(g.complete, false);
  // The text is still the raw completion; only the tokens are left out.
  assert.deepEqual(g.completion, { text: 'ab', finish_reason: null });
});
