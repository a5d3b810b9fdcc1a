/**
 * End to end: the Analyzer reads Llama records (detected from `<|python_tag|>` / the turn ends, the parser name or the
 * model name), reports what went wrong in them, and takes nothing from the other formats: their records, and bare
 * JSON in their content, are read as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TraceRecord } from '../../../../src/core/trace/record.ts';
import { analyze, assertClean, assertMarkerChips, checkSamples, kinds, record } from '../kit/analysisKit.ts';

const call = (name: string, args: string) => `{"name": "${name}", "parameters": ${args}}`;
const response = (content: string | null): TraceRecord['response'] => ({
  choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

test('llama analysis: a clean call is detected from <|python_tag|> and clean; markers are single tokens in the timeline', () => {
  const r = analyze(
    record({
      completion: { text: `Checking.<|python_tag|>${call('get_weather', '{"city": "Paris"}')}<|eom_id|>`, finish_reason: 'tool_calls' },
    }),
  );
  assert.equal(r.format, 'llama');
  assert.equal(r.formatBasis, 'markup');
  assert.deepEqual(r.calls, [{ id: '', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
  assert.equal(r.content, 'Checking.');
  assertClean(r, 'clean');
  assertMarkerChips(r, ['<|python_tag|>', '<|eom_id|>']);
});

test('llama analysis: the bare form is read by its turn end, its parser name or its model name', () => {
  const text = call('get_weather', '{"city": "Rome"}');
  const byEnd = analyze(record({ completion: { text: `${text}<|eot_id|>` } }));
  assert.deepEqual([byEnd.format, byEnd.formatBasis, byEnd.calls.length], ['llama', 'markup', 1]);
  const byParser = analyze(record({ completion: { text }, meta: { parser: 'llama3_json' } }));
  assert.deepEqual([byParser.format, byParser.formatBasis, byParser.calls.length], ['llama', 'parser', 1]);
  const r = record({ completion: { text } });
  const byModel = analyze({ ...r, request: { ...r.request, model: 'meta-llama/Llama-3.3-70B-Instruct' } as TraceRecord['request'] });
  assert.deepEqual([byModel.format, byModel.formatBasis, byModel.calls.length], ['llama', 'model', 1]);
  assertClean(byModel, 'bare call');
  // Without any of them the text is only JSON: the default format reads it as content, as before.
  assert.equal(analyze(r).format, 'kimi_k2');
});

test('llama analysis: unknown tool, schema violation, invalid JSON, unterminated call', () => {
  const unknown = analyze(record({ completion: { text: `${call('get_stock_price', '{"ticker": "NVDA"}')}<|eot_id|>` } }));
  assert.match(unknown.diagnostics.find((d) => d.kind === 'unknown-tool')?.message ?? '', /call 0 names "get_stock_price"/);
  const schema = analyze(record({ completion: { text: `<|python_tag|>${call('get_weather', '{"city": "Oslo", "days": 30}')}` } }));
  assert.deepEqual(
    schema.diagnostics.filter((d) => d.kind === 'schema-violation').map((d) => d.path),
    ['$.days'],
  );
  const invalid = analyze(record({ completion: { text: `<|python_tag|>${call('get_weather', '{"city": "Oslo",}')}` } }));
  assert.ok(kinds(invalid).includes('invalid-arguments-json'));
  const cut = analyze(
    record({ completion: { text: '<|python_tag|>{"name": "search", "parameters": {"query": "vll', finish_reason: 'length' } }),
  );
  assert.match(cut.diagnostics.find((d) => d.kind === 'unterminated-call')?.message ?? '', /finish_reason "length"/);
  const stray = analyze(record({ completion: { text: `${call('search', '{"query": "x"}')} Anything else?<|eot_id|>` } }));
  assert.ok(kinds(stray).includes('text-in-section'), kinds(stray).join(', '));
});

test('llama analysis: a call the server returned as content is a leak (with and without the raw completion)', () => {
  const text = call('search', '{"query": "llama tool parser"}');
  const withCompletion = analyze(record({ completion: { text: `${text}<|eot_id|>` }, response: response(text) }));
  assert.equal(withCompletion.format, 'llama');
  assert.ok(kinds(withCompletion).includes('content-leak'), kinds(withCompletion).join(', '));
  assert.ok(kinds(withCompletion).includes('dropped-call'));
  const tagged = analyze(record({ response: response(`<|python_tag|>${text}`) }));
  assert.equal(tagged.format, 'llama');
  assert.ok(kinds(tagged).includes('content-leak'));
  // Response only, format from the parser name: the bare object is Llama's own call, leaked (not a raw fallback).
  const bare = analyze(record({ response: response(text), meta: { parser: 'llama3_json' } }));
  assert.equal(bare.format, 'llama');
  assert.equal(bare.diagnostics.find((d) => d.kind === 'content-leak')?.detail, 'bare-json');
  assert.ok(!kinds(bare).includes('raw-fallback-format'));
});

test("llama detection steals nothing: Hermes and Qwen3-Coder records, and bare JSON in other formats' content", () => {
  const hermes = analyze(record({ completion: { text: '<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>' } }));
  assert.equal(hermes.format, 'hermes');
  const coder = analyze(
    record({ completion: { text: '<tool_call>\n<function=search>\n<parameter=query>\nx\n</parameter>\n</function>\n</tool_call>' } }),
  );
  assert.equal(coder.format, 'qwen3_coder');
  // A Hermes call whose argument quotes Llama's markup: the markup that comes first wins.
  const quoting = analyze(
    record({ completion: { text: '<tool_call>\n{"name": "search", "arguments": {"query": "what is <|python_tag|>?"}}\n</tool_call>' } }),
  );
  assert.equal(quoting.format, 'hermes');
  // A bare JSON call in the content of a record of another format: the raw-fallback finding it had, not Llama's.
  const bare = '{"name": "search", "arguments": {"query": "x"}}';
  for (const model of ['Qwen/Qwen2.5-72B-Instruct', 'moonshotai/Kimi-K2-Instruct']) {
    const r = record({ response: response(bare) });
    const a = analyze({ ...r, request: { ...r.request, model } as TraceRecord['request'] });
    assert.notEqual(a.format, 'llama', model);
    assert.equal(a.diagnostics.find((d) => d.kind === 'raw-fallback-format')?.detail, 'bare-json', model);
  }
  // Hermes-3 is a Llama 3.1 fine-tune that writes Hermes markup.
  const r = record({ response: response(bare) });
  assert.equal(
    analyze({ ...r, request: { ...r.request, model: 'NousResearch/Hermes-3-Llama-3.1-8B' } as TraceRecord['request'] }).format,
    'hermes',
  );
});

test('llama analysis: the bundled samples', async () => {
  await checkSamples('llama');
});

test('llama analysis: a call written after prose without <|python_tag|> stays content, and is said so on its JSON', () => {
  const prose = 'Here is the result: ';
  const json = call('search', '{"query": "incidents"}');
  const text = `${prose}${json} Would you like to know more?<|eot_id|>`;
  const r = analyze(record({ completion: { text } }));
  assert.equal(r.format, 'llama');
  assert.deepEqual(r.calls, []);
  const d = r.diagnostics.find((x) => x.kind === 'raw-fallback-format');
  assert.ok(d, r.diagnostics.map((x) => x.kind).join(', '));
  assert.equal(d.detail, 'bare-json');
  assert.equal(text.slice(d.charStart ?? 0, d.charEnd ?? 0), json);
  assert.match(d.message, /a call written as bare JSON after other text \(search\) is content/u);
  // JSON that names no offered tool is prose.
  assert.ok(
    !kinds(analyze(record({ completion: { text: `${prose}{"name": "Ada", "parameters": {}}<|eot_id|>` } }))).includes(
      'raw-fallback-format',
    ),
  );
  // A call at the start is a call, not a raw fallback.
  assert.ok(!kinds(analyze(record({ completion: { text: `${json}<|eot_id|>` } }))).includes('raw-fallback-format'));
});
