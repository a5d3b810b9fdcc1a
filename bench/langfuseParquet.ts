/**
 * A Langfuse observations export of N rows as Parquet (hyparquet-writer, Snappy, row groups as Langfuse's ClickHouse
 * export closes them: writeParquet), JSONL and
 * CSV, for the bench (tableImportBench.ts) and the memory-bound test.
 *
 * The full shape (`writeLangfuseObservations…`) has the 33 columns of test/fixtures/langfuse/observations_v2.jsonl —
 * the documented `observations_v2/` export (fixture README: field reference URL and commit) — with the fixture's
 * value types: text columns as STRING (nulls where the fixture has null), `bookmarked`/`public` BOOLEAN, `total_cost`
 * DOUBLE, `prompt_version` INT32, and the columns the JSONL export holds as JSON values (`metadata`, `usage_details`,
 * `cost_details`, `tags`, `tool_calls`, `tool_call_names`, `tool_definitions`) as Parquet's JSON type; `input`,
 * `output` and `model_parameters` are JSON text, as the export writes them. Rows vary as a real project's do, from a
 * seeded generator (the same file every run): UUID trace and observation ids, per-row timestamps with microseconds,
 * traces of one SPAN and 1–9 GENERATIONs (every tenth row a SPAN), multi-turn conversations with 1–4 of six tools
 * (each request in the order its SDK logs it: INPUT_ORDER below),
 * tool results fed back, usage and cost numbers, errors with their status message, and the `tool_calls` /
 * `tool_call_names` / `tool_definitions` columns Langfuse derives from `input` and `output`.
 *
 * The narrow shape (`…Narrow`) is the bench's earlier file, kept so both figures print: 9 columns, numbered ids
 * (`obs-1`, `trace-0`), one timestamp per 6,000 rows, one tool — text that compresses far better than a real export's.
 */
import { writeFileSync } from 'node:fs';
import { parquetWriteFile } from 'hyparquet-writer';
import type { BasicType } from 'hyparquet-writer';
import { seededRandom } from './seededRandom.ts';

type Cell = string | number | boolean | null | readonly unknown[] | Record<string, unknown>;

interface Column {
  name: string;
  type: BasicType;
  data: Cell[];
}

const seeded = seededRandom;

const TOOL_DEFS = [
  {
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
  {
    name: 'search_flights',
    description: 'Search one-way flights between two airports on a date',
    parameters: {
      type: 'object',
      properties: {
        origin: { type: 'string', description: 'IATA code of the departure airport' },
        destination: { type: 'string', description: 'IATA code of the arrival airport' },
        date: { type: 'string', format: 'date' },
        passengers: { type: 'integer', minimum: 1, maximum: 9 },
      },
      required: ['origin', 'destination', 'date'],
    },
  },
  {
    name: 'lookup_order',
    description: "Look up a customer's order by its number",
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{6}$' } },
      required: ['order_id'],
    },
  },
  {
    name: 'send_email',
    description: 'Send an email on behalf of the user',
    parameters: {
      type: 'object',
      properties: {
        to: { type: 'array', items: { type: 'string', format: 'email' } },
        subject: { type: 'string' },
        body: { type: 'string' },
      },
      required: ['to', 'subject', 'body'],
    },
  },
  {
    name: 'run_sql',
    description: 'Run a read-only SQL query against the analytics warehouse',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer', default: 100 } },
      required: ['query'],
    },
  },
  {
    name: 'convert_currency',
    description: 'Convert an amount between two ISO 4217 currencies at the current rate',
    parameters: {
      type: 'object',
      properties: { amount: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
      required: ['amount', 'from', 'to'],
    },
  },
] as const;

const CITIES = ['Boston, MA', 'Paris', 'Tokyo', 'São Paulo', 'Nairobi', 'Berlin', 'Reykjavík', 'Sydney', 'Toronto', 'Mumbai'];
const AIRPORTS = ['BOS', 'CDG', 'HND', 'GRU', 'NBO', 'BER', 'KEF', 'SYD', 'YYZ', 'BOM'];
const WORDS =
  'the a to of and in for is on that with as it be at by this from or have an are not was but can all your will more one about which their has'.split(
    ' ',
  );
