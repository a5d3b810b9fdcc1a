/**
 * Writes samples/: realistic traces of an assistant with weather, web search, calendar, email, file and
 * database tools, in every trace shape Toolscope reads, with one record (at least) for each failure it finds.
 * Deterministic: `npx tsx scripts/generate-samples.ts` rewrites the same bytes; a test checks they are current.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KimiSplitter } from '../src/core/tokens/kimiSplitter.ts';

const S = '<|tool_calls_section_begin|>';
const E = '<|tool_calls_section_end|>';
const B = '<|tool_call_begin|>';
const A = '<|tool_call_argument_begin|>';
const C = '<|tool_call_end|>';
const call = (id: string, args: unknown) => `${B}${id}${A}${typeof args === 'string' ? args : JSON.stringify(args)}${C}`;
const section = (...calls: string[]) => `${S}${calls.join('')}${E}`;

type Json = Record<string, unknown>;

const tool = (name: string, description: string, parameters: Json) => ({ type: 'function', function: { name, description, parameters } });

const TOOLS = {
  weather: tool('get_weather', 'Current weather for a city.', {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city'],
    additionalProperties: false,
  }),
  search: tool('search_web', 'Search the web and return the top results.', {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      max_results: { type: 'integer', minimum: 1, maximum: 20 },
      filters: { type: 'object', properties: { site: { type: 'string' }, since: { type: 'string', format: 'date' } }, additionalProperties: false },
    },
    required: ['query'],
  }),
  calendar: tool('create_calendar_event', 'Create a calendar event.', {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1 },
      start: { type: 'string', format: 'date-time' },
      duration_minutes: { type: 'integer', minimum: 5, maximum: 240 },
      attendees: { type: 'array', items: { type: 'string', format: 'email' } },
    },
    required: ['title', 'start', 'duration_minutes'],
    additionalProperties: false,
  }),
  email: tool('send_email', 'Send an email.', {
    type: 'object',
    properties: { to: { type: 'string', format: 'email' }, subject: { type: 'string' }, body: { type: 'string' } },
    required: ['to', 'subject', 'body'],
  }),
  readFile: tool('read_file', 'Read a text file from the workspace.', {
    type: 'object',
    properties: { path: { type: 'string' }, max_lines: { type: 'integer', minimum: 1 } },
    required: ['path'],
  }),
  sql: tool('query_database', 'Run a read-only SQL query.', {
    type: 'object',
    properties: { sql: { type: 'string' }, database: { type: 'string', enum: ['analytics', 'billing'] } },
    required: ['sql', 'database'],
  }),
};
const ALL_TOOLS = Object.values(TOOLS);

const splitter = new KimiSplitter();

/** Recorded tokens for a completion: the splitter's pieces with stable made-up ids and logprobs. */
function recordedTokens(text: string): Array<{ id: number; text: string; logprob: number }> {
  let h = 17;
  return splitter.tokenize(text).map((t) => {
    for (const ch of t.text) h = (h * 31 + ch.charCodeAt(0)) % 150_000;
    return { id: t.id ?? 1000 + h, text: t.text, logprob: t.special ? -0.0001 : -Math.round(((h % 997) / 997) * 250) / 100 };
  });
}

const request = (content: string, tools: unknown[] = ALL_TOOLS, extra: Json = {}) => ({
  model: 'kimi-k2-instruct-0905',
  messages: [
    { role: 'system', content: 'You are a helpful assistant for the Acme operations team. Use the tools when they help.' },
    { role: 'user', content },
  ],
  tools,
  tool_choice: 'auto',
  temperature: 0.6,
  max_tokens: 1024,
  ...extra,
});

