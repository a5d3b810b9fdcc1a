/**
 * A Langfuse observations export of N rows as Parquet (hyparquet-writer, Snappy, 10,000 rows a row group), in the
 * shape of test/fixtures/langfuse/observations_v2.jsonl: every tenth row a SPAN, the others GENERATIONs with the
 * OpenAI integration's input ({messages, tools}) and parsed output, each row's text numbered so no two are alike.
 * The same rows as the blob export's JSONL and CSV too, so the bench compares the three shapes. The bench measures
 * reading them (tableImportBench.ts); a test bounds the memory the Parquet one takes.
 */
import { writeFileSync } from 'node:fs';
import { parquetWriteFile } from 'hyparquet-writer';

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Get the current weather in a given location',
      parameters: {
        type: 'object',
        properties: {
          location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        },
        required: ['location'],
      },
    },
  },
];

function observationColumns(rows: number): Record<string, string[]> {
  const cols: Record<string, string[]> = {
    id: [],
    trace_id: [],
    type: [],
    name: [],
    start_time: [],
    level: [],
    input: [],
    output: [],
    provided_model_name: [],
  };
  for (let i = 0; i < rows; i++) {
    const span = i % 10 === 0;
    const city = `City ${i}`;
    cols.id?.push(`obs-${i}`);
    cols.trace_id?.push(`trace-${Math.floor(i / 10)}`);
    cols.type?.push(span ? 'SPAN' : 'GENERATION');
    cols.name?.push(span ? 'agent-step' : 'OpenAI-generation');
    cols.start_time?.push(`2026-07-20 09:${String(Math.floor(i / 6000) % 60).padStart(2, '0')}:00.000000`);
    cols.level?.push('DEFAULT');
    cols.input?.push(
      JSON.stringify(
        span
          ? { question: `weather in ${city}?` }
          : { messages: [{ role: 'user', content: `What's the weather like in ${city} today? (request ${i})` }], tools: TOOLS },
      ),
    );
    cols.output?.push(
      span
        ? ''
        : JSON.stringify({
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: `call_${i}`, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ location: city }) } },
            ],
          }),
    );
    cols.provided_model_name?.push(span ? '' : 'gpt-4o-2024-08-06');
  }
  return cols;
}

export function writeLangfuseObservations(path: string, rows: number): void {
  const cols = observationColumns(rows);
  parquetWriteFile({
    filename: path,
    columnData: Object.entries(cols).map(([name, data]) => ({ name, data, type: 'STRING' as const })),
    rowGroupSize: 10_000,
  });
}

/** The same rows as the blob export's JSONL: one object a line, `input` and `output` as JSON text. */
export function writeLangfuseObservationsJsonl(path: string, rows: number): void {
  const cols = observationColumns(rows);
  const names = Object.keys(cols);
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) lines.push(JSON.stringify(Object.fromEntries(names.map((n) => [n, cols[n]?.[i] ?? '']))));
  writeFileSync(path, lines.join('\n') + '\n');
}

/** The same rows as the blob export's CSV: a header, every field quoted (RFC 4180). */
export function writeLangfuseObservationsCsv(path: string, rows: number): void {
  const cols = observationColumns(rows);
  const names = Object.keys(cols);
  const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
  const lines = [names.join(',')];
  for (let i = 0; i < rows; i++) lines.push(names.map((n) => quote(cols[n]?.[i] ?? '')).join(','));
  writeFileSync(path, lines.join('\n') + '\n');
}
