/**
 * End-to-end checks shared by the added formats' analysis tests: the real `Analyzer` on native records, with no
 * `--format`, and on the bundled samples/other-formats.jsonl.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Analyzer, type AnalysisOptions, type AnalyzedRecord } from '../../../../src/core/analysis.ts';
import type { DiagnosticKind } from '../../../../src/core/diagnostics/registry.ts';
import { readTraceItems } from '../../../../src/io/trace/traceIndex.ts';
import type { ChatTool, TraceRecord } from '../../../../src/core/trace/record.ts';
import { buildTokenViews } from '../../../../src/host/view/recordView.ts';

export const TOOLS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1 },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'integer', minimum: 1, maximum: 14 },
        },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'search',
      description: 'Web search',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, top_k: { type: 'integer', minimum: 1, maximum: 20 } },
        required: ['query'],
      },
    },
  },
];

export function record(fields: Partial<TraceRecord>): TraceRecord {
  return { toolscope: 1, id: 'r1', request: { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: TOOLS }, ...fields };
}

export function analyze(r: TraceRecord, options?: AnalysisOptions): AnalyzedRecord {
  return new Analyzer(options).analyze({ record: r, line: 1, lastLine: 1, source: 'native' });
}

export const kinds = (r: AnalyzedRecord): string[] => r.diagnostics.map((d) => d.kind);

/** Not a single warning or error: the record is clean. */
export function assertClean(r: AnalyzedRecord, label: string): void {
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.kind}: ${d.message}`),
    [],
    label,
  );
}

/** The timeline shows each of the format's markers in the text as one marker chip (the tokens follow the format). */
export function assertMarkerChips(r: AnalyzedRecord, markers: readonly string[]): void {
  const views = buildTokenViews(r);
  const text = r.completion?.text ?? '';
  for (const m of markers) {
    const inText = text.split(m).length - 1;
    const chips = views.filter((v) => v.text === m && (v.role === 'marker' || v.role === 'think-marker')).length;
    assert.equal(chips, inText, `${m}: ${inText} in the text, ${chips} marker tokens`);
  }
}

/** The records of one format in samples/other-formats.jsonl, analysed without options. */
export async function sampleRecords(format: string): Promise<Map<string, AnalyzedRecord>> {
  const file = fileURLToPath(new URL('../../../../samples/other-formats.jsonl', import.meta.url));
  const analyzer = new Analyzer();
  const out = new Map<string, AnalyzedRecord>();
  for await (const item of readTraceItems(file)) {
    assert.equal(item.kind, 'record', 'every line of other-formats.jsonl loads');
    if (item.kind !== 'record') continue;
    const r = analyzer.analyze(item.loaded);
    if (r.id.startsWith(`${format}-`)) out.set(r.id.slice(format.length + 1), r);
  }
  return out;
}

/** Each failure sample fires its kind; the clean sample is clean; all are in the format they declare. */
export async function checkSamples(format: string): Promise<void> {
  const records = await sampleRecords(format);
  assert.deepEqual([...records.keys()].sort(), [
    'clean-call',
    'invalid-json-arguments',
    'leak-markup-in-content',
    'schema-violation',
    'unknown-tool',
    'unterminated-call-length',
  ]);
  for (const r of records.values()) assert.equal(r.format, format, r.id);
  const clean = records.get('clean-call') as AnalyzedRecord;
  assertClean(clean, `${format}-clean-call`);
  // Delivered as written: the client got the content and reasoning the reference parse gives, and the call.
  assert.deepEqual(
    {
      content: clean.response?.content ?? null,
      reasoning: clean.response?.reasoning ?? null,
      calls: clean.response?.calls.map((c) => [c.name, c.arguments]),
    },
    { content: clean.content, reasoning: clean.reasoning, calls: clean.calls.map((c) => [c.name, c.arguments]) },
    `${format}-clean-call`,
  );
  const expect: Record<string, DiagnosticKind> = {
    'leak-markup-in-content': 'content-leak',
    'unknown-tool': 'unknown-tool',
    'schema-violation': 'schema-violation',
    'invalid-json-arguments': 'invalid-arguments-json',
    'unterminated-call-length': 'unterminated-call',
  };
  for (const [id, kind] of Object.entries(expect)) {
    const r = records.get(id) as AnalyzedRecord;
    assert.ok(kinds(r).includes(kind), `${format}-${id} should fire ${kind}; got ${kinds(r).join(', ')}`);
    assert.ok(!kinds(r).includes('marker-split'), `${format}-${id}: markers are single tokens`);
  }
}