const chunk = (delta: Json, finish: string | null = null) => ({ id: 'chatcmpl-7f3a', object: 'chat.completion.chunk', created: 1760000000, model: 'kimi-k2-instruct-0905', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const stream = (deltas: Json[], finish: string) => [chunk({ role: 'assistant', content: '' }), ...deltas.map((d) => chunk(d)), chunk({}, finish)];
const tc = (index: number, id: string | null, name: string | null, args: string) => ({ tool_calls: [{ index, ...(id ? { id, type: 'function' } : {}), function: { ...(name ? { name } : {}), arguments: args } }] });
const completion = (content: string | null, calls: Array<[string, string, string]>, finish: string) => ({
  id: 'chatcmpl-91bc',
  object: 'chat.completion',
  created: 1760000100,
  model: 'kimi-k2-instruct-0905',
  choices: [{ index: 0, message: { role: 'assistant', content, ...(calls.length ? { tool_calls: calls.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: args } })) } : {}) }, finish_reason: finish }],
  usage: { prompt_tokens: 812, completion_tokens: 64, total_tokens: 876 },
});

const meta = (note: string, extra: Json = {}) => ({ source: 'vllm-capture', endpoint: 'staging-vllm', model: 'kimi-k2-instruct-0905', parser: 'kimi_k2', note, ...extra });

function native(id: string, fields: Json): Json {
  return { toolscope: 1, id, ...fields };
}