const MODELS = ['gpt-4o-2024-08-06', 'gpt-4o-mini-2024-07-18', 'gpt-4.1-2025-04-14', 'moonshotai/Kimi-K2-Instruct'];
const TRACE_NAMES = ['weather-agent', 'travel-assistant', 'support-bot', 'analytics-copilot'];
const SYSTEM_PROMPTS = [
  'You are a helpful assistant. Use the tools when they help; answer briefly.',
  'You are a travel agent for Acme Corp. Always confirm dates and airports before booking. Never invent flight numbers.',
  'You are a customer support agent. Look orders up before answering questions about them; be polite and concise.',
  'You are an analytics copilot. Write ANSI SQL for the warehouse; never modify data.',
];

/**
 * INPUT_ORDER. A generation's `input` is the request as Langfuse's OpenAI integration logs it, and the order of its
 * members depends on the SDK (the server keeps it: it stores the SDK's text, or JSON.stringify of the object it was
 * sent): the Python SDK writes `{"tools": […], "messages": […]}` (langfuse/langfuse-python `langfuse/openai.py`,
 * `_extract_chat_prompt`, at c3c6a09e7b635730cc9c6eb661687cb7bc294532 as at 009f1cc56669345eb20bf02e946b610f7d7024c3),
 * the JS SDK `{"messages": […], "tools": […]}` (langfuse/langfuse-js `packages/openai/src/parseOpenAI.ts`,
 * `parseInputArgs`, at 0d5a8d0e9c503eacba2ef2829095bc39b5fa6da8). The traces here are three in four from the
 * Python SDK, the one Langfuse's docs lead with and the fixture follows, and one in four from the JS SDK, so the
 * bench reads both orders (the importer's quick paths for each: langfuseInput.ts). Text as JSON.stringify writes it
 * (what the server stores for an object it was sent; the Python SDK's own OTel text has `json.dumps`' spaces).
 */
const PYTHON_SHARE = 0.75;

/** The fixture's columns, in its order. */
const COLUMNS: readonly [string, BasicType][] = [
  ['project_id', 'STRING'],
  ['environment', 'STRING'],
  ['parent_observation_id', 'STRING'],
  ['end_time', 'STRING'],
  ['metadata', 'JSON'],
  ['level', 'STRING'],
  ['status_message', 'STRING'],
  ['version', 'STRING'],
  ['model_parameters', 'STRING'],
  ['usage_details', 'JSON'],
  ['cost_details', 'JSON'],
  ['completion_start_time', 'STRING'],
  ['prompt_name', 'STRING'],
  ['prompt_version', 'INT32'],
  ['total_cost', 'DOUBLE'],
  ['user_id', 'STRING'],
  ['session_id', 'STRING'],
  ['trace_name', 'STRING'],
  ['tags', 'JSON'],
  ['release', 'STRING'],
  ['bookmarked', 'BOOLEAN'],
  ['public', 'BOOLEAN'],
  ['id', 'STRING'],
  ['trace_id', 'STRING'],
  ['type', 'STRING'],
  ['name', 'STRING'],
  ['start_time', 'STRING'],
  ['provided_model_name', 'STRING'],
  ['input', 'STRING'],
  ['output', 'STRING'],
  ['tool_calls', 'JSON'],
  ['tool_call_names', 'JSON'],
  ['tool_definitions', 'JSON'],
];

