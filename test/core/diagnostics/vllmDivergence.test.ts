/**
 * The analysis with a vLLM-behaviour profile: `vllm` holds what the generation would have streamed for the raw
 * completion (deltas from its tokens, grouped as asked), and every difference from the reference parse is a
 * vllm-divergence finding with a detail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VLLM_DIVERGENCE_DETAILS } from '../../../src/core/diagnostics/checks/vllmDivergence.ts';
import type { RecordedToken } from '../../../src/core/trace/record.ts';
import { A, analyze, B, C, call, E, ofKind, record, S, section } from './analyze.helpers.ts';

const clean = `Let me check. ${section(call('functions.get_weather:0', '{"city": "Paris"}'))}`;

function divergences(text: string, options: Parameters<typeof analyze>[1], extra: Parameters<typeof record>[0] = {}) {
  const a = analyze(record({ completion: { text }, ...extra }), options);
  return { a, found: ofKind(a, 'vllm-divergence') };
}

test('without --vllm-profile: no vllm block and no vllm-divergence', () => {
  const a = analyze(record({ completion: { text: clean } }));
  assert.equal('vllm' in a, false);
  assert.deepEqual(ofKind(a, 'vllm-divergence'), []);
});

test('a clean completion: every generation sends what the reference parse says, one delta per token', () => {
  for (const gen of ['A', 'B', 'C'] as const) {
    const { a, found } = divergences(clean, { vllmProfile: gen });
    assert.deepEqual(found, [], gen);
    const v = a.vllm;
    assert.ok(v, gen);
    assert.equal(v.profile, gen);
    assert.deepEqual(v.grouping, { kind: 'tokens', perDelta: 1 });
    assert.equal(v.content, 'Let me check. ');
    assert.deepEqual(v.calls, [{ id: 'functions.get_weather:0', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    const tokens = a.completion?.tokens.length ?? 0;
    assert.equal(v.spans.length, tokens, `${gen}: one delta per token`);
    // C's end-of-stream flush is the last entry, as in the recorded outputs.
    assert.equal(v.deltas.length, tokens + (gen === 'C' ? 1 : 0));
    if (gen === 'C') assert.ok(v.deltas.at(-1) && '__finish__' in (v.deltas.at(-1) as object));
    // A returns content "" for the section begin (recorded behaviour); null where it sends nothing.
    if (gen === 'A') assert.ok(v.deltas.some((d) => d !== null && 'content' in d && d.content === ''));
    assert.ok(v.deltas.includes(null));
  }
});

test('records without a raw Kimi completion get vllm: null', () => {
  const a = analyze(record({ response: { choices: [{ message: { role: 'assistant', content: 'hi' } }] } }), { vllmProfile: 'B' });
  assert.equal(a.vllm, null);
});

test('arguments with a newline: generation A truncates them (arguments-truncated, error, on the call tokens)', () => {
  const text = `Q ${section(call('functions.search:0', '{"query": "a\nb", "top_k": 2}'))}`;
  const { a, found } = divergences(text, { vllmProfile: 'A' });
  assert.equal(found.length, 1);
  const d = found[0];
  assert.ok(d);
  assert.equal(d.code, 'TS026');
  assert.equal(d.detail, 'arguments-truncated');
  assert.equal(d.severity, 'error');
  assert.equal(d.where, 'response');
  assert.equal(d.callIndex, 0);
  assert.match(d.message, /stopped after 12 of 28 characters: "\{\\"query\\": \\"a"/);
  const call0 = a.parse?.calls[0];
  assert.ok(call0 && d.tokenStart !== null && d.tokenEnd !== null);
  const tokens = a.completion?.tokens ?? [];
  assert.ok((tokens[d.tokenStart]?.charStart ?? -1) <= (call0.argumentsSpan?.start ?? 0));
  assert.ok((tokens[d.tokenEnd - 1]?.charEnd ?? -1) >= (call0.argumentsSpan?.end ?? 0));
  for (const gen of ['B', 'C'] as const) assert.deepEqual(divergences(text, { vllmProfile: gen }).found, [], gen);
});

test('a dotted tool name: A and B keep its last segment (name-changed), C keeps it whole', () => {
  const text = `Q ${section(call('functions.web.search:0', '{"query": "x"}'))}`;
  for (const gen of ['A', 'B'] as const) {
    const { found } = divergences(text, { vllmProfile: gen });
    assert.deepEqual(
      found.map((d) => [d.detail, d.severity]),
      [['name-changed', 'warning']],
      gen,
    );
    assert.match(found[0]?.message ?? '', /named "search" instead of "web.search"/);
  }
  assert.deepEqual(divergences(text, { vllmProfile: 'C' }).found, []);
});

test('a two-digit index split across recorded tokens: A sends the id early (id-changed)', () => {
  const texts = ['Q ', S, B, 'functions.f:1', '0', A, '{"a": 1}', C, E];
  const tokens: RecordedToken[] = texts.map((text, i) => ({ text, id: text.startsWith('<|') ? undefined : 2000 + i }));
  for (const t of tokens) if (t.id === undefined) delete t.id;
  const { found } = divergences(texts.join(''), { vllmProfile: 'A' }, { completion: { text: texts.join(''), tokens } });
  assert.deepEqual(
    found.map((d) => d.detail),
    ['id-changed'],
  );
  assert.match(found[0]?.message ?? '', /"functions\.f:10" would have arrived with the id "functions\.f:1"/);
});

test('text after the section: B and C drop it (content-dropped), A streams it like the reference', () => {
  const text = `Q ${section(call('functions.f:0', '{"a": 1}'))} and after`;
  for (const gen of ['B', 'C'] as const) {
    const { found } = divergences(text, { vllmProfile: gen });
    assert.deepEqual(
      found.map((d) => [d.detail, d.severity]),
      [['content-dropped', 'warning']],
      gen,
    );
    assert.match(found[0]?.message ?? '', /" and after"/);
    assert.ok(found[0]?.tokenStart !== null, 'anchored to the dropped text');
  }
  assert.deepEqual(divergences(text, { vllmProfile: 'A' }).found, []);
});

test('--delta-tokens N: a whole completion in one delta is lost by A (content and call), kept by C', () => {
  const { a, found } = divergences(clean, { vllmProfile: 'A', deltaTokens: 1000 });
  assert.equal(a.vllm?.spans.length, 1);
  assert.deepEqual(a.vllm?.deltas, [null]);
  assert.deepEqual(
    found.map((d) => [d.detail, d.severity]),
    [
      ['content-dropped', 'warning'],
      ['call-dropped', 'error'],
    ],
  );
  assert.match(found[0]?.message ?? '', /streamed 1000 tokens per delta/);
  assert.deepEqual(divergences(clean, { vllmProfile: 'C', deltaTokens: 1000 }).found, []);
});

test('--delta-tokens recorded: the chunks of a completions-mode replay stream, else 1 token per delta with a note', () => {
  const chunks = ['Let me check. ', `${S}${B}functions.get_weather:0${A}{"city": "Paris"}${C}`, E];
  const rawStream = [...chunks.map((text) => JSON.stringify({ object: 'text_completion', choices: [{ index: 0, text }] })), '[DONE]'];
  const { a, found } = divergences(clean, { vllmProfile: 'A', deltaTokens: 'recorded' }, { meta: { rawStream } });
  assert.deepEqual(a.vllm?.grouping, { kind: 'recorded', source: 'the chunks of the recorded /v1/completions stream, 3 chunks' });
  assert.equal(a.vllm?.groupingNote, null);
  assert.deepEqual(
    a.vllm?.spans.map((s) => clean.slice(s.start, s.end)),
    chunks,
  );
  // The call began and ended in one delta: generation A never streams it.
  assert.deepEqual(
    found.map((d) => d.detail),
    ['call-dropped'],
  );
  const none = divergences(clean, { vllmProfile: 'A', deltaTokens: 'recorded' });
  assert.deepEqual(none.a.vllm?.grouping, { kind: 'tokens', perDelta: 1 });
  assert.match(none.a.vllm?.groupingNote ?? '', /no delta grouping/);
  assert.equal(none.a.vllm?.recordedSource, null);
});

test('recorded grouping from a chat stream with per-chunk logprobs', () => {
  const pieces = [
    ['Let', ' me'],
    [' check', '. '],
    [S, B],
    ['functions.get_weather:0', A, '{"city": "Paris"}', C, E],
  ];
  const response = pieces.map((tokens) => ({
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, logprobs: { content: tokens.map((token) => ({ token, logprob: 0 })) } }],
  }));
  const a = analyze(record({ completion: { text: clean }, response }), { vllmProfile: 'C', deltaTokens: 'recorded' });
  assert.equal(a.vllm?.grouping.kind, 'recorded');
  assert.equal(a.vllm?.spans.length, 4);
});

test('a leading think block goes to the reasoning parser: no divergence for the reasoning', () => {
  const text = `<think>Paris, so weather.</think>${clean}`;
  for (const gen of ['A', 'B', 'C'] as const) {
    const { a, found } = divergences(text, { vllmProfile: gen });
    assert.deepEqual(found, [], gen);
    assert.equal(a.vllm?.reasoningEnd, text.indexOf('Let'));
  }
  // The template opened <think>: a bare </think> ends the reasoning.
  const opened = `Paris, so weather.</think>${clean}`;
  assert.deepEqual(divergences(opened, { vllmProfile: 'A', startInReasoning: true }).found, []);
});

test('a section in an unclosed think: A (</think>-only reasoning parser) loses the call, B and C hand over at the section begin', () => {
  const text = `<think>Paris, so weather. ${section(call('functions.get_weather:0', '{"city": "Paris"}'))}`;
  const a = divergences(text, { vllmProfile: 'A' });
  assert.equal(a.a.vllm?.reasoningEnd, text.length);
  assert.deepEqual(a.a.vllm?.calls, []);
  assert.deepEqual(
    a.found.map((d) => [d.detail, d.severity]),
    [['call-dropped', 'error']],
  );
  for (const gen of ['B', 'C'] as const) {
    const { a: run, found } = divergences(text, { vllmProfile: gen });
    assert.equal(run.vllm?.reasoningEnd, text.indexOf(S), gen);
    assert.deepEqual(
      run.vllm?.calls.map((c) => c.name),
      ['get_weather'],
      gen,
    );
    assert.deepEqual(found, [], gen);
  }
});

test('--vllm-reasoning-parser off: the tool parser sees the think block, its text reaches content', () => {
  const text = `<think>Paris, so weather.</think>${clean}`;
  for (const gen of ['A', 'B', 'C'] as const) {
    const { a, found } = divergences(text, { vllmProfile: gen, vllmReasoningParser: false });
    assert.equal(a.vllm?.reasoningEnd, 0, gen);
    assert.match(a.vllm?.content ?? '', /Paris, so weather\./u, gen);
    assert.ok(
      found.some((d) => d.detail === 'content-leaked'),
      `${gen}: ${found.map((d) => d.detail).join(', ')}`,
    );
  }
});

test('a section begin spelled as text: C streams everything after it as content (content-leaked, error) and drops the call', () => {
  const text = `Q <|tool_calls_sec${'tion_begin|>'}${B}functions.f:0${A}{"a": 1}${C}${E}`;
  const tokens: RecordedToken[] = [
    { text: 'Q ', id: 3001 },
    { text: '<|tool_calls_sec', id: 3002 },
    { text: 'tion_begin|>', id: 3003 },
    { text: B, id: 163597 },
    { text: 'functions.f:0', id: 3004 },
    { text: A, id: 163598 },
    { text: '{"a": 1}', id: 3005 },
    { text: C, id: 163599 },
    { text: E, id: 163596 },
  ];
  const { found } = divergences(text, { vllmProfile: 'C' }, { completion: { text, tokens } });
  const details = found.map((d) => [d.detail, d.severity]);
  assert.deepEqual(details, [
    ['content-leaked', 'error'],
    ['call-dropped', 'error'],
  ]);
  assert.equal(found[0]?.charStart, 2, 'offsets index the profile content');
});

test('every detail is one of the documented names', () => {
  const texts = [
    clean,
    `Q ${section(call('functions.web.search:0', '{"q": "a\nb"}'))} after`,
    `${S}${B}functions.bad.0${A}{}${C}${B}functions.f:1${A}{"b": 2}${C}${E}`,
  ];
  for (const text of texts) {
    for (const gen of ['A', 'B', 'C'] as const) {
      for (const deltaTokens of [1, 3, 50]) {
        for (const d of divergences(text, { vllmProfile: gen, deltaTokens }).found) {
          assert.ok((VLLM_DIVERGENCE_DETAILS as readonly string[]).includes(d.detail ?? ''), d.detail);
          assert.equal(d.where, 'response');
        }
      }
    }
  }
});