function rawCompletions(): Json[] {
  const weatherArgs = '{"city": "Lisbon", "unit": "celsius"}';
  const single = `I'll check the current weather in Lisbon. ${section(call('functions.get_weather:0', weatherArgs))}`;
  const parallel = `Let me gather all three at once. ${section(
    call('functions.get_weather:0', { city: 'Berlin' }),
    call('functions.search_web:1', { query: 'Berlin U-Bahn strike schedule', max_results: 5, filters: { since: '2025-10-01' } }),
    call('functions.create_calendar_event:2', { title: 'Berlin site visit', start: '2025-11-03T09:00:00+01:00', duration_minutes: 90, attendees: ['lena@acme.example', 'omar@acme.example'] }),
  )}`;
  const leakText = `I'll search for the incident report. ${section(call('functions.search_web:0', { query: 'acme status page incident 2025-10-14' }))}`;
  const dropText = `Checking both cities. ${section(call('functions.get_weather:0', { city: 'Oslo' }), call('functions.get_weather:1', { city: 'Bergen' }))}`;
  const multilineArgs = '{\n  "sql": "SELECT region, SUM(amount)\\nFROM invoices\\nGROUP BY region",\n  "database": "billing"\n}';
  const mismatchText = `Running the revenue query. ${section(call('functions.query_database:0', multilineArgs))}`;
  const splitTokens = [
    { id: 3001, text: 'Let me look at the config. ', logprob: -0.31 },
    { id: 3002, text: '<|tool_calls_', logprob: -1.2 },
    { id: 3003, text: 'section_', logprob: -0.01 },
    { id: 3004, text: 'begin|>', logprob: -0.01 },
    { id: 163597, text: B, logprob: -0.0001 },
    { id: 3005, text: 'functions.read_file:0', logprob: -0.05 },
    { id: 163598, text: A, logprob: -0.0001 },
    { id: 3006, text: '{"path": "deploy/vllm.yaml"}', logprob: -0.4 },
    { id: 163599, text: C, logprob: -0.0001 },
    { id: 163596, text: E, logprob: -0.0001 },
  ];
  return [
    native('clean-single-call', {
      request: request('What is the weather in Lisbon right now?'),
      completion: { text: single, tokens: recordedTokens(single), finish_reason: 'stop' },
      response: stream([{ content: "I'll check the current weather in Lisbon. " }, tc(0, 'functions.get_weather:0', 'get_weather', ''), tc(0, null, null, '{"city": "Lisbon", '), tc(0, null, null, '"unit": "celsius"}')], 'tool_calls'),
      meta: meta('A clean single call: raw completion with recorded tokens and logprobs, and the stream the client received.'),
    }),
    native('clean-parallel-calls', {
      request: request('Plan my Berlin visit next Monday: weather, any transit strikes, and put a 90 minute site visit at 9am with Lena and Omar.'),
      completion: { text: parallel, finish_reason: 'stop' },
      response: completion('Let me gather all three at once. ', [
        ['functions.get_weather:0', 'get_weather', '{"city":"Berlin"}'],
        ['functions.search_web:1', 'search_web', '{"query":"Berlin U-Bahn strike schedule","max_results":5,"filters":{"since":"2025-10-01"}}'],
        ['functions.create_calendar_event:2', 'create_calendar_event', '{"title":"Berlin site visit","start":"2025-11-03T09:00:00+01:00","duration_minutes":90,"attendees":["lena@acme.example","omar@acme.example"]}'],
      ], 'tool_calls'),
      meta: meta('Three parallel calls, all valid, delivered whole.'),
    }),
    native('leak-marker-in-content', {
      request: request('Find the incident report from October 14th.'),
      completion: { text: leakText, finish_reason: 'stop' },
      response: stream([{ content: "I'll search for the incident report. " }, { content: '<|tool_call_begin|> functions.search_web:0 <|tool_call_argument_begin|>' }, { content: '{"query": "acme status page incident 2025-10-14"}' }], 'stop'),
      meta: meta('Content arrived in the same delta as the section marker: the parser streamed the markup and arguments as content (vLLM parser-fixes issue 5); the call is lost.'),
    }),
    native('empty-content-deltas', {
      request: request('Weather in Reykjavik?'),
      completion: { text: `${section(call('functions.get_weather:0', { city: 'Reykjavik' }))}`, finish_reason: 'stop' },
      response: stream([{ content: '' }, { content: '' }, tc(0, 'functions.get_weather:0', 'get_weather', '{"city": "Reykjavik"}')], 'tool_calls'),
      meta: meta('The server returned DeltaMessage(content="") between the section begin and the first call; clients show "(no content)".'),
    }),
    native('hallucinated-tool', {
      request: request('How is ACME stock doing today?'),
      completion: { text: `Let me pull the latest price. ${section(call('functions.get_stock_price:0', { ticker: 'ACME' }))}`, finish_reason: 'stop' },
      meta: meta('The model called get_stock_price, which the request never offered.'),
    }),
    native('truncated-json-arguments', {
      request: request('Search for the latest vLLM release notes.'),
      completion: { text: `${section(call('functions.search_web:0', '{"query": "vLLM release notes", "max_results": 5'))}`, finish_reason: 'stop' },
      meta: meta('Arguments missing their closing brace: not JSON.'),
    }),
    native('schema-violations', {
      request: request('Book a four hour design review tomorrow at 2pm and email the agenda to Alice.'),
      completion: {
        text: `Booking it and sending the agenda. ${section(
          call('functions.create_calendar_event:0', { start: '2025-11-04T14:00:00Z', duration_minutes: 600, location: 'Room 4' }),
          call('functions.send_email:1', { to: 'alice-at-acme', subject: 'Design review agenda', body: '1. Goals\n2. Open questions' }),
        )}`,
        finish_reason: 'stop',
      },
      meta: meta('Missing title, a 600-minute duration (max 240), an undeclared property, and an address that is not an email (format: a warning).'),
    }),
    native('bad-call-id', {
      request: request('Search for vLLM Kimi K2 tool parser issues.'),
      completion: { text: `${section(call('search_web:2', { query: 'vLLM kimi_k2 tool parser issue' }))}`, finish_reason: 'stop' },
      meta: meta('An id without the functions. prefix (search_web:2), as old histories taught the model.'),
    }),
    native('duplicate-call-index', {
      request: request('Weather in Rome and in Milan?'),
      completion: { text: `${section(call('functions.get_weather:1', { city: 'Rome' }), call('functions.get_weather:1', { city: 'Milan' }))}`, finish_reason: 'stop' },
      meta: meta('Two calls share index 1: their results cannot be told apart.'),
    }),
    native('missing-section-markers', {
      request: request('What is the weather in Athens?'),
      completion: { text: `Sure. ${call('functions.get_weather:0', { city: 'Athens' })} I will report back.`, finish_reason: 'stop' },
      meta: meta('A call with no section begin or end around it; vLLM returns plain text here.'),
    }),
    native('marker-split-across-tokens', {
      request: request('Show me the vLLM deploy config.'),
      completion: { text: splitTokens.map((t) => t.text).join(''), tokens: splitTokens, finish_reason: 'stop' },
      meta: meta('The section begin marker arrived as three text tokens: a parser matching token ids misses it.'),
    }),
    native('call-inside-think', {
      request: request('Search the web for Kimi K2 benchmarks.'),
      completion: { text: `<think>The user wants benchmarks. ${section(call('functions.search_web:0', { query: 'Kimi K2 benchmarks' }))}</think>Let me search for that.`, finish_reason: 'stop' },
      meta: meta('The call was written inside the think block: the reasoning parser swallowed it.'),
    }),
    native('raw-fallback-call', {
      request: request('Open deploy/notes.md'),
      completion: { text: `I'll read the file. functions.read_file:0 {"path": "deploy/notes.md"}`, finish_reason: 'stop' },
      meta: meta('The call written as plain text, without special tokens (parser-fixes issue 10).'),
    }),
    native('unterminated-call-length', {
      request: request('Email the Q3 summary to finance.', ALL_TOOLS, { max_tokens: 48 }),
      completion: { text: `${S}${B}functions.send_email:0${A}{"to": "finance@acme.example", "subject": "Q3 summary", "body": "Hi team,\n\nRevenue for Q3 came in at`, finish_reason: 'length' },
      meta: meta('max_tokens ran out inside the arguments.'),
    }),
    native('newline-after-call-begin', {
      request: request('Weather in Tallinn?'),
      completion: { text: `Checking. ${S}\n${B}\nfunctions.get_weather:0 ${A} {"city": "Tallinn"} ${C}\n${E}`, finish_reason: 'stop' },
      meta: meta('Newlines and spaces around markers; a newline right after <|tool_call_begin|> made vLLM (Dec 2025–Apr 2026) stream no call.'),
    }),
    native('dropped-call', {
      request: request('Weather in Oslo and Bergen?'),
      completion: { text: dropText, finish_reason: 'stop' },
      response: stream([{ content: 'Checking both cities. ' }, tc(0, 'functions.get_weather:0', 'get_weather', '{"city": "Oslo"}')], 'tool_calls'),
      meta: meta('The second call began and ended within one delta and vLLM dropped it.'),
    }),
    native('arguments-cut-at-newline', {
      request: request('Revenue by region from billing, please.'),
      completion: { text: mismatchText, finish_reason: 'stop' },
      response: stream([{ content: 'Running the revenue query. ' }, tc(0, 'functions.query_database:0', 'query_database', '{')], 'tool_calls'),
      meta: meta('Streamed arguments stopped at the first newline of multi-line JSON.'),
    }),
    native('finish-reason-stop-with-calls', {
      request: request('Weather in Madrid?'),
      response: completion(null, [['functions.get_weather:0', 'get_weather', '{"city":"Madrid"}']], 'stop'),
      meta: meta('A call delivered with finish_reason "stop": the agent loop never ran it.'),
    }),
    native('tool-call-with-choice-none', {
      request: request('Just tell me: is it usually rainy in London in November?', ALL_TOOLS, { tool_choice: 'none' }),
      completion: { text: `${section(call('functions.get_weather:0', { city: 'London' }))}`, finish_reason: 'stop' },
      meta: meta('tool_choice was "none" but the model called a tool.'),
    }),
    native('described-not-called', {
      request: request('Find out whether the Hamburg office is open on Friday.'),
      response: completion("I'll search the web for the Hamburg office holiday schedule and let you know.", [], 'stop'),
      meta: meta('The agent said it would search, then stopped without a call (parser-fixes issue 12).'),
    }),
    native('required-but-not-called', {
      request: request('Get me the weather in Vienna.', ALL_TOOLS, { tool_choice: 'required' }),
      response: completion('Vienna is usually mild this time of year.', [], 'stop'),
      meta: meta('tool_choice "required" and no call: an error.'),
    }),
    native('text-inside-section', {
      request: request('Weather in Prague and Brno?'),
      completion: { text: `${S}${call('functions.get_weather:0', { city: 'Prague' })} and then ${call('functions.get_weather:1', { city: 'Brno' })}${E}`, finish_reason: 'stop' },
      meta: meta('Text between two calls inside the section.'),
    }),
    native('prompt-without-generation-prompt', {
      request: request('Weather in Lyon?'),
      prompt: `<|im_system|>system<|im_middle|>You are a helpful assistant.<|im_end|><|im_user|>user<|im_middle|>Weather in Lyon?<|im_end|><|im_assistant|>assistant<|im_middle|>[{'type': 'text', 'text': ''}]<|im_end|>`,
      completion: { text: '<|im_user|>user<|im_middle|>Also Paris?', finish_reason: 'stop' },
      meta: meta('Rendered without add_generation_prompt by the pre-fix 0905 template: the model continues the user turn, and empty content was printed as a Python list.'),
    }),
    native('think-opened-by-template', {
      request: request('Weather in Zurich?'),
      completion: { text: `The user asks for the weather in Zurich; one call.</think>On it. ${section(call('functions.get_weather:0', { city: 'Zurich' }))}`, finish_reason: 'stop' },
      meta: meta('A K2.6-style template put <think> in the prompt, so the completion opens with reasoning and a bare </think>.'),
    }),
  ];
}