/** Langfuse's timestamp text: `YYYY-MM-DD HH:MM:SS.ffffff`, UTC. */
function timestamp(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${String(micros % 1_000_000).padStart(6, '0')}`;
}

/** The full-shape rows as columns (values as the JSONL export holds them). */
function fullColumns(rows: number): Column[] {
  const random = seeded(37);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const hex = (n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(random() * 16).toString(16);
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(0, 3)]}${hex(3)}-${hex(12)}`;
  const sentence = (n: number) => {
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(pick(WORDS));
    return words.join(' ');
  };
  const argumentsFor = (tool: string): Record<string, unknown> => {
    switch (tool) {
      case 'get_weather':
        return random() < 0.5 ? { location: pick(CITIES) } : { location: pick(CITIES), unit: pick(['celsius', 'fahrenheit']) };
      case 'search_flights':
        return { origin: pick(AIRPORTS), destination: pick(AIRPORTS), date: `2026-0${int(1, 9)}-${int(10, 28)}`, passengers: int(1, 4) };
      case 'lookup_order':
        return { order_id: `${pick(['AC', 'BX', 'QZ'])}-${String(int(0, 999_999)).padStart(6, '0')}` };
      case 'send_email':
        return { to: [`user${int(1, 9999)}@example.com`], subject: sentence(int(3, 7)), body: sentence(int(20, 60)) };
      case 'run_sql':
        return {
          query: `SELECT region, sum(revenue) FROM sales WHERE day >= date '2026-0${int(1, 9)}-01' GROUP BY region`,
          limit: int(10, 500),
        };
      default:
        return { amount: int(1, 100_000) / 100, from: pick(['USD', 'EUR', 'JPY']), to: pick(['GBP', 'BRL', 'KES']) };
    }
  };

  const data = new Map<string, Cell[]>(COLUMNS.map(([name]) => [name, []]));
  const push = (name: string, value: Cell) => data.get(name)?.push(value);
  let clock = Date.UTC(2026, 6, 20, 9, 30) * 1000; // microseconds
  let traceId = '';
  let spanId = '';
  let sessionId = '';
  let userId = '';
  let traceName = '';
  let tags: string[] = [];
  let turn = 0;
  let pythonSdk = true;
  for (let i = 0; i < rows; i++) {
    const span = i % 10 === 0;
    if (span) {
      traceId = uuid();
      spanId = uuid();
      if (random() < 0.6) sessionId = uuid();
      userId = `user-${int(1, 500)}`;
      traceName = pick(TRACE_NAMES);
      tags = random() < 0.5 ? [] : [pick(['prod', 'beta', 'eval']), ...(random() < 0.3 ? ['vip'] : [])];
      turn = 0;
      pythonSdk = random() < PYTHON_SHARE;
    }
    clock += int(1_000, 3_000_000);
    const start = clock;
    const latency = int(150_000, 9_000_000);
    const model = pick(MODELS);
    const toolCount = int(1, 4);
    const tools = TOOL_DEFS.slice(0, 6).filter((_, k) => (k + i) % 6 < toolCount);
    const error = !span && random() < 0.01;
    const calls: { id: string; type: string; function: { name: string; arguments: string } }[] = [];
    let input: unknown;
    let output: unknown;
    if (span) {
      input = { question: `${sentence(int(4, 12))}?`, user: userId };
      output = '';
    } else {
      turn++;
      const messages: unknown[] = [
        { role: 'system', content: pick(SYSTEM_PROMPTS) },
        { role: 'user', content: `${sentence(int(6, 30))}? (${pick(CITIES)})` },
      ];
      // Later turns carry the earlier call and its result, as an agent loop sends them.
      for (let t = 1; t < Math.min(turn, 4); t++) {
        const tool = pick(tools).name;
        const id = `call_${hex(24)}`;
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: tool, arguments: JSON.stringify(argumentsFor(tool)) } }],
        });
        messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify({ ok: true, result: sentence(int(5, 25)) }) });
      }
      const listed = tools.map((d) => ({ type: 'function', function: d }));
      // The request as the SDK that traced it logs it (INPUT_ORDER above).
      input = pythonSdk ? { tools: listed, messages } : { messages, tools: listed };
      if (!error && random() < 0.8) {
        const n = random() < 0.15 ? 2 : 1;
        for (let c = 0; c < n; c++) {
          const tool = pick(tools).name;
          calls.push({ id: `call_${hex(24)}`, type: 'function', function: { name: tool, arguments: JSON.stringify(argumentsFor(tool)) } });
        }
        output = { role: 'assistant', content: null, tool_calls: calls };
      } else if (!error) output = { role: 'assistant', content: sentence(int(10, 80)) };
      else output = '';
    }
    const inputTokens = int(80, 4000);
    const outputTokens = span ? 0 : int(5, 600);
    const inputCost = (inputTokens * 2.5) / 1e6;
    const outputCost = (outputTokens * 10) / 1e6;

    push('project_id', 'cm0project0000000000000');
    push('environment', random() < 0.9 ? 'default' : 'staging');
    push('parent_observation_id', span ? '' : spanId);
    push('end_time', timestamp(start + latency));
    push(
      'metadata',
      span ? {} : { request_id: `req_${hex(20)}`, ls_provider: model.startsWith('gpt') ? 'openai' : 'together', attempt: int(1, 2) },
    );
    push('level', error ? 'ERROR' : random() < 0.02 ? 'WARNING' : 'DEFAULT');
    push('status_message', error ? `Error code: 429 - Rate limit reached for ${model} in organization org-${hex(8)}` : '');
    push('version', random() < 0.3 ? `v1.${int(0, 9)}.${int(0, 20)}` : '');
    push('model_parameters', span ? null : JSON.stringify({ temperature: int(0, 10) / 10, max_tokens: pick([256, 1024, 4096, 'inf']) }));
    push('usage_details', span ? {} : { input: inputTokens, output: outputTokens, total: inputTokens + outputTokens });
    push('cost_details', span ? {} : { input: inputCost, output: outputCost, total: inputCost + outputCost });
    push('completion_start_time', !span && random() < 0.4 ? timestamp(start + int(100_000, latency)) : null);
    const prompted = !span && random() < 0.25;
    push('prompt_name', prompted ? `${traceName}-system` : null);
    push('prompt_version', prompted ? int(1, 12) : null);
    push('total_cost', span ? 0 : inputCost + outputCost);
    push('user_id', userId);
    push('session_id', sessionId);
    push('trace_name', traceName);
    push('tags', tags);
    push('release', 'v1.4.2');
    push('bookmarked', random() < 0.001);
    push('public', false);
    push('id', span ? spanId : uuid());
    push('trace_id', traceId);
    push('type', span ? 'SPAN' : 'GENERATION');
    push('name', span ? 'agent-step' : 'OpenAI-generation');
    push('start_time', timestamp(start));
    push('provided_model_name', span ? null : model);
    push('input', JSON.stringify(input));
    push('output', output === '' ? '' : JSON.stringify(output));
    // What Langfuse derives from input and output: the calls as JSON text, their names, name → definition text.
    push(
      'tool_calls',
      calls.map((c) => JSON.stringify(c)),
    );
    push(
      'tool_call_names',
      calls.map((c) => c.function.name),
    );
    push('tool_definitions', span ? {} : Object.fromEntries(tools.map((d) => [d.name, JSON.stringify(d)])));
  }
  return COLUMNS.map(([name, type]) => ({ name, type, data: data.get(name) ?? [] }));
}

