/**
 * What the ecosystem exports, read as records: Langfuse observations (JSONL, CSV, Parquet), LangSmith runs (JSONL,
 * Parquet), OpenInference spans (Phoenix's span JSON, OTLP JSON), the DeepSeek provider verifier's hash-chained
 * evidence and MiniMax-Provider-Verifier's results. The Parquet files are written here by DuckDB from the JSONL
 * fixtures (a test dependency only), so the three forms of one export must give the same records.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Analyzer } from '../../../src/core/analysis.ts';
import { PARSED_ONLY_NOTE } from '../../../src/core/trace/importers/exportMessages.ts';
import { exportRowColumns, importExportRow } from '../../../src/core/trace/importers/exportRow.ts';
import { LANGFUSE_OBSERVATION_COLUMNS } from '../../../src/core/trace/importers/langfuseObservation.ts';
import type { ChatCompletion, ChatCompletionChunk, LoadedRecord, TraceRecord } from '../../../src/core/trace/record.ts';
import { importText } from '../../../src/core/trace/importText.ts';
import { loadAll } from '../../../src/io/trace/loadTrace.ts';
import { query, sqlPath } from '../../cli/duckdb.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const at = (p: string) => join(fixtures, p);

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolscope-exports-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * The JSONL fixture as a Parquet file of text columns (DuckDB, a test dependency only), as Langfuse's and LangSmith's
 * exports hold them: objects as JSON text in `textColumns`, the other values as text, nulls as nulls; two rows a row
 * group, so rows cross row groups.
 */
async function asParquet(jsonl: string, name: string, textColumns: string[], compression = 'snappy'): Promise<string> {
  const out = join(dir, name);
  const keys = Object.keys(JSON.parse((await readFile(jsonl, 'utf8')).split('\n')[0] ?? '{}') as object);
  const column = (k: string) =>
    `CASE WHEN json_type(json->'${k}') = 'NULL' THEN NULL ELSE ${textColumns.includes(k) ? `(json->'${k}')::VARCHAR` : `json->>'${k}'`} END AS "${k}"`;
  await query(
    `COPY (SELECT ${keys.map(column).join(', ')} FROM read_json_objects(${sqlPath(jsonl)})) TO ${sqlPath(out)} (FORMAT parquet, ROW_GROUP_SIZE 2, COMPRESSION ${compression})`,
  );
  return out;
}

const ids = (records: LoadedRecord[]) => records.map((r) => r.record.id);
const stripLines = (records: LoadedRecord[]) => records.map((r) => r.record);

test('Langfuse observations (blob export JSONL): one record per GENERATION, its ids, tools and what could not be checked', async () => {
  const got = await loadAll(at('langfuse/observations_v2.jsonl'));
  assert.deepEqual(ids(got.records), ['gen-0001', 'gen-0002', 'gen-0003'], 'the SPAN on line 1 is no model call');
  assert.deepEqual(
    got.records.map((r) => [r.line, r.source]),
    [
      [2, 'langfuse'],
      [3, 'langfuse'],
      [4, 'langfuse'],
    ],
  );
  const first = got.records[0]?.record as TraceRecord;
  assert.equal(first.meta?.trace_id, '0c5f2a3e-6b1d-4f7e-9a2c-5d8e1f3b7a90');
  assert.equal(first.meta?.observation_id, 'gen-0001');
  assert.equal(first.request?.tools?.[0]?.function.name, 'get_weather');
  assert.equal(first.request?.messages?.[0]?.content, "What's the weather like in Boston today?");
  const response = first.response as ChatCompletion;
  assert.equal(response.choices[0]?.message.tool_calls?.[0]?.id, 'call_Bx7kQ');
  assert.equal(response.choices[0]?.finish_reason, 'tool_calls');
  assert.equal(first.meta?.unchecked, PARSED_ONLY_NOTE, 'Langfuse keeps the parsed message, not the raw completion');
  assert.equal(got.records[2]?.record.error, 'Error code: 429 - Rate limit reached for gpt-4o');
  assert.deepEqual(got.errors, [
    { line: 5, message: 'line 5: Langfuse observation gen-0004: input is neither a message list nor {messages, tools}' },
  ]);

  // The markup the model wrote as text is still in the content the SDK logged: the leak is found.
  const analyzer = new Analyzer({ guided: false });
  const leak = analyzer.analyze(got.records[1] as LoadedRecord);
  assert.ok(leak.diagnostics.some((d) => d.kind === 'content-leak'));
  assert.equal(leak.unchecked, PARSED_ONLY_NOTE);
});