function k2vvRequests(): Json[] {
  return [
    { model: 'kimi-k2-0905', messages: [{ role: 'user', content: 'What will the weather be like in Chengdu tomorrow?' }], tools: [TOOLS.weather], max_tokens: 4096, temperature: 0.6, stream: false },
    { model: 'kimi-k2-0905', messages: [{ role: 'system', content: '你是一个乐于助人的助手。' }, { role: 'user', content: '帮我搜索一下最新的 vLLM 版本说明。' }], tools: [TOOLS.search], max_tokens: 4096, temperature: 0.6, stream: false },
    {
      model: 'kimi-k2-0905',
      messages: [
        { role: 'user', content: 'Find cheap flights to Tokyo.' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'search_web:0', type: 'function', function: { name: 'search_web', arguments: '{"query": "cheap flights Tokyo"}' } }] },
        { role: 'tool', tool_call_id: 'search_web:0', name: 'search_web', content: '[{"title": "Tokyo from 420 EUR", "url": "https://flights.example/tyo"}]' },
      ],
      tools: [TOOLS.search],
      max_tokens: 4096,
      temperature: 0.6,
      stream: false,
    },
    { model: 'kimi-k2-0905', messages: [{ role: 'user', content: 'Write a haiku about autumn.' }], tools: [TOOLS.weather, TOOLS.search], max_tokens: 4096, temperature: 0.6, stream: false },
  ];
}

