/**
 * Format detection without `meta.format`: the bundled samples of the six added formats are recognised from their
 * markup (or, with no raw completion, from the model name), and a format that was only assumed does not hold
 * the record's ids to Kimi's convention.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Analyzer, type AnalysisOptions, type AnalyzedRecord } from '../../../src/core/analysis.ts';
import { formatOfModel, modelNames } from '../../../src/core/formats/resolveFormat.ts';
import type { TraceRecord } from '../../../src/core/trace/record.ts';
import { analyzeCommand } from '../../../src/cli/analyzeCommand.ts';

const SAMPLES = fileURLToPath(new URL('../../../samples/other-formats.jsonl', import.meta.url));
const FORMATS = [
  'hermes',
  'qwen3_coder',
  'deepseek_v31',
  'harmony',
  'llama',
  'glm',
  'deepseek_dsml',
  'pythonic',
  'lfm2',
  'kimi_k3',
  'seed_oss',
  'hy_v3',
  'gemma4',
  'functiongemma',
  'mistral',
  'minimax_m2',
  'minimax_m3',
  'granite',
];
/** The samples recorded without a raw completion, and the model name that tells their format. */
const RESPONSE_ONLY: Record<string, RegExp> = {
  'qwen3_coder-invalid-json-arguments': /Qwen3-Coder-30B-A3B-Instruct/,
  'glm-invalid-json-arguments': /GLM-4\.7/,
  'deepseek_dsml-invalid-json-arguments': /DeepSeek-V4-Flash/,
  'pythonic-invalid-json-arguments': /Olmo-3/,
  'lfm2-invalid-json-arguments': /LFM2\.5/,
  'seed_oss-invalid-json-arguments': /Seed-OSS-36B-Instruct/,
  'hy_v3-invalid-json-arguments': /Hy3-preview/,
  'gemma4-invalid-json-arguments': /gemma-4/,
  'functiongemma-invalid-json-arguments': /functiongemma/,
  'minimax_m2-invalid-json-arguments': /MiniMax-M2\.5/,
  'minimax_m3-invalid-json-arguments': /MiniMax-M3/,
};

function sampleRecords(): TraceRecord[] {
  return readFileSync(SAMPLES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TraceRecord);
}

/** The record as a capture without Toolscope's annotation would have it: no meta.format, no meta.parser. */
function unnamed(r: TraceRecord): TraceRecord {
  const copy = structuredClone(r);
  if (copy.meta) {
    delete copy.meta.format;
    delete copy.meta.parser;
  }
  return copy;
}

/** Also without any model name: nothing but the text to go on. */
function anonymous(r: TraceRecord): TraceRecord {
  const copy = unnamed(r);
  if (copy.meta) delete copy.meta.model;
  if (copy.request) delete copy.request.model;
  if (copy.response && !Array.isArray(copy.response)) delete copy.response.model;
  return copy;
}

function analyze(r: TraceRecord, options?: AnalysisOptions): AnalyzedRecord {
  return new Analyzer(options).analyze({ record: r, line: 1, lastLine: 1, source: 'native' });
}

const formatOfId = (id: string) => FORMATS.find((f) => id.startsWith(`${f}-`));
const summary = (a: AnalyzedRecord) => ({
  format: a.format,
  content: a.content,
  reasoning: a.reasoning,
  calls: a.calls,
  diagnostics: a.diagnostics,
});

test('detection: every record of other-formats.jsonl is detected without meta.format / meta.parser, and analysed as if named', () => {
  const records = sampleRecords();
  assert.equal(records.length, 108);
  const seen = new Map<string, number>();
  for (const r of records) {
    const expected = formatOfId(r.id);
    assert.ok(expected, `sample ${r.id} names no format`);
    assert.equal(r.meta?.format, expected, `${r.id}: the sample names its format`);
    const named = analyze(r);
    const detected = analyze(unnamed(r));
    assert.equal(detected.format, expected, `${r.id}: detected ${detected.format} (${detected.formatEvidence})`);
    assert.notEqual(detected.formatBasis, 'default', r.id);
    // Detection changes nothing else: same parse, same findings as with the format named.
    assert.deepEqual(summary(detected), summary(named), r.id);
    assert.ok(
      !detected.diagnostics.some((d) => d.kind === 'bad-call-id'),
      `${r.id}: ${detected.diagnostics.map((d) => d.kind).join(', ')}`,
    );
    seen.set(expected, (seen.get(expected) ?? 0) + 1);
  }
  assert.deepEqual([...seen.entries()].sort(), FORMATS.map((f) => [f, 6] as [string, number]).sort());
});

