/**
 * Records that are too large, tokens that cannot be trusted, and type-confused records: each a finding or an error
 * naming its line, and the rest of the record (and of the file) still analysed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../../../src/core/analysis.ts';
import { coarseSplit } from '../../../src/core/tokens/coarseSplitter.ts';
import { KIMI_MARKERS } from '../../../src/core/formats/kimiK2/kimiK2Markers.ts';
import { importLine } from '../../../src/core/trace/importers/importLine.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { recordJson } from '../../../src/cli/analyzeJson.ts';
import { recordView } from '../../../src/host/view/recordView.ts';
import type { LoadedRecord, TraceRecord } from '../../../src/core/trace/record.ts';
import { call, ofKind, record, section } from './analyze.helpers.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';

const loaded = (r: TraceRecord): LoadedRecord => ({ record: r, line: 1, lastLine: 1, source: 'native' });

function bigCompletion(chars: number): string {
  const prose = 'The quick brown fox jumps over the lazy dog. ';
  const body = prose.repeat(Math.ceil(chars / prose.length));
  return `${body}${section(call('functions.get_weather:0', '{"city": "Paris"}'), call('functions.search:1', '{"query": "x", "top_k": 50}'))}`;
}

test('record-too-large: above the limit the calls and findings stay, the per-token work is skipped and named', async () => {
  const text = bigCompletion(200_000);
  const r = record({ completion: { text, finish_reason: 'tool_calls' } });
  const full = await new Analyzer({ vllmProfile: 'A' }, nodeServices()).analyzeWithGuided(loaded(r));
  const small = await new Analyzer({ vllmProfile: 'A', maxCompletionMB: 0.05 }, nodeServices()).analyzeWithGuided(loaded(r));
  assert.equal(ofKind(full, 'record-too-large').length, 0);
  const [finding] = ofKind(small, 'record-too-large');
  assert.ok(finding);
  assert.equal(finding.code, 'TS028');
  assert.match(
    finding.message,
    /0\.2 MB, above the 0\.1 MB limit: skipped the per-token view, the recorded tokens, the guided-decoding what-if, the vLLM profile/,
  );
  assert.deepEqual(small.calls, full.calls);
  assert.deepEqual(
    ofKind(small, 'schema-violation').map((d) => d.path),
    ofKind(full, 'schema-violation').map((d) => d.path),
  );
  assert.equal(small.content, full.content);
  assert.ok(small.completion && small.completion.tokens.length < 10, `${small.completion?.tokens.length} tokens`);
  assert.ok(full.completion && full.completion.tokens.length > 10_000);
  assert.equal(small.diagnostics.filter((d) => d.kind.startsWith('guided-') || d.kind === 'vllm-divergence').length, 0);
  assert.equal(small.vllm, null);
  assert.equal(ofKind(small, 'marker-split').length, 0);
  const view = recordView('0:0', small, r);
  assert.match(view.tokenWarning ?? '', /size limit/);
});

test('coarse split: pieces tile the text and never cut a marker or a surrogate pair', () => {
  const marker = KIMI_MARKERS.map((m) => m.text);
  const text = `${'a'.repeat(7)}${marker[0]}${'😀'.repeat(9)}${marker[1]}b`;
  for (let piece = 1; piece < 40; piece++) {
    const tokens = coarseSplit(text, marker, piece);
    assert.equal(tokens.map((t) => t.text).join(''), text);
    for (const t of tokens) {
      assert.equal(text.slice(t.charStart, t.charEnd), t.text);
      const code = text.charCodeAt(t.charEnd - 1);
      assert.ok(!(code >= 0xd800 && code <= 0xdbff) || t.charEnd === text.length, `piece ${piece} cuts a surrogate pair`);
      for (const m of marker) {
        const at = text.indexOf(m);
        if (at >= 0) assert.ok(t.charEnd <= at || t.charEnd >= at + m.length, `piece ${piece} cuts ${m}`);
      }
    }
  }
});

const BAD_IDS: unknown[] = [-1, 1.5, 'x', null];

test('recorded-tokens-invalid: ids of -1, 1.5, "x" and null are left out, the tokens still used', () => {
  const text = section(call('functions.get_weather:0', '{"city": "Oslo"}'));
  const base = new Analyzer().analyze(loaded(record({ completion: { text } })));
  const tokens = (base.completion?.tokens ?? []).map((t, i) => ({ text: t.text, id: i < BAD_IDS.length ? BAD_IDS[i] : 1000 + i }));
  const a = new Analyzer().analyze(loaded(record({ completion: { text, tokens: tokens as never } })));
  const [d] = ofKind(a, 'recorded-tokens-invalid');
  assert.equal(d?.code, 'TS029');
  assert.match(d?.message ?? '', /^4 recorded token fields are invalid and left out \(first: completion\.tokens\[0\] has id -1/);
  assert.equal(a.completion?.origin, 'recorded');
  // Special tokens get their real ids back from the vocabulary; text tokens stay without one.
  assert.deepEqual(
    a.completion?.tokens.slice(2, 5).map((t) => t.id),
    [undefined, undefined, 1004],
  );
  assert.deepEqual(a.calls, base.calls);
});

test('recorded-tokens-invalid: [null], [5], [{"text": null}] make the list unusable: split approximately, calls kept', () => {
  const text = section(call('functions.get_weather:0', '{"city": "Oslo"}'));
  for (const tokens of [[null], [5], [{ text: null }], [{ text: 5, id: 1 }], [[1]]]) {
    const a = new Analyzer().analyze(loaded(record({ completion: { text, tokens: tokens as never } })));
    assert.match(
      ofKind(a, 'recorded-tokens-invalid')[0]?.message ?? '',
      /completion\.tokens\[0\] (is|has text) .*not used/,
      JSON.stringify(tokens),
    );
    assert.equal(a.completion?.origin, 'splitter');
    assert.equal(a.calls.length, 1);
  }
});

test('tokens-text-mismatch: token texts that do not join to the text are a finding, in --json too', () => {
  const text = section(call('functions.get_weather:0', '{"city": "Oslo"}'));
  const other = section(call('functions.get_weather:0', '{"city": "Bergen"}'));
  const tokens = (new Analyzer().analyze(loaded(record({ completion: { text: other } }))).completion?.tokens ?? []).map((t) => ({
    text: t.text,
  }));
  const a = new Analyzer().analyze(loaded(record({ completion: { text, tokens } })));
  const [d] = ofKind(a, 'tokens-text-mismatch');
  assert.equal(d?.code, 'TS030');
  assert.match(d?.message ?? '', /not match the completion text|covered by no recorded token/);
  assert.ok(recordJson('f.jsonl', a).diagnostics.some((x) => x.kind === 'tokens-text-mismatch'));
  assert.equal(a.calls[0]?.arguments, '{"city": "Oslo"}');
});

test('type-confused containers are errors naming the line, in every importer', () => {
  const tools = record({}).request?.tools;
  const native = (fields: Record<string, unknown>) => ({ toolscope: 1, id: 'x', ...fields });
  const msg = (m: string) => ({ role: 'assistant', content: null, ...JSON.parse(m) });
  const cases: Array<[unknown, RegExp]> = [
    [native({ request: { messages: [], tools: 'x' } }), /"request\.tools" must be an array, got a string/],
    [native({ request: { messages: [], tools: [null] } }), /request\.tools\[0\] must be an object, got null/],
    [
      native({ request: { messages: [], tools: [{ type: 'function', function: 'f' }] } }),
      /request\.tools\[0\]\.function must be an object, got a string/,
    ],
    [native({ request: { messages: [msg('{"tool_calls": "x"}')] } }), /request\.messages\[0\]\.tool_calls" must be an array/],
    [native({ response: [null] }), /response\[0\] must be a chunk object, got null/],
    [native({ response: { choices: 'x' } }), /"response\.choices" must be an array, got a string/],
    [native({ response: { choices: [null] } }), /response\.choices\[0\] must be an object, got null/],
    [
      native({ response: { choices: [{ message: msg('{"tool_calls": "x"}') }] } }),
      /response\.choices\[0\]\.message\.tool_calls" must be an array/,
    ],
    [
      native({ response: { choices: [{ message: msg('{"tool_calls": [null]}') }] } }),
      /response\.choices\[0\]\.message\.tool_calls\[0\] must be an object, got null/,
    ],
    [
      native({ response: [{ choices: [{ delta: { tool_calls: [null] } }] }] }),
      /response\[0\]\.choices\[0\]\.delta\.tool_calls\[0\] must be an object/,
    ],
    [
      { object: 'chat.completion', choices: [{ message: msg('{"tool_calls": "x"}') }] },
      /chat\.completion: "choices\[0\]\.message\.tool_calls" must be an array/,
    ],
    [
      { object: 'chat.completion', choices: [{ message: msg('{"tool_calls": [5]}') }] },
      /choices\[0\]\.message\.tool_calls\[0\] must be an object, got a number/,
    ],
    [{ messages: [{ role: 'user', content: 'hi' }], tools: [null] }, /chat request: tools\[0\] must be an object/],
    [{ data_index: 1, request: { messages: [], tools: 'x' }, response: null }, /K2VV result: "request\.tools" must be an array/],
  ];
  for (const [value, expected] of cases) {
    const result = importLine(value, 7);
    assert.equal(result.kind, 'error', JSON.stringify(value));
    if (result.kind === 'error') {
      assert.match(result.error.message, /^line 7: /);
      assert.match(result.error.message, expected);
    }
  }
  // In an SSE block only the bad chunk's line is lost.
  const sse = importText(
    [
      'data: {"id":"s","choices":[{"delta":{"content":"a"}}]}',
      'data: {"id":"s","choices":[{"delta":{"tool_calls":"x"}}]}',
      'data: {"id":"s","choices":[{"delta":{"content":"b"}}]}',
    ].join('\n'),
  );
  assert.deepEqual(
    sse.errors.map((e) => e.line),
    [2],
  );
  assert.equal(sse.records.length, 1);
  assert.ok(tools);
});

test('records built in memory with wrong types (replay, eval) are read as absent, never thrown on', () => {
  const r = record({
    response: [null, { choices: 'x' }, { choices: [null, { delta: { tool_calls: [null, 'x', { index: 'a', function: 5 }] } }] }] as never,
  });
  const a = new Analyzer().analyze(loaded(r));
  assert.equal(a.response?.streamed, true);
  const b = new Analyzer().analyze(
    loaded(record({ response: { choices: [{ message: { role: 'assistant', tool_calls: 'x' } }] } as never })),
  );
  assert.deepEqual(b.response?.calls, []);
});

test('a record holding a 3,000-deep tool schema is analysed and its view serialises (cut, with a note)', () => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 3000; i++) schema = { type: 'object', properties: { a: schema } };
  const text = section(call('functions.deep:0', '{"a": {"a": 1}}'));
  const r = record({
    completion: { text },
    request: {
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'deep', parameters: schema as never } }],
    },
  });
  // Without the what-if: xgrammar and deep schemas are the guided tests' (test/core/guided).
  const a = new Analyzer().analyze(loaded(r));
  assert.equal(a.calls.length, 1);
  assert.ok(ofKind(a, 'schema-violation').length > 0);
  const view = recordView('0:0', a, r);
  const json = JSON.stringify(view);
  assert.match(json, /nested too deep to show/);
  assert.match(view.rawJson, /nested too deep to show/);
});