function k2vvResults(): Json[] {
  const requests = k2vvRequests();
  const result = (i: number, response: Json, finish: string | null, valid: boolean | null, status = 'success') => ({
    data_index: i + 1,
    request: requests[i % requests.length],
    response,
    status,
    finish_reason: finish,
    tool_calls_valid: valid,
    last_run_at: '2025-10-20 10:15:00',
    duration_ms: 1800 + i * 137,
    hash: `sample${i}`.padEnd(32, '0'),
  });
  return [
    result(0, completion('', [['functions.get_weather:0', 'get_weather', '{"city": "Chengdu"}']], 'tool_calls'), 'tool_calls', true),
    result(1, completion('', [['functions.search_web:0', 'search_web', '{"query": "vLLM release notes", "max_results": 50}']], 'tool_calls'), 'tool_calls', false),
    result(2, completion('I found a fare from 420 EUR on flights.example.', [], 'stop'), 'stop', null),
    result(3, completion('Crisp maple leaves fall / ...', [], 'length'), 'length', null),
    { ...result(4, {}, null, null, 'failed'), response: { error: "Error code: 429 - {'error': {'message': 'rate limited upstream, retry shortly', 'code': 429}}" } },
  ];
}

function openAiCompletions(): Json[] {
  return [
    completion(null, [['chatcmpl-tool-4b1d9e', 'get_weather', '{"city": "Seoul"}']], 'tool_calls'),
    completion('The Seoul forecast is 12°C and clear.', [], 'stop'),
    completion(null, [['functions.web.search:0', 'search', '{"query": "kimi k2"}']], 'tool_calls'),
  ];
}