test('detection: records with a raw completion are recognised by their markup alone; the response-only one by its model', () => {
  for (const r of sampleRecords()) {
    const expected = formatOfId(r.id);
    const withModel = analyze(unnamed(r));
    const bare = analyze(anonymous(r));
    if (r.completion) {
      assert.equal(withModel.formatBasis, 'markup', r.id);
      assert.equal(bare.format, expected, `${r.id}: from the markup alone`);
      assert.equal(bare.formatBasis, 'markup', r.id);
    } else {
      assert.ok(RESPONSE_ONLY[r.id], r.id);
      assert.equal(withModel.formatBasis, 'model');
      assert.match(withModel.formatEvidence, RESPONSE_ONLY[r.id] as RegExp);
      // Nothing at all to go on: the default is assumed, and its id rules stay out of it.
      assert.equal(bare.format, 'kimi_k2');
      assert.equal(bare.formatBasis, 'default');
      assert.deepEqual(
        bare.diagnostics.map((d) => d.kind),
        withModel.diagnostics.map((d) => d.kind),
      );
      assert.ok(bare.diagnostics.some((d) => d.kind === 'invalid-arguments-json'));
      assert.ok(!bare.diagnostics.some((d) => d.kind === 'bad-call-id' || d.kind === 'duplicate-call-index'));
    }
  }
});

test('detection: meta.parser names the format when there is no markup (vLLM and SGLang parser names)', () => {
  const r = unnamed(sampleRecords().find((x) => x.id === 'qwen3_coder-invalid-json-arguments') as TraceRecord);
  for (const [parser, format] of [
    ['qwen3_coder', 'qwen3_coder'],
    ['qwen3_xml', 'qwen3_coder'],
    ['hermes', 'hermes'],
    ['qwen25', 'hermes'],
    ['openai', 'harmony'],
    ['deepseek_v31', 'deepseek_v31'],
    ['kimi_k2', 'kimi_k2'],
    ['llama3_json', 'llama'],
    ['llama4_json', 'llama'],
    ['llama3', 'llama'],
    ['pythonic', 'pythonic'],
    ['llama4_pythonic', 'pythonic'],
    ['olmo3', 'pythonic'],
    ['lfm2', 'lfm2'],
    ['granite', 'granite'],
    ['granite-20b-fc', 'granite'],
    // vLLM `granite4` (granite4_tool_parser.py @ 017e9f4): Hermes' `<tool_call>{…}</tool_call>`.
    ['granite4', 'hermes'],
  ]) {
    const a = analyze({ ...r, meta: { ...r.meta, parser } });
    assert.equal(a.format, format, parser);
    assert.equal(a.formatBasis, 'parser', parser);
  }
  // meta.format, then the user's choice, still win.
  assert.equal(analyze({ ...r, meta: { ...r.meta, parser: 'openai', format: 'hermes' } }).format, 'hermes');
  assert.equal(
    analyze({ ...r, meta: { ...r.meta, parser: 'openai', format: 'hermes' } }, { format: 'deepseek_v31' }).formatBasis,
    'forced',
  );
});

test('detection: model names map to the formats those models write', () => {
  const cases: Array<[string, string | undefined]> = [
    ['moonshotai/Kimi-K2-Instruct-0905', 'kimi_k2'],
    ['kimi-k2-instruct-0905', 'kimi_k2'],
    ['moonshot', 'kimi_k2'],
    ['Qwen/Qwen2.5-72B-Instruct', 'hermes'],
    ['Qwen/Qwen3-235B-A22B-Instruct-2507', 'hermes'],
    ['NousResearch/Hermes-3-Llama-3.1-8B', 'hermes'],
    ['Qwen/Qwen3-Coder-30B-A3B-Instruct', 'qwen3_coder'],
    ['qwen3-coder-plus', 'qwen3_coder'],
    ['deepseek-ai/DeepSeek-V3.1', 'deepseek_v31'],
    ['deepseek-ai/DeepSeek-V3.1-Terminus', 'deepseek_v31'],
    ['openai/gpt-oss-120b', 'harmony'],
    ['gpt-oss:20b', 'harmony'],
    ['meta-llama/Llama-3.1-8B-Instruct', 'llama'],
    ['meta-llama/Meta-Llama-3.1-70B-Instruct', 'llama'],
    ['meta-llama/Llama-3.2-3B-Instruct', 'llama'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'llama'],
    ['meta-llama/Llama-4-Scout-17B-16E-Instruct', 'llama'],
    ['meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', 'llama'],
    ['llama3.1:8b', 'llama'],
    ['llama3.2', 'llama'],
    ['ibm-granite/granite-3.1-8b-instruct', 'granite'],
    ['ibm-granite/granite-4.0-h-small', 'hermes'],
    ['nvidia/Llama-3.1-Nemotron-70B-Instruct-HF', undefined],
    ['deepseek-ai/DeepSeek-R1-Distill-Llama-70B', undefined],
    ['meta-llama/Meta-Llama-3-8B-Instruct', undefined],
    ['codellama/CodeLlama-7b-Instruct-hf', undefined],
    ['deepseek-ai/DeepSeek-V3', undefined],
    ['gpt-4o', undefined],
    ['m', undefined],
  ];
  for (const [model, format] of cases) assert.equal(formatOfModel(model)?.name, format, model);
  const r: TraceRecord = { toolscope: 1, id: 'x', meta: { model: 'a' }, request: { model: 'b' }, response: [{ model: 'c', choices: [] }] };
  assert.deepEqual(modelNames(r), ['a', 'b', 'c']);
});