const NARROW_TOOLS = [{ type: 'function', function: TOOL_DEFS[0] }];

/** The bench's earlier file: 9 text columns, numbered ids, one timestamp per 6,000 rows. */
function narrowColumns(rows: number): Column[] {
  const cols: Record<string, Cell[]> = {
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
          : { messages: [{ role: 'user', content: `What's the weather like in ${city} today? (request ${i})` }], tools: NARROW_TOOLS },
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
  return Object.entries(cols).map(([name, data]) => ({ name, type: 'STRING', data }));
}

/**
 * Row groups as Langfuse has ClickHouse write them: its blob export asks for `FORMAT Parquet` with
 * `output_format_parquet_row_group_size` 1,000,000 rows and `output_format_parquet_row_group_size_bytes` 128 MiB
 * (langfuse/langfuse packages/shared/src/server/repositories/clickhouse.ts, BLOB_EXPORT_PARQUET_CLICKHOUSE_SETTINGS,
 * @ 44d304b189e267db4dfd71ff025dba69abcda089; ClickHouse's own defaults are 1,000,000 rows and 512 MiB:
 * https://clickhouse.com/docs/operations/settings/formats#output_format_parquet_row_group_size), a group closing at
 * whichever comes first, counted before compression. A row's bytes here: its text and JSON cells' UTF-8 bytes, and
 * 8 bytes a cell for the rest (numbers, and ClickHouse's offset of each string) — about ClickHouse's column sizes in
 * memory. The bench's 100,000 observations make two groups of about 50,000 rows.
 */
export const CLICKHOUSE_GROUP_ROWS = 1_000_000;
export const LANGFUSE_GROUP_BYTES = 128 * 1024 * 1024;

function clickHouseRowGroups(columns: Column[]): number[] {
  const rows = columns[0]?.data.length ?? 0;
  const groups: number[] = [];
  let inGroup = 0;
  let bytes = 0;
  for (let i = 0; i < rows; i++) {
    for (const { data } of columns) {
      const v = data[i];
      bytes +=
        8 + (typeof v === 'string' ? Buffer.byteLength(v) : v !== null && typeof v === 'object' ? Buffer.byteLength(JSON.stringify(v)) : 0);
    }
    inGroup++;
    if (inGroup === CLICKHOUSE_GROUP_ROWS || bytes >= LANGFUSE_GROUP_BYTES) {
      groups.push(inGroup);
      inGroup = 0;
      bytes = 0;
    }
  }
  if (inGroup > 0) groups.push(inGroup);
  return groups;
}

/** `groupRows`: rows a row group (the memory test's single group); by default as Langfuse's export (above). */
function writeParquet(path: string, columns: Column[], groupRows?: number): void {
  parquetWriteFile({
    filename: path,
    columnData: columns.map(({ name, type, data }) => ({ name, type, data: data as unknown[] })),
    rowGroupSize: groupRows ?? clickHouseRowGroups(columns),
  });
}

/** One object a line; JSON values as values, as the blob export's JSONL holds them. */
function writeJsonl(path: string, columns: Column[]): void {
  const rows = columns[0]?.data.length ?? 0;
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) lines.push(JSON.stringify(Object.fromEntries(columns.map((c) => [c.name, c.data[i] ?? null]))));
  writeFileSync(path, lines.join('\n') + '\n');
}