test('Langfuse CSV and Parquet exports give the JSONL export’s records (line: the CSV line, the Parquet row)', async () => {
  const jsonl = await loadAll(at('langfuse/observations_v2.jsonl'));
  const csv = await loadAll(at('langfuse/observations_v2.csv'));
  assert.deepEqual(stripLines(csv.records), stripLines(jsonl.records));
  assert.deepEqual(
    csv.records.map((r) => r.line),
    [3, 4, 5],
    'the header is line 1',
  );
  assert.deepEqual(
    csv.errors.map((e) => e.line),
    [6],
  );

  const parquet = await asParquet(at('langfuse/observations_v2.jsonl'), 'observations.parquet', [
    'metadata',
    'usage_details',
    'cost_details',
    'tags',
    'tool_calls',
    'tool_call_names',
    'tool_definitions',
  ]);
  const fromParquet = await loadAll(parquet);
  assert.deepEqual(stripLines(fromParquet.records), stripLines(jsonl.records));
  assert.deepEqual(
    fromParquet.records.map((r) => r.line),
    [2, 3, 4],
    'a row is numbered by its place in the file',
  );
  assert.deepEqual(fromParquet.errors, jsonl.errors);
});

test('Parquet pages in every codec DuckDB writes (ZSTD and LZ4_RAW among them) give the JSONL export’s records', async () => {
  const jsonl = await loadAll(at('langfuse/observations_v2.jsonl'));
  const { parquetFile } = await import('../../../src/io/trace/parquetRows.ts');
  for (const [compression, codec] of [
    ['zstd', 'ZSTD'],
    ['lz4_raw', 'LZ4_RAW'],
    ['lz4', 'LZ4_RAW'], // DuckDB's lz4 writes the raw block format, LZ4_RAW in the footer
    ['gzip', 'GZIP'],
    ['brotli', 'BROTLI'],
    ['snappy', 'SNAPPY'],
    ['uncompressed', 'UNCOMPRESSED'],
  ] as const) {
    const path = await asParquet(
      at('langfuse/observations_v2.jsonl'),
      `observations-${compression}.parquet`,
      ['metadata', 'usage_details'],
      compression,
    );
    // The footer says the pages are in that codec (not a fallback the writer chose).
    const { metadata } = await parquetFile(path);
    const codecs = new Set(metadata.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data?.codec)));
    assert.deepEqual([...codecs], [codec], compression);
    const got = await loadAll(path);
    assert.deepEqual(stripLines(got.records), stripLines(jsonl.records), compression);
    assert.deepEqual(got.errors, jsonl.errors, compression);
  }
});