test('detection: Kimi id rules fire on Kimi evidence only, never on a response whose format was just assumed', () => {
  const response = (id: string): TraceRecord['response'] => ({
    choices: [
      {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: 'search', arguments: '{"query": "x"}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
  });
  const rec = (model: string, meta: TraceRecord['meta'] = {}): TraceRecord => ({
    toolscope: 1,
    id: 'r',
    request: { model, messages: [{ role: 'user', content: 'hi' }] },
    response: response('call_7f3a'),
    meta,
  });
  const kinds = (a: AnalyzedRecord) => a.diagnostics.map((d) => d.kind);
  const unknown = analyze(rec('my-finetune'));
  assert.equal(unknown.format, 'kimi_k2');
  assert.equal(unknown.formatBasis, 'default');
  assert.ok(!kinds(unknown).includes('bad-call-id'), kinds(unknown).join(', '));
  // The same response from a Kimi model, a record naming Kimi, a Kimi parser, or the user choosing Kimi: the id is wrong.
  for (const [label, a] of [
    ['model', analyze(rec('moonshotai/Kimi-K2-Instruct'))],
    ['meta.format', analyze(rec('my-finetune', { format: 'kimi_k2' }))],
    ['meta.parser', analyze(rec('my-finetune', { parser: 'kimi_k2' }))],
    ['--format', analyze(rec('my-finetune'), { format: 'kimi_k2' })],
  ] as const) {
    assert.equal(a.format, 'kimi_k2', label);
    assert.ok(kinds(a).includes('bad-call-id'), `${label}: ${kinds(a).join(', ')}`);
  }
  // History ids likewise.
  const history: TraceRecord = {
    toolscope: 1,
    id: 'h',
    request: {
      model: 'my-finetune',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      ],
    },
  };
  assert.equal(analyze(history).formatBasis, 'default');
  assert.ok(!kinds(analyze(history)).includes('template-bad-history-id'));
  assert.ok(kinds(analyze({ ...history, request: { ...history.request, model: 'kimi-k2-0905' } })).includes('template-bad-history-id'));
  // A history that already holds Kimi-style ids is Kimi evidence of its own: the odd one out is flagged.
  const messages = [
    ...(history.request?.messages ?? []),
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'functions.search:1', type: 'function', function: { name: 'search', arguments: '{}' } }],
    },
  ];
  const mixed = analyze({ ...history, request: { ...history.request, messages } as TraceRecord['request'] });
  assert.equal(mixed.format, 'kimi_k2');
  assert.equal(mixed.formatBasis, 'history');
  assert.match(mixed.formatEvidence, /functions\.search:1/);
  assert.match(mixed.diagnostics.find((d) => d.kind === 'template-bad-history-id')?.message ?? '', /"call_1"/);
});

test('analyze --json: the format field per record, detected without meta.format', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-detect-'));
  try {
    const file = join(dir, 'unnamed.jsonl');
    await writeFile(
      file,
      sampleRecords()
        .map((r) => JSON.stringify(unnamed(r)))
        .join('\n') + '\n',
    );
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    assert.equal(await analyzeCommand([file], { json: true }, sink), 0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; format: string; diagnostics: Array<{ kind: string }> });
    assert.equal(lines.length, 108);
    for (const l of lines) {
      assert.deepEqual(Object.keys(l), ['file', 'id', 'line', 'lastLine', 'format', 'content', 'reasoning', 'calls', 'diagnostics']);
      assert.equal(l.format, formatOfId(l.id), l.id);
      assert.ok(!l.diagnostics.some((d) => d.kind === 'bad-call-id'), l.id);
    }
    // --format still overrides detection for every record.
    out = '';
    assert.equal(await analyzeCommand([file], { json: true, format: 'hermes' }, sink), 0);
    assert.deepEqual(
      [
        ...new Set(
          out
            .trim()
            .split('\n')
            .map((l) => (JSON.parse(l) as { format: string }).format),
        ),
      ],
      ['hermes'],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