/** A header, every field quoted (RFC 4180); objects as JSON text, nulls as empty fields (the reference's CSV notes). */
function writeCsv(path: string, columns: Column[]): void {
  const rows = columns[0]?.data.length ?? 0;
  const field = (v: Cell | undefined) =>
    v === null || v === undefined ? '' : `"${(typeof v === 'object' ? JSON.stringify(v) : String(v)).replaceAll('"', '""')}"`;
  const lines = [columns.map((c) => c.name).join(',')];
  for (let i = 0; i < rows; i++) lines.push(columns.map((c) => field(c.data[i])).join(','));
  writeFileSync(path, lines.join('\n') + '\n');
}

/**
 * The documented export's 33 columns (the fixture's shape): the file the goal is about. `groupRows`: rows a
 * row group instead of Langfuse's grouping (a single group of every row: the memory test).
 */
export function writeLangfuseObservations(path: string, rows: number, groupRows?: number): void {
  writeParquet(path, fullColumns(rows), groupRows);
}

export function writeLangfuseObservationsJsonl(path: string, rows: number): void {
  writeJsonl(path, fullColumns(rows));
}

/** The same rows as Parquet, JSONL and CSV, generated once. */
export function writeLangfuseObservationsEachShape(paths: { parquet: string; jsonl: string; csv: string }, rows: number): void {
  const columns = fullColumns(rows);
  writeParquet(paths.parquet, columns);
  writeJsonl(paths.jsonl, columns);
  writeCsv(paths.csv, columns);
}

/** The bench's earlier 9-column file (see the head of this file). */
export function writeLangfuseObservationsNarrow(path: string, rows: number): void {
  writeParquet(path, narrowColumns(rows));
}