test('LangSmith runs: wrap_openai keeps the raw exchange, LangChain the parsed AIMessage; chains are skipped', async () => {
  const got = await loadAll(at('langsmith/runs.jsonl'));
  assert.equal(got.records.length, 3);
  const [raw, parsed, failed] = got.records.map((r) => r.record) as [TraceRecord, TraceRecord, TraceRecord];
  assert.equal(raw.meta?.run_id, '0191c6a2-7e30-7000-8000-000000000001');
  assert.equal(raw.meta?.trace_id, '0191c6a2-7e2f-7d3a-9c1b-2a4e5f6b7c8d');
  assert.equal((raw.response as ChatCompletion).id, 'chatcmpl-LS1');
  assert.equal(raw.meta?.unchecked, undefined, 'the provider’s whole response was kept');
  assert.equal(raw.request?.tools?.length, 1);
  assert.equal(parsed.meta?.unchecked, PARSED_ONLY_NOTE);
  assert.deepEqual(parsed.request?.messages, [{ role: 'user', content: 'And in Paris?' }]);
  assert.equal(parsed.request?.tools?.[0]?.function.name, 'get_weather', 'tools from invocation_params');
  const call = (parsed.response as ChatCompletion).choices[0]?.message.tool_calls?.[0];
  assert.deepEqual(call, { type: 'function', function: { name: 'get_weather', arguments: '{"location": 42}' }, id: 'call_ls_2' });
  assert.equal(failed.error, "RateLimitError('Error code: 429')");
  assert.match(got.errors[0]?.message ?? '', /^line 5: LangSmith run .*: inputs\.messages must be a message list, got a number$/);
  const analysed = new Analyzer({ guided: false }).analyze(got.records[1] as LoadedRecord);
  assert.ok(analysed.diagnostics.some((d) => d.kind === 'schema-violation'));

  const parquet = await asParquet(at('langsmith/runs.jsonl'), 'runs.parquet', ['inputs', 'outputs', 'extra', 'tags', 'parent_run_ids']);
  const fromParquet = await loadAll(parquet);
  assert.deepEqual(stripLines(fromParquet.records), stripLines(got.records));
  assert.deepEqual(
    fromParquet.errors.map((e) => e.line),
    [5],
  );
});

test('OpenInference: Phoenix span JSON (the spec’s examples) and an OTLP export of the same spans', async () => {
  const phoenix = await loadAll(at('phoenix/llm-spans.jsonl'));
  assert.deepEqual(ids(phoenix.records), ['01fa9612-01b8-4358-85d6-e3e067305ec3', 'f26d1f26-9671-435d-9716-14a87a3f228b']);
  assert.equal(phoenix.errors.length, 0, 'the CHAIN span is skipped');
  const [call, answer] = phoenix.records.map((r) => r.record) as [TraceRecord, TraceRecord];
  assert.equal(call.meta?.span_id, '01fa9612-01b8-4358-85d6-e3e067305ec3');
  assert.equal(call.meta?.trace_id, '409df945-e058-4829-b240-cfbdd2ff4488');
  assert.equal(call.request?.model, 'gpt-3.5-turbo-0613');
  assert.equal(call.request?.temperature, 0.1, 'invocation parameters join the request');
  assert.equal((call.response as ChatCompletion).choices[0]?.message.tool_calls?.[0]?.function.arguments, '{\n  "a": 23,\n  "b": 87\n}');
  assert.deepEqual(answer.request?.messages?.[3], { role: 'tool', content: '2001', name: 'multiply' });
  assert.equal(answer.request?.messages?.[2]?.tool_calls?.[0]?.function.name, 'multiply');

  const otlp = await loadAll(at('phoenix/openinference.otlp.json'));
  assert.deepEqual(
    otlp.records.map((r) => [r.source, r.record.meta?.span_id]),
    [
      ['openinference', '01fa961201b84358'],
      ['openinference', 'f26d1f269671435d'],
    ],
  );
  assert.deepEqual(
    otlp.records.map((r) => r.record.request?.messages),
    phoenix.records.map((r) => r.record.request?.messages),
  );

  // A pretty-printed span (as the spec prints it) is one entry; a span whose messages are unreadable costs itself.
  const pretty = importText(
    JSON.stringify(JSON.parse((await readFile(at('phoenix/llm-spans.jsonl'), 'utf8')).split('\n')[1] ?? ''), null, 2),
  );
  assert.equal(pretty.records.length, 1);
  assert.ok(pretty.records[0] && pretty.records[0].lastLine > 10);
  const bad = importText(
    JSON.stringify({ context: { span_id: 's1' }, span_kind: 'LLM', attributes: { 'llm.input_messages.0.message.role': 7 } }) + '\n',
  );
  assert.deepEqual(bad.errors, [{ line: 1, message: 'line 1: Phoenix span s1: llm.input_messages.0.message.role must be text' }]);
});