function sseDump(): string {
  const s1 = stream([{ content: 'Let me check. ' }, tc(0, 'functions.get_weather:0', 'get_weather', '{"city":'), tc(0, null, null, ' "Nairobi"}')], 'tool_calls').map((c) => ({ ...c, id: 'chatcmpl-stream-a' }));
  const s2 = stream([{ content: 'Looking it up ' }, { content: '<|tool_calls_section_begin|>' }, { content: '<|tool_call_begin|>functions.search_web:0' }], 'stop').map((c) => ({ ...c, id: 'chatcmpl-stream-b' }));
  return [...s1.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n', ...s2.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n'].join('');
}

function completionsLogprobs(): Json[] {
  const text1 = `Checking the forecast. ${section(call('functions.get_weather:0', { city: 'Lima' }))}`;
  const t1 = recordedTokens(text1);
  const text2 = `${section(call('functions.search_web:0', { query: 'Kimi K2 guided decoding' }))}`;
  const t2 = recordedTokens(text2);
  const lp = (tokens: Array<{ id: number; text: string; logprob: number }>, asIds: boolean) => ({
    tokens: tokens.map((t) => (asIds ? `token_id:${t.id}` : t.text)),
    token_logprobs: tokens.map((t) => t.logprob),
    top_logprobs: tokens.map((t) => ({ [asIds ? `token_id:${t.id}` : t.text]: t.logprob })),
    text_offset: tokens.reduce<number[]>((acc, t, i) => (acc.push(i === 0 ? 0 : (acc[i - 1] as number) + (tokens[i - 1] as { text: string }).text.length), acc), []),
  });
  return [
    { id: 'cmpl-1a2b', object: 'text_completion', created: 1760000200, model: 'kimi-k2-instruct-0905', choices: [{ index: 0, text: text1, logprobs: lp(t1, false), finish_reason: 'stop' }] },
    { id: 'cmpl-3c4d', object: 'text_completion', created: 1760000300, model: 'kimi-k2-instruct-0905', choices: [{ index: 0, text: text2, logprobs: lp(t2, true), finish_reason: 'stop' }] },
  ];
}

function malformed(): string {
  const good = native('good-before-bad-lines', { request: request('Weather in Dublin?'), completion: { text: section(call('functions.get_weather:0', { city: 'Dublin' })), finish_reason: 'stop' } });
  const good2 = native('good-after-bad-lines', { request: request('Weather in Cork?'), completion: { text: section(call('functions.get_weather:0', { city: 'Cork' })), finish_reason: 'stop' } });
  return [JSON.stringify(good), 'this line is a log message, not JSON', JSON.stringify({ level: 'info', msg: 'request finished', duration_ms: 123 }), JSON.stringify(good2), '{"toolscope": 1, "id": "cut-off-while-writing", "completion": {"text": "Let me'].join('\n');
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

export function generateSamples(): Record<string, string> {
  return {
    'kimi-k2-raw-completions.jsonl': jsonl(rawCompletions()),
    'k2vv-requests.jsonl': jsonl(k2vvRequests()),
    'k2vv-results.jsonl': jsonl(k2vvResults()),
    'openai-chat-completions.jsonl': jsonl(openAiCompletions()),
    'vllm-stream.sse.jsonl': sseDump(),
    'completions-logprobs.jsonl': jsonl(completionsLogprobs()),
    'malformed-lines.jsonl': malformed(),
  };
}

if (require.main === module) {
  const dir = join(__dirname, '..', 'samples');
  for (const [name, content] of Object.entries(generateSamples())) writeFileSync(join(dir, name), content);
  process.stdout.write(`wrote ${Object.keys(generateSamples()).length} files to samples/\n`);
}
