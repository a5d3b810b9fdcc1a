/** The bundled samples: current with their generator, covering every finding, and loading as documented. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CLEAN_RECORD_IDS, MALFORMED_LINES, generateSamples } from '../scripts/generate-samples.ts';
import { Analyzer, type AnalyzedRecord } from '../src/core/analysis.ts';
import { DIAGNOSTIC_KINDS } from '../src/core/diagnostics/registry.ts';
import { readTraceItems } from '../src/io/trace/traceIndex.ts';
import { isTraceFileName } from '../src/core/trace/traceFileNames.ts';
import { analyzeCommand } from '../src/cli/analyzeCommand.ts';
import { nodeServices } from '../src/io/nodeServices.ts';

const dir = fileURLToPath(new URL('../samples/', import.meta.url));

async function analyseSamples(): Promise<{ records: Map<string, AnalyzedRecord[]>; errors: Map<string, number[]> }> {
  const analyzer = new Analyzer({}, nodeServices());
  const records = new Map<string, AnalyzedRecord[]>();
  const errors = new Map<string, number[]>();
  for (const name of readdirSync(dir).filter(isTraceFileName).sort()) {
    for await (const item of readTraceItems(join(dir, name))) {
      if (item.kind === 'error') errors.set(name, [...(errors.get(name) ?? []), item.error.line]);
      else records.set(name, [...(records.get(name) ?? []), await analyzer.analyzeWithGuided(item.loaded)]);
    }
  }
  return { records, errors };
}

test('samples/ is what scripts/generate-samples.ts writes (run it after changing the generator)', () => {
  const generated = generateSamples();
  const onDisk = readdirSync(dir).filter(isTraceFileName).sort();
  assert.deepEqual(onDisk, Object.keys(generated).sort());
  for (const [name, content] of Object.entries(generated)) assert.equal(readFileSync(join(dir, name), 'utf8'), content, name);
});

test('samples/README.md has a row for every sample file', () => {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  for (const name of readdirSync(dir).filter(isTraceFileName))
    assert.ok(readme.includes(`| \`${name}\` |`), `samples/README.md does not list ${name}`);
});

test('every diagnostic kind fires on some sample; the clean samples are clean', async () => {
  const { records } = await analyseSamples();
  const all = [...records.values()].flat();
  const seen = new Set(all.flatMap((r) => r.diagnostics.map((d) => d.kind)));
  // vllm-divergence needs --vllm-profile: the next test; record-too-large a completion above the size limit
  // (test/core/diagnostics/recordLimits.test.ts).
  for (const kind of Object.keys(DIAGNOSTIC_KINDS))
    if (kind !== 'vllm-divergence' && kind !== 'record-too-large')
      assert.ok(seen.has(kind as keyof typeof DIAGNOSTIC_KINDS), `no sample triggers ${kind}`);
  assert.deepEqual(CLEAN_RECORD_IDS, ['clean-single-call', 'clean-parallel-calls']);
  for (const id of CLEAN_RECORD_IDS) {
    const r = all.find((x) => x.id === id);
    assert.ok(r, id);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity !== 'info'),
      [],
      id,
    );
  }
  // Each scenario record in the raw-completions file fires the kind its id promises.
  const raw = records.get('kimi-k2-raw-completions.jsonl') ?? [];
  const expect: Record<string, string> = {
    'leak-marker-in-content': 'content-leak',
    'empty-content-deltas': 'empty-content-delta',
    'hallucinated-tool': 'unknown-tool',
    'truncated-json-arguments': 'invalid-arguments-json',
    'schema-violations': 'schema-violation',
    'bad-call-id': 'bad-call-id',
    'duplicate-call-index': 'duplicate-call-index',
    'missing-section-markers': 'missing-section-marker',
    'marker-split-across-tokens': 'marker-split',
    'call-inside-think': 'call-in-think',
    'raw-fallback-call': 'raw-fallback-format',
    'unterminated-call-length': 'unterminated-call',
    'newline-after-call-begin': 'marker-whitespace',
    'dropped-call': 'dropped-call',
    'arguments-cut-at-newline': 'arguments-mismatch',
    'finish-reason-stop-with-calls': 'finish-reason-mismatch',
    'error-event-mid-stream': 'stream-error',
    'tool-call-with-choice-none': 'tool-call-when-none',
    'described-not-called': 'tool-described-not-called',
    'schema-xgrammar-cannot-compile': 'guided-unavailable',
    'required-but-not-called': 'tool-described-not-called',
    'text-inside-section': 'text-in-section',
    'repeated-call-end-marker': 'stray-marker',
    'think-opened-by-template': 'stray-marker',
    'prompt-without-generation-prompt': 'template-generation-prompt-missing',
  };
  for (const [id, kind] of Object.entries(expect)) {
    const r = raw.find((x) => x.id === id);
    assert.ok(r, `sample ${id} missing`);
    assert.ok(
      r.diagnostics.some((d) => d.kind === kind),
      `${id} should fire ${kind}; got ${r.diagnostics.map((d) => d.kind).join(', ')}`,
    );
  }
  const severities = (id: string, kind: string) =>
    raw
      .find((x) => x.id === id)
      ?.diagnostics.filter((d) => d.kind === kind)
      .map((d) => d.severity) ?? [];
  assert.deepEqual(severities('described-not-called', 'tool-described-not-called'), ['warning']);
  assert.deepEqual(severities('required-but-not-called', 'tool-described-not-called'), ['error']);
  // Structural schema errors are errors; a failed `format` is a warning.
  assert.ok(severities('schema-violations', 'schema-violation').includes('error'));
  assert.ok(severities('schema-violations', 'schema-violation').includes('warning'));
  assert.ok(
    raw
      .find((x) => x.id === 'newline-after-call-begin')
      ?.diagnostics.some((d) => d.kind === 'marker-whitespace' && /newline after <\|tool_call_begin\|>/.test(d.message)),
  );
  // The split marker is anchored to the three text tokens that make it up.
  const split = raw.find((x) => x.id === 'marker-split-across-tokens')?.diagnostics.find((d) => d.kind === 'marker-split');
  assert.equal((split?.tokenEnd ?? 0) - (split?.tokenStart ?? 0), 3);
  // Records of other shapes find what their scenario is about too.
  const kindsIn = (file: string, id: string) =>
    (records.get(file) ?? []).filter((r) => r.id === id).flatMap((r) => r.diagnostics.map((d) => d.kind));
  assert.ok(kindsIn('k2vv-results.jsonl', '2').includes('schema-violation'), 'K2VV result 2 breaks the schema');
  assert.ok(kindsIn('k2vv-requests.jsonl', '3').includes('template-bad-history-id'), 'K2VV request 3 carries search_web:0');
  // The shapes read from other APIs: Anthropic's markup leak and its broken stream.
  const anthropic = records.get('anthropic-messages.jsonl') ?? [];
  assert.deepEqual(
    anthropic.map((r) => r.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.kind)),
    [[], ['content-leak'], []],
  );
  const anthropicStream = records.get('anthropic-stream.sse') ?? [];
  assert.deepEqual(
    anthropicStream.map((r) => [r.calls.length, r.diagnostics.map((d) => d.kind)]),
    [
      [2, []],
      [0, ['stream-error']],
    ],
  );
  const kindsOf = (file: string) =>
    (records.get(file) ?? []).map((r) => r.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.kind));
  assert.deepEqual(kindsOf('openai-responses.jsonl'), [[], ['schema-violation']]);
  assert.deepEqual(kindsOf('openai-responses-stream.sse'), [['content-leak'], []]);
  assert.deepEqual(kindsOf('ollama-chat-stream.ndjson'), [[], ['invalid-arguments-json', 'unterminated-call']]);
  assert.deepEqual(
    (records.get('ollama-chat-stream.ndjson') ?? []).map((r) => [r.line, r.lastLine, r.calls.length]),
    [
      [1, 5, 2],
      [6, 6, 2],
    ],
  );
  assert.deepEqual(kindsOf('llama-cpp-server.log'), [['dropped-call'], [], ['dropped-call', 'stream-error']]);
  assert.deepEqual(kindsOf('python-sdk-printouts.txt'), [['content-leak'], ['finish-reason-mismatch']]);
  // One record per LLM span: the pretty-printed export's chat span (its agent and tool spans are no LLM spans), then the one-line export's.
  assert.deepEqual(kindsOf('otel-genai-spans.json'), [[], ['content-leak']]);
  assert.deepEqual(
    (records.get('otel-genai-spans.json') ?? []).map((r) => [r.line, r.calls.length]),
    [
      [1, 1],
      [149, 0],
    ],
  );
  // What observability tools and verifiers export: one record per model call, the rest of the rows skipped.
  assert.deepEqual(kindsOf('langfuse-observations.jsonl'), [[], ['content-leak']]);
  assert.deepEqual(kindsOf('langsmith-runs.jsonl'), [['schema-violation'], []]);
  assert.deepEqual(kindsOf('phoenix-spans.jsonl'), [['unknown-tool']]);
  assert.deepEqual(kindsOf('minimax-verifier-results.jsonl'), [[], ['tool-described-not-called']]);
  assert.deepEqual(kindsOf('deepseek-verifier-attempts.jsonl'), [[], ['schema-violation']]);
  // Rows that are no model call (the agents' spans and chain runs, line 1) are skipped; records keep their rows' lines.
  assert.deepEqual(
    ['langfuse-observations.jsonl', 'langsmith-runs.jsonl', 'phoenix-spans.jsonl'].map((f) => (records.get(f) ?? []).map((r) => r.line)),
    [[2, 3], [2, 3], [2]],
  );
  const real = (id: string) => (records.get('real-failures.jsonl') ?? []).find((r) => r.id === id)?.diagnostics ?? [];
  for (const [id, format] of [
    ['calls-in-reasoning-content', 'kimi_k2'],
    ['calls-in-streamed-reasoning', 'deepseek_v31'],
  ] as const) {
    assert.deepEqual(
      real(id)
        .filter((d) => d.kind === 'call-in-reasoning')
        .map((d) => [d.where, d.detail, d.severity]),
      [['reasoning', format, 'error']],
      id,
    );
  }
  const found = (id: string) => real(id).map((d) => (d.detail ? `${d.kind}@${d.detail}` : d.kind));
  assert.ok(found('reserved-token-spelling-in-content').includes('content-leak@kimi_k2'));
  assert.ok(found('leaked-call-bad-id').includes('bad-call-id@leaked') && found('leaked-call-bad-id').includes('unknown-tool@leaked'));
  assert.ok(found('bare-json-call-in-content').includes('raw-fallback-format@bare-json'));
  assert.ok(found('dsml-lookalike-in-content').includes('unknown-markup-in-content'));
  const sse = records.get('vllm-stream.sse.jsonl') ?? [];
  assert.deepEqual(
    sse.map((r) => r.diagnostics.some((d) => d.kind === 'content-leak')),
    [false, true],
    'two streams, the second leaks',
  );
});

test('with a vLLM profile, the samples whose story is a vLLM bug fire vllm-divergence', async () => {
  const details = async (generation: 'A' | 'B' | 'C', id: string) => {
    const analyzer = new Analyzer({ vllmProfile: generation });
    for await (const item of readTraceItems(join(dir, 'kimi-k2-raw-completions.jsonl'))) {
      if (item.kind === 'record' && item.loaded.record.id === id)
        return analyzer
          .analyze(item.loaded)
          .diagnostics.filter((d) => d.kind === 'vllm-divergence')
          .map((d) => d.detail);
    }
    throw new Error(`sample ${id} missing`);
  };
  assert.deepEqual(await details('A', 'arguments-cut-at-newline'), ['arguments-truncated']);
  assert.ok((await details('A', 'newline-after-call-begin')).includes('call-dropped'));
  assert.deepEqual(await details('C', 'marker-split-across-tokens'), ['content-leaked', 'call-dropped']);
  assert.deepEqual(await details('C', 'clean-parallel-calls'), []);
});

test('only malformed-lines.jsonl has unreadable lines, exactly the planted ones; every shape loads', async () => {
  const { records, errors } = await analyseSamples();
  assert.deepEqual(MALFORMED_LINES, [2, 3, 5]);
  assert.deepEqual([...errors.entries()], [['malformed-lines.jsonl', MALFORMED_LINES]]);
  assert.deepEqual(
    (records.get('malformed-lines.jsonl') ?? []).map((r) => r.id),
    ['good-before-bad-lines', 'good-after-bad-lines'],
  );
  const messages: string[] = [];
  for await (const item of readTraceItems(join(dir, 'malformed-lines.jsonl'))) if (item.kind === 'error') messages.push(item.error.message);
  assert.match(messages[0] ?? '', /^line 2: invalid JSON/);
  assert.match(messages[1] ?? '', /^line 3: not a recognised trace line/);
  assert.match(messages[2] ?? '', /^line 5 is incomplete/);
  const sources = new Set([...records.values()].flat().map((r) => r.source));
  assert.deepEqual([...sources].sort(), [
    'anthropic',
    'anthropic-stream',
    'chat-completion',
    'chat-request',
    'completions',
    'deepseek-verifier',
    'k2vv-result',
    'langfuse',
    'langsmith',
    'llama.cpp',
    'minimax-result',
    'native',
    'ollama',
    'openai-responses',
    'openai-responses-stream',
    'openinference',
    'otel',
    'sse',
  ]);
  const ids = (records.get('completions-logprobs.jsonl') ?? []).map((r) => r.completion?.origin);
  assert.deepEqual(ids, ['recorded', 'recorded'], 'logprob tokens (text and token_id:N) anchor to the text');
});

test('analyze --json over samples/: every line follows the contract', async () => {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const status = await analyzeCommand([dir], { json: true }, sink);
  assert.equal(status, 0);
  const lines = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(lines.length > 30);
  for (const l of lines) {
    if ('error' in l) {
      assert.deepEqual(Object.keys(l), ['file', 'line', 'error']);
      continue;
    }
    assert.deepEqual(Object.keys(l), ['file', 'id', 'line', 'lastLine', 'format', 'content', 'reasoning', 'calls', 'diagnostics']);
    assert.equal(typeof l.id, 'string');
    assert.equal(typeof l.line, 'number');
    for (const c of l.calls as Array<Record<string, unknown>>) assert.deepEqual(Object.keys(c), ['id', 'name', 'arguments']);
    for (const d of l.diagnostics as Array<Record<string, unknown>>) {
      assert.match(String(d.code), /^TS\d{3}$/);
      assert.ok(String(d.kind) in DIAGNOSTIC_KINDS);
      assert.ok(['error', 'warning', 'info'].includes(String(d.severity)));
      assert.ok(['completion', 'response', 'reasoning', 'request'].includes(String(d.where)));
      for (const k of ['tokenStart', 'tokenEnd', 'charStart', 'charEnd'])
        assert.ok(d[k] === null || typeof d[k] === 'number', `${k} = ${String(d[k])}`);
      const extra = Object.keys(d).filter(
        (k) =>
          ![
            'code',
            'kind',
            'severity',
            'message',
            'hint',
            'where',
            'tokenStart',
            'tokenEnd',
            'charStart',
            'charEnd',
            'callIndex',
            'path',
            'detail',
          ].includes(k),
      );
      assert.deepEqual(extra, []);
    }
  }
});

test('guided what-if on the samples: failing Kimi completions are blocked where the failure is, every ajv/grammar disagreement is explained', async () => {
  const { records } = await analyseSamples();
  const raw = records.get('kimi-k2-raw-completions.jsonl') ?? [];
  const byId = new Map(raw.map((r) => [r.id, r]));
  // The grammar steps in on the token the failure starts at.
  for (const [id, wrote] of [
    ['hallucinated-tool', 'stock_price'],
    ['bad-call-id', 'search_web:2'],
    ['schema-violations', 'start'],
  ] as const) {
    const block = byId.get(id)?.diagnostics.find((d) => d.kind === 'guided-would-block');
    assert.ok(block, `${id}: guided-would-block`);
    assert.ok(block.tokenStart !== null && block.tokenEnd === block.tokenStart + 1, `${id}: one token`);
    const completion = byId.get(id)?.completion;
    const token = completion?.tokens[block.tokenStart];
    assert.ok(
      token && block.charStart !== null && token.charStart <= block.charStart && block.charStart < token.charEnd,
      `${id}: the token holds the refused character`,
    );
    assert.ok(block.message.includes(wrote), `${id}: ${block.message}`);
  }
  assert.match(
    byId.get('hallucinated-tool')?.diagnostics.find((d) => d.kind === 'guided-would-block')?.message ?? '',
    /a tool name: one of get_weather, search_web/,
  );
  // The clean records pass the grammar.
  for (const id of ['clean-single-call', 'clean-parallel-calls'])
    assert.ok(
      byId.get(id)?.diagnostics.some((d) => d.kind === 'guided-accepts'),
      id,
    );
  // Both directions of disagreement occur in the samples, each named by its keyword.
  assert.match(
    byId.get('schema-gap-grammar-lets-through')?.diagnostics.find((d) => d.kind === 'guided-accepts')?.message ?? '',
    /does not enforce: multipleOf/,
  );
  assert.match(
    byId.get('schema-gap-grammar-stricter')?.diagnostics.find((d) => d.kind === 'guided-would-block')?.message ?? '',
    /ajv accepts these arguments: the grammar is stricter on properties/,
  );
  // No unexplained disagreement between ajv and the grammar anywhere in the samples.
  for (const r of [...records.values()].flat()) {
    for (const d of r.diagnostics) {
      if (d.kind === 'guided-would-block' || d.kind === 'guided-accepts')
        assert.ok(!d.message.includes('unexplained'), `${r.id}: ${d.message}`);
    }
  }
});