test('a Phoenix spans dataframe row (context.span_id and attributes.* as columns) reads as the span', () => {
  const row = {
    name: 'ChatCompletion',
    span_kind: 'LLM',
    'context.span_id': 'abc123',
    'context.trace_id': 'trace9',
    'attributes.llm.model_name': 'gpt-4o',
    'attributes.llm.input_messages': [{ 'message.role': 'user', 'message.content': 'hi' }],
    'attributes.llm.output_messages': [{ 'message.role': 'assistant', 'message.content': 'hello' }],
  };
  const got = importText(JSON.stringify(row));
  assert.equal(got.records[0]?.record.meta?.span_id, 'abc123');
  assert.deepEqual(got.records[0]?.record.request?.messages, [{ role: 'user', content: 'hi' }]);
});

test('DeepSeek provider verifier: attempts as records (body, stream, HTTP error), the other kinds skipped, an edited line refused', async () => {
  const text = await readFile(at('deepseek-verifier/attempts.jsonl'), 'utf8');
  const got = importText(text);
  assert.deepEqual(ids(got.records), [
    'candidate:weather.r0#1',
    'candidate:weather-stream.r0#1',
    'candidate:weather-busy.r0#1',
    'candidate:weather-busy.r0#2',
  ]);
  assert.deepEqual(
    got.records.map((r) => r.line),
    [3, 5, 7, 9],
    'manifest and attempt_start lines are no model call',
  );
  assert.equal(got.errors.length, 0);
  const [body, stream, busy] = got.records.map((r) => r.record) as [TraceRecord, TraceRecord, TraceRecord];
  assert.equal((body.response as ChatCompletion).id, 'ds-0001');
  assert.equal(body.meta?.case_id, 'weather.r0');
  assert.match(String(body.meta?.record_hash), /^[0-9a-f]{64}$/);
  assert.equal((stream.response as ChatCompletionChunk[]).length, 5, 'the SSE events’ chunks, [DONE] dropped');
  const analysed = new Analyzer({ guided: false }).analyze(got.records[1] as LoadedRecord);
  assert.deepEqual(
    analysed.calls.map((c) => [c.name, c.arguments]),
    [['get_weather', '{"location": "Beijing"}']],
  );
  assert.match(busy.error ?? '', /Service is too busy/);
  assert.equal(importText(await readFile(at('deepseek-verifier/results.jsonl'), 'utf8')).records.length, 0, 'verdicts are no model call');

  // One character changed after the line was written: its hash no longer holds, and only that line is lost.
  const lines = text.split('\n');
  lines[2] = (lines[2] ?? '').replace('Hangzhou', 'Hangzhuo');
  const edited = importText(lines.join('\n'));
  assert.equal(edited.records.length, 3);
  assert.deepEqual(
    edited.errors.map((e) => e.line),
    [3],
  );
  assert.match(edited.errors[0]?.message ?? '', /record_hash is not the sha256 of the line/);
});

test('MiniMax-Provider-Verifier results: K2VV’s line with its validators’ verdicts kept in meta', async () => {
  const got = await loadAll(at('minimax-verifier/results.jsonl'));
  assert.equal(got.records.length, 10);
  assert.equal(got.errors.length, 0);
  assert.ok(got.records.every((r) => r.source === 'minimax-result' && r.record.meta?.source === 'minimax-verifier'));
  const sixth = got.records[5]?.record.meta;
  assert.equal(sixth?.error_only_reasoning, true);
  assert.equal(got.records[9]?.record.meta?.language_following_valid, false);
});

test('a table that is no export Toolscope reads is one error, and a Parquet file that is not one is an error, not a crash', async () => {
  const csv = join(dir, 'other.csv');
  await writeFile(csv, 'a,b\n1,2\n3,4\n');
  const got = await loadAll(csv);
  assert.equal(got.records.length, 0);
  assert.deepEqual(
    got.errors.map((e) => e.message),
    ['CSV file: line 2: not a row of a Langfuse observations export, LangSmith runs or Phoenix spans (columns: a, b)'],
  );
  const parquet = join(dir, 'broken.parquet');
  await writeFile(parquet, 'PAR1 not really');
  const broken = await loadAll(parquet);
  assert.equal(broken.records.length, 0);
  assert.match(broken.errors[0]?.message ?? '', /^Parquet file cannot be read: /);
});

test('the Langfuse importer reads no column outside LANGFUSE_OBSERVATION_COLUMNS (the Parquet reader decodes only those)', async () => {
  const lines = (await readFile(at('langfuse/observations_v2.jsonl'), 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  // Beside the fixture's rows: one whose input has no tools (tool_definitions is read) and one in the UI export's camelCase.
  const first = rows[1] as Record<string, unknown>;
  const input = JSON.parse(first.input as string) as { messages: unknown };
  rows.push({ ...first, input: JSON.stringify({ messages: input.messages }) });
  rows.push({
    id: 'g',
    traceId: 't',
    type: 'GENERATION',
    startTime: 's',
    model: 'm',
    input: input.messages,
    statusMessage: 'x',
    level: 'ERROR',
  });
  const read = new Set<string>();
  let records = 0;
  for (const [i, row] of rows.entries()) {
    const watched = new Proxy(row, {
      get: (target, key) => (typeof key === 'string' && read.add(key), Reflect.get(target, key)),
      has: (target, key) => (typeof key === 'string' && read.add(key), Reflect.has(target, key)),
    });
    records += importExportRow(watched, i + 1)?.records.length ?? 0;
  }
  assert.equal(records, 5, 'the three generations of the fixture and the two added');
  assert.ok(read.has('tool_definitions') && read.has('statusMessage'), 'the fallbacks were reached');
  const langfuseRead = [...read].filter(
    (k) => !['toolscope', 'record', 'previous_hash', 'record_hash', 'context.span_id', 'context', 'run_type'].includes(k),
  );
  assert.deepEqual(
    langfuseRead.filter((k) => !LANGFUSE_OBSERVATION_COLUMNS.has(k)),
    [],
  );
});

test('a Langfuse table is read by the importer’s columns only, other tables by all; the records are the JSONL export’s', async () => {
  const full = Object.keys(JSON.parse((await readFile(at('langfuse/observations_v2.jsonl'), 'utf8')).split('\n')[0] ?? '{}') as object);
  const picked = exportRowColumns(full) ?? [];
  assert.equal(full.length, 33);
  assert.deepEqual(
    picked.filter((c) => !LANGFUSE_OBSERVATION_COLUMNS.has(c)),
    [],
  );
  assert.ok(picked.length < 15 && !picked.includes('metadata') && !picked.includes('tool_calls'), picked.join(', '));
  assert.equal(exportRowColumns([...full, 'run_type']), undefined, 'a column another shape is told by: every column is read');
  assert.equal(exportRowColumns(['id', 'trace_id', 'type']), undefined, 'no Langfuse table');

  // The bench's generator (the documented 33 columns, JSON columns as Parquet's JSON type): the Parquet read by the
  // importer's columns gives the records the JSONL export of the same rows gives read whole.
  const { writeLangfuseObservations, writeLangfuseObservationsJsonl } = await import('../../../bench/langfuseParquet.ts');
  const parquet = join(dir, 'generated.parquet');
  const jsonl = join(dir, 'generated.jsonl');
  writeLangfuseObservations(parquet, 300);
  writeLangfuseObservationsJsonl(jsonl, 300);
  const [fromParquet, fromJsonl] = [await loadAll(parquet), await loadAll(jsonl)];
  assert.equal(fromParquet.records.length, 270);
  assert.deepEqual(fromParquet.errors, []);
  assert.deepEqual(stripLines(fromParquet.records), stripLines(fromJsonl.records));
  assert.ok(
    fromParquet.records.some((r) => r.record.error !== undefined),
    'some generations failed',
  );
});
