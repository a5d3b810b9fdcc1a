/**
 * Writes samples/: traces of an operations assistant (weather, web search, calendar, email, file and database
 * tools with real JSON schemas) in every trace shape Toolscope reads, with at least one record for each failure
 * it finds. All text is made up for Toolscope; the failures are modelled on real vLLM Kimi K2 parser bugs.
 *
 * Deterministic: no randomness, no clock. Ids, token ids, logprobs and hashes derive from fixed strings, so
 * `npx tsx scripts/generate-samples.ts` rewrites the same bytes; test/samples.test.ts checks they are current.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { k2vvRequestHash } from '../src/host/eval/pythonJson.ts';
import { GLM_SAMPLE_MODEL, glmSampleCalls } from '../test/fixtures/glm/glmSamples.ts';
import { DSML_SAMPLE_MODEL, dsmlSampleCalls } from '../test/fixtures/deepseekDsml/dsmlSamples.ts';
import { KIMI_K3_SAMPLE_MODEL, kimiK3SampleCalls } from '../test/fixtures/kimiK3/kimiK3Samples.ts';
import { SEED_OSS_SAMPLE_MODEL, seedOssSampleCalls } from '../test/fixtures/seedOss/seedOssSamples.ts';
import { HY3_SAMPLE_MODEL, hy3SampleCalls } from '../test/fixtures/hy3/hy3Samples.ts';
import { MINIMAX_M2_SAMPLE_MODEL, minimaxM2SampleCalls } from '../test/fixtures/minimax/minimaxSamples.ts';
import { MINIMAX_M3_SAMPLE_MODEL, minimaxM3SampleCalls } from '../test/fixtures/minimaxM3/minimaxM3Samples.ts';
import {
  LFM2_SAMPLE_MODEL,
  PYTHONIC_SAMPLE_MODEL,
  lfm2SampleCalls,
  pythonicSampleCalls,
} from '../test/fixtures/pythonic/pythonicSamples.ts';
import {
  FUNCTION_GEMMA_SAMPLE_MODEL,
  GEMMA4_SAMPLE_MODEL,
  functionGemmaSampleCalls,
  gemma4SampleCalls,
} from '../test/fixtures/gemma4/gemma4Samples.ts';
import { MISTRAL_SAMPLE_MODEL, mistralSampleCalls } from '../test/fixtures/mistral/mistralSamples.ts';
import { GRANITE_SAMPLE_MODEL, graniteSampleCalls } from '../test/fixtures/granite/graniteSamples.ts';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------------
// Kimi K2 markup

const S = '<|tool_calls_section_begin|>';
const E = '<|tool_calls_section_end|>';
const B = '<|tool_call_begin|>';
const A = '<|tool_call_argument_begin|>';
const C = '<|tool_call_end|>';
const args = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const call = (id: string, value: unknown) => `${B}${id}${A}${args(value)}${C}`;
const section = (...calls: string[]) => `${S}${calls.join('')}${E}`;

// ---------------------------------------------------------------------------------------------------------------
// Deterministic "randomness": FNV-1a over fixed seeds

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // murmur3's finaliser, so that neighbouring seeds give unrelated values.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hex(seed: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += fnv(`${seed}#${i}`).toString(16).padStart(8, '0');
  return out.slice(0, length);
}

function alnum(seed: string, length: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; out.length < length; i++) out += chars[fnv(`${seed}@${i}`) % chars.length];
  return out;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000 || 0;

// ---------------------------------------------------------------------------------------------------------------
// Tools

const tool = (name: string, description: string, parameters: Json) => ({ type: 'function', function: { name, description, parameters } });

const TOOLS = {
  weather: tool('get_weather', 'Current weather for a city.', {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1, description: 'City name, e.g. "Lisbon".' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
    },
    required: ['city'],
    additionalProperties: false,
  }),
  search: tool('search_web', 'Search the web and return the top results.', {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      max_results: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
      filters: {
        type: 'object',
        properties: { site: { type: 'string', description: 'Restrict to one domain.' }, since: { type: 'string', format: 'date' } },
        additionalProperties: false,
      },
    },
    required: ['query'],
  }),
  calendar: tool('create_calendar_event', "Create an event in the user's calendar.", {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1 },
      start: { type: 'string', format: 'date-time' },
      duration_minutes: { type: 'integer', minimum: 5, maximum: 240 },
      attendees: { type: 'array', items: { type: 'string', format: 'email' }, uniqueItems: true },
    },
    required: ['title', 'start', 'duration_minutes'],
    additionalProperties: false,
  }),
  email: tool('send_email', "Send an email from the user's account.", {
    type: 'object',
    properties: {
      to: { type: 'string', format: 'email' },
      subject: { type: 'string', maxLength: 200 },
      body: { type: 'string' },
      cc: { type: 'array', items: { type: 'string', format: 'email' } },
    },
    required: ['to', 'subject', 'body'],
    additionalProperties: false,
  }),
  readFile: tool('read_file', 'Read a text file from the workspace.', {
    type: 'object',
    properties: { path: { type: 'string' }, max_lines: { type: 'integer', minimum: 1, maximum: 2000 } },
    required: ['path'],
  }),
  sql: tool('query_database', 'Run a read-only SQL query.', {
    type: 'object',
    properties: { sql: { type: 'string' }, database: { type: 'string', enum: ['analytics', 'billing'] } },
    required: ['sql', 'database'],
    additionalProperties: false,
  }),
};
const ALL_TOOLS = Object.values(TOOLS);

// ---------------------------------------------------------------------------------------------------------------
// Recorded tokens: real ids for special tokens, stable made-up ids (≥ 1000) for text

interface SampleToken {
  id: number;
  text: string;
  logprob: number;
  top?: Array<{ id: number; text: string; logprob: number }>;
}

/**
 * The generator's own splitter, so the samples do not change when src/core/tokens does: special tokens with their
 * real Kimi ids, and the text between them cut the way a GPT-style pre-tokenizer cuts it (words with their leading
 * space, digit runs, punctuation runs, whitespace).
 */
const SPECIAL_IDS: Record<string, number> = {
  '<|im_end|>': 163586,
  '<|im_user|>': 163587,
  '<|im_assistant|>': 163588,
  '<|im_system|>': 163594,
  [S]: 163595,
  [E]: 163596,
  [B]: 163597,
  [A]: 163598,
  [C]: 163599,
  '<|im_middle|>': 163601,
  '<think>': 163606,
  '</think>': 163607,
};
const SPECIAL = new RegExp(
  Object.keys(SPECIAL_IDS)
    .map((t) => t.replace(/[|]/g, '\\|'))
    .join('|'),
  'g',
);
const PIECE = /'(?:s|t|re|ve|m|ll|d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

function split(text: string): Array<{ text: string; id?: number }> {
  const out: Array<{ text: string; id?: number }> = [];
  const pushText = (t: string) => {
    for (const m of t.matchAll(PIECE)) out.push({ text: m[0] });
  };
  let last = 0;
  for (const m of text.matchAll(SPECIAL)) {
    pushText(text.slice(last, m.index));
    out.push({ text: m[0], id: SPECIAL_IDS[m[0]] });
    last = m.index + m[0].length;
  }
  pushText(text.slice(last));
  if (out.map((t) => t.text).join('') !== text) throw new Error('splitter lost text');
  return out;
}

const textId = (text: string) => 1000 + (fnv(text) % 160_000);
const ALTERNATIVES = ['I', ' the', '{"', 'functions', ' Let', ',', ' to', '"', ' Sure', '\n'];

function recordedTokens(text: string, withTop = false): SampleToken[] {
  return split(text).map((t, i) => {
    const h = fnv(`${t.text}@${i}`);
    const logprob =
      t.id !== undefined ? -round4((h % 10) / 10_000) : h % 11 === 0 ? -round4(0.6 + (h % 180) / 100) : -round4((h % 300) / 1000);
    const token: SampleToken = { id: t.id ?? textId(t.text), text: t.text, logprob };
    if (withTop) {
      const alt = ALTERNATIVES.filter((a) => a !== t.text)[h % (ALTERNATIVES.length - 1)] as string;
      token.top = [
        { id: token.id, text: t.text, logprob },
        { id: textId(alt), text: alt, logprob: round4(logprob - 1.2 - (h % 250) / 100) },
      ];
    }
    return token;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Requests and responses

const MODEL = 'kimi-k2-instruct-0905';
const SYSTEM = 'You are the Acme operations assistant. Use the tools to act; do not describe what you would do. Today is 2025-10-21.';

const request = (content: string, tools: unknown[] = ALL_TOOLS, extra: Json = {}) => ({
  model: MODEL,
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content },
  ],
  tools,
  tool_choice: 'auto',
  temperature: 0.6,
  max_tokens: 1024,
  ...extra,
});

type Call = [id: string, name: string, arguments: string];

const chunkOf =
  (streamId: string, created: number) =>
  (delta: Json, finish: string | null = null) => ({
    id: streamId,
    object: 'chat.completion.chunk',
    created,
    model: MODEL,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

/** A stream as vLLM sends it: a role chunk with content "", the deltas, and a last chunk with the finish reason. */
function stream(seed: string, deltas: Json[], finish: string, created = 1_761_040_000): Json[] {
  const chunk = chunkOf(`chatcmpl-${hex(seed, 32)}`, created);
  return [chunk({ role: 'assistant', content: '' }), ...deltas.map((d) => chunk(d)), chunk({}, finish)];
}

const content = (text: string) => ({ content: text });
const tcStart = (index: number, id: string, name: string, argumentsText = '') => ({
  tool_calls: [{ index, id, type: 'function', function: { name, arguments: argumentsText } }],
});
const tcArgs = (index: number, argumentsText: string) => ({ tool_calls: [{ index, function: { arguments: argumentsText } }] });

function chatCompletion(seed: string, text: string | null, calls: Call[], finish: string, created = 1_761_040_000): Json {
  const promptTokens = 900 + (fnv(seed) % 400);
  const completionTokens = 20 + (fnv(`${seed}/c`) % 80);
  return {
    id: `chatcmpl-${hex(seed, 32)}`,
    object: 'chat.completion',
    created,
    model: MODEL,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          ...(calls.length
            ? { tool_calls: calls.map(([id, name, a]) => ({ id, type: 'function', function: { name, arguments: a } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Native records (kimi-k2-raw-completions.jsonl)

let minute = 0;
function native(
  id: string,
  note: string,
  fields: { request?: Json; prompt?: string; completion?: Json; response?: unknown },
  metaExtra: Json = {},
): Json {
  const created = `2025-10-21T09:${String(minute++).padStart(2, '0')}:00Z`;
  const req =
    fields.request && fields.response !== undefined ? { ...fields.request, stream: Array.isArray(fields.response) } : fields.request;
  return {
    toolscope: 1,
    id,
    ...(req ? { request: req } : {}),
    ...(fields.prompt !== undefined ? { prompt: fields.prompt } : {}),
    ...(fields.completion ? { completion: fields.completion } : {}),
    ...(fields.response !== undefined ? { response: fields.response } : {}),
    meta: { source: 'vllm-capture', endpoint: 'staging-vllm', model: MODEL, parser: 'kimi_k2', guided: false, created, note, ...metaExtra },
  };
}

/** The ids of the records that must analyse without an error or warning. */
export const CLEAN_RECORD_IDS = ['clean-single-call', 'clean-parallel-calls'];

function rawCompletions(): Json[] {
  minute = 0;
  const records: Json[] = [];
  const add = (r: Json) => records.push(r);

  // 1. A clean single call, with tokens, logprobs and top alternatives, and the stream the client received.
  {
    const text = `I'll check the current weather in Lisbon. ${section(call('functions.get_weather:0', '{"city": "Lisbon", "unit": "celsius"}'))}`;
    add(
      native(
        'clean-single-call',
        'A clean single call: the raw completion with recorded tokens, logprobs and alternatives, and the stream the client received.',
        {
          request: request('What is the weather in Lisbon right now?'),
          completion: { text, tokens: recordedTokens(text, true), finish_reason: 'stop' },
          response: stream(
            'clean-single-call',
            [
              content("I'll check the current weather in Lisbon. "),
              tcStart(0, 'functions.get_weather:0', 'get_weather'),
              tcArgs(0, '{"city": "Lisbon", '),
              tcArgs(0, '"unit": "celsius"}'),
            ],
            'tool_calls',
          ),
        },
      ),
    );
  }

  // 2. Three parallel calls, delivered whole in a chat.completion.
  {
    const calls: Call[] = [
      ['functions.get_weather:0', 'get_weather', args({ city: 'Berlin' })],
      [
        'functions.search_web:1',
        'search_web',
        args({ query: 'Berlin U-Bahn strike schedule November 2025', max_results: 5, filters: { site: 'bvg.de', since: '2025-10-01' } }),
      ],
      [
        'functions.create_calendar_event:2',
        'create_calendar_event',
        args({
          title: 'Berlin site visit',
          start: '2025-11-03T09:00:00+01:00',
          duration_minutes: 90,
          attendees: ['lena@acme.example', 'omar@acme.example'],
        }),
      ],
    ];
    const text = `Let me gather all three at once. ${section(...calls.map(([id, , a]) => call(id, a)))}`;
    add(
      native(
        'clean-parallel-calls',
        'Three parallel calls (weather, search with nested filters, calendar with attendees), all valid, delivered whole.',
        {
          request: request(
            'Plan my Berlin visit next Monday: the weather, any transit strikes, and a 90 minute site visit at 9am with Lena and Omar.',
          ),
          completion: { text, tokens: recordedTokens(text), finish_reason: 'stop' },
          response: chatCompletion('clean-parallel-calls', 'Let me gather all three at once. ', calls, 'tool_calls'),
        },
      ),
    );
  }

  // content-leak: vLLM parser-fixes issue 5 (content and the section marker in one delta).
  {
    const a = '{"query": "acme status page incident 2025-10-14"}';
    const text = `I'll search for the incident report. ${section(call('functions.search_web:0', a))}`;
    add(
      native(
        'leak-marker-in-content',
        'Text and the section marker arrived in one delta: the parser streamed the call markup and arguments as content, and the call never reached the client.',
        {
          request: request('Find the incident report from October 14th.'),
          completion: { text, tokens: recordedTokens(text), finish_reason: 'stop' },
          response: stream(
            'leak-marker-in-content',
            [content("I'll search for the incident report. "), content(`${B}functions.search_web:0${A}`), content(a)],
            'stop',
          ),
        },
      ),
    );
  }

  // empty-content-delta: parser-fixes issue 2, DeltaMessage(content="") between section begin and the first call.
  add(
    native(
      'empty-content-deltas',
      'Between the section begin and the first call the server sent DeltaMessage(content=""); some clients render it as "(no content)".',
      {
        request: request('Weather in Reykjavik?'),
        completion: { text: section(call('functions.get_weather:0', { city: 'Reykjavik' })), finish_reason: 'stop' },
        response: stream(
          'empty-content-deltas',
          [content(''), content(''), tcStart(0, 'functions.get_weather:0', 'get_weather', '{"city": "Reykjavik"}')],
          'tool_calls',
        ),
      },
    ),
  );

  // unknown-tool
  add(
    native('hallucinated-tool', 'The model called get_stock_price, a tool the request never offered.', {
      request: request('How is ACME stock doing today?'),
      completion: {
        text: `Let me pull the latest price. ${section(call('functions.get_stock_price:0', { ticker: 'ACME' }))}`,
        finish_reason: 'stop',
      },
    }),
  );

  // invalid-arguments-json
  add(
    native('truncated-json-arguments', 'The arguments lack their closing brace, so they are not JSON; vLLM passes them on unvalidated.', {
      request: request('Search for the latest vLLM release notes.'),
      completion: {
        text: section(call('functions.search_web:0', '{"query": "vLLM release notes", "max_results": 5')),
        finish_reason: 'stop',
      },
    }),
  );

  // schema-violation: structural errors, and a format failure (a warning).
  add(
    native(
      'schema-violations',
      'The calendar call lacks a title, asks for 600 minutes (maximum 240) and adds a location the schema forbids; the email goes to an address that is not an email (a format warning).',
      {
        request: request('Book a four hour design review tomorrow at 2pm and email the agenda to Alice.'),
        completion: {
          text: `Booking it and sending the agenda. ${section(
            call('functions.create_calendar_event:0', { start: '2025-10-22T14:00:00Z', duration_minutes: 600, location: 'Room 4' }),
            call('functions.send_email:1', {
              to: 'alice-at-acme',
              subject: 'Design review agenda',
              body: '1. Goals\n2. Open questions\n3. Next steps',
            }),
          )}`,
          finish_reason: 'stop',
        },
      },
    ),
  );

  // Where xgrammar and JSON Schema disagree (src/core/guided/unenforcedKeywords.ts): the what-if names the keyword.
  const timer = {
    type: 'function',
    function: {
      name: 'set_timer',
      description: 'Start a kitchen timer.',
      parameters: {
        type: 'object',
        properties: { minutes: { type: 'integer', minimum: 5, multipleOf: 5 } },
        required: ['minutes'],
        additionalProperties: false,
      },
    },
  };
  add(
    native(
      'schema-gap-grammar-lets-through',
      'minutes: 7 breaks multipleOf 5; xgrammar does not enforce multipleOf, so guided decoding would have let it through (guided-accepts names the keyword).',
      {
        request: request('Set a timer for seven minutes.', [timer]),
        completion: { text: `Starting it. ${section(call('functions.set_timer:0', { minutes: 7 }))}`, finish_reason: 'stop' },
      },
    ),
  );
  add(
    native(
      'schema-gap-grammar-stricter',
      'Valid arguments in another order than the schema declares: JSON Schema accepts them, xgrammar wants the declared order (guided-would-block names the keyword).',
      {
        request: request('Weather in Oslo, in celsius.'),
        completion: { text: section(call('functions.get_weather:0', { unit: 'celsius', city: 'Oslo' })), finish_reason: 'stop' },
      },
    ),
  );

  // guided-unavailable: a draft-7 tuple `items` (what older zod-to-json-schema emits for z.tuple) that xgrammar
  // cannot compile; the what-if says so and the record keeps its other findings.
  add(
    native(
      'schema-xgrammar-cannot-compile',
      'A tool whose schema xgrammar cannot compile (a draft-7 tuple "items" list): guided decoding on would be refused for this request; the what-if says why instead of a verdict.',
      {
        request: request('Plot a route to 38.72, -9.14.', [
          {
            type: 'function',
            function: {
              name: 'plot_route',
              description: 'Plot a route to a point.',
              parameters: {
                type: 'object',
                properties: { to: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], description: 'Latitude, longitude.' } },
                required: ['to'],
              },
            },
          },
        ]),
        completion: { text: section(call('functions.plot_route:0', { to: [38.72, -9.14] })), finish_reason: 'tool_calls' },
      },
    ),
  );

  // bad-call-id
  add(
    native(
      'bad-call-id',
      'The call id search_web:2 lacks the functions. prefix, a form the model learned from histories with malformed ids.',
      {
        request: request('Search for open vLLM Kimi K2 tool parser issues.'),
        completion: {
          text: section(call('search_web:2', { query: 'vLLM kimi_k2 tool parser issue', filters: { site: 'github.com' } })),
          finish_reason: 'stop',
        },
      },
    ),
  );

  // duplicate-call-index
  add(
    native('duplicate-call-index', 'Two calls share index 1, so their results cannot be told apart.', {
      request: request('Weather in Rome and in Milan?'),
      completion: {
        text: section(call('functions.get_weather:1', { city: 'Rome' }), call('functions.get_weather:1', { city: 'Milan' })),
        finish_reason: 'stop',
      },
    }),
  );

  // missing-section-marker
  add(
    native(
      'missing-section-markers',
      'A call with no section begin or end around it: llama.cpp still parses it, vLLM returns it as plain text.',
      {
        request: request('What is the weather in Athens?'),
        completion: { text: `Sure. ${call('functions.get_weather:0', { city: 'Athens' })} I will report back.`, finish_reason: 'stop' },
      },
    ),
  );

  // marker-split: the section begin recorded as three text tokens.
  {
    const tokens: SampleToken[] = [
      { id: 3001, text: 'Let', logprob: -0.31 },
      { id: 3002, text: ' me', logprob: -0.02 },
      { id: 3003, text: ' look', logprob: -0.4 },
      { id: 3004, text: ' at', logprob: -0.01 },
      { id: 3005, text: ' the', logprob: -0.03 },
      { id: 3006, text: ' config', logprob: -0.22 },
      { id: 3007, text: '.', logprob: -0.05 },
      { id: 3008, text: ' ', logprob: -0.9 },
      { id: 3101, text: '<|tool_calls_', logprob: -1.2 },
      { id: 3102, text: 'section_', logprob: -0.01 },
      { id: 3103, text: 'begin|>', logprob: -0.01 },
      { id: 163597, text: B, logprob: -0.0001 },
      { id: 3201, text: 'functions', logprob: -0.0003 },
      { id: 3202, text: '.read', logprob: -0.05 },
      { id: 3203, text: '_file', logprob: -0.001 },
      { id: 3204, text: ':', logprob: -0.0002 },
      { id: 3205, text: '0', logprob: -0.0001 },
      { id: 163598, text: A, logprob: -0.0001 },
      { id: 3301, text: '{"', logprob: -0.002 },
      { id: 3302, text: 'path', logprob: -0.001 },
      { id: 3303, text: '":', logprob: -0.0004 },
      { id: 3304, text: ' "', logprob: -0.001 },
      { id: 3305, text: 'deploy', logprob: -0.35 },
      { id: 3306, text: '/v', logprob: -0.12 },
      { id: 3307, text: 'llm', logprob: -0.02 },
      { id: 3308, text: '.yaml', logprob: -0.08 },
      { id: 3309, text: '"}', logprob: -0.001 },
      { id: 163599, text: C, logprob: -0.0001 },
      { id: 163596, text: E, logprob: -0.0002 },
    ];
    add(
      native(
        'marker-split-across-tokens',
        "The section begin marker was generated as three text tokens (a serving/tokenizer bug): a parser matching the marker's token id misses it and leaks it as content.",
        {
          request: request('Show me the vLLM deploy config.'),
          completion: { text: tokens.map((t) => t.text).join(''), tokens, finish_reason: 'stop' },
        },
      ),
    );
  }

  // call-in-think: "Thinking block tool calls" in the parser-fixes known issues.
  add(
    native(
      'call-inside-think',
      "Kimi K2 Thinking wrote its tool-call section before closing <think>: current vLLM, SGLang and llama.cpp end the reasoning at the section and run the search; vLLM's kimi_k2 reasoning parser before PR 33646 (</think> only) kept it as reasoning and the agent ran nothing.",
      {
        request: request('Search the web for Kimi K2 benchmark results.'),
        completion: {
          text: `<think>The user wants benchmarks, so I search. ${section(call('functions.search_web:0', { query: 'Kimi K2 benchmark results' }))}`,
          finish_reason: 'tool_calls',
        },
      },
    ),
  );

  // raw-fallback-format: parser-fixes issue 10.
  add(
    native(
      'raw-fallback-call',
      'The model wrote the call as plain text without special tokens (functions.read_file:0 {...}); the client got it as content.',
      {
        request: request('Open deploy/notes.md'),
        completion: { text: `I'll read the file. functions.read_file:0  {"path": "deploy/notes.md"}`, finish_reason: 'stop' },
      },
    ),
  );

  // unterminated-call: max_tokens ran out inside the arguments.
  {
    const text = `${S}${B}functions.send_email:0${A}{"to": "finance@acme.example", "subject": "Q3 summary", "body": "Hi team,\\n\\nRevenue for Q3 came in at`;
    add(
      native(
        'unterminated-call-length',
        'max_tokens ran out inside the arguments (finish_reason "length"): the call has no end marker and its JSON is cut off.',
        {
          request: request('Email the Q3 summary to finance.', ALL_TOOLS, { max_tokens: 48 }),
          completion: { text, tokens: recordedTokens(text), finish_reason: 'length' },
        },
      ),
    );
  }

  // marker-whitespace: a newline right after <|tool_call_begin|>.
  {
    const text = `Checking. ${S}\n${B}\nfunctions.get_weather:0 ${A} {"city": "Tallinn"} ${C}\n${E}`;
    add(
      native(
        'newline-after-call-begin',
        "Newlines and spaces around the markers; with a newline right after <|tool_call_begin|> vLLM's Dec 2025 – Apr 2026 parser streamed no call at all.",
        {
          request: request('Weather in Tallinn?'),
          completion: { text, tokens: recordedTokens(text), finish_reason: 'stop' },
        },
      ),
    );
  }

  // dropped-call: a call that begins and ends within one delta is dropped.
  {
    const text = `Checking both cities. ${section(call('functions.get_weather:0', { city: 'Oslo' }), call('functions.get_weather:1', { city: 'Bergen' }))}`;
    add(
      native(
        'dropped-call',
        'The second call began and ended within one delta and vLLM dropped it: the completion has two calls, the stream delivered one.',
        {
          request: request('Weather in Oslo and Bergen?'),
          completion: { text, tokens: recordedTokens(text), finish_reason: 'stop' },
          response: stream(
            'dropped-call',
            [content('Checking both cities. '), tcStart(0, 'functions.get_weather:0', 'get_weather'), tcArgs(0, '{"city": "Oslo"}')],
            'tool_calls',
          ),
        },
      ),
    );
  }

  // arguments-mismatch: streamed arguments stop at the first newline.
  {
    const a =
      '{\n  "sql": "SELECT region, SUM(amount) AS revenue FROM invoices WHERE paid_at >= \'2025-07-01\' GROUP BY region",\n  "database": "billing"\n}';
    const text = `Running the revenue query. ${section(call('functions.query_database:0', a))}`;
    add(
      native(
        'arguments-cut-at-newline',
        'The model wrote pretty-printed JSON and the streamed arguments stopped at its first newline: the client received "{".',
        {
          request: request('Revenue by region since July, from billing please.'),
          completion: { text, tokens: recordedTokens(text), finish_reason: 'stop' },
          response: stream(
            'arguments-cut-at-newline',
            [content('Running the revenue query. '), tcStart(0, 'functions.query_database:0', 'query_database'), tcArgs(0, '{')],
            'tool_calls',
          ),
        },
      ),
    );
  }

  // finish-reason-mismatch
  add(
    native(
      'finish-reason-stop-with-calls',
      'A call was delivered with finish_reason "stop", so an agent loop that keys on "tool_calls" never ran it.',
      {
        request: request('Weather in Madrid?'),
        response: chatCompletion(
          'finish-reason-stop-with-calls',
          null,
          [['functions.get_weather:0', 'get_weather', '{"city": "Madrid"}']],
          'stop',
        ),
      },
    ),
  );

  // tool-call-when-none
  add(
    native('tool-call-with-choice-none', 'tool_choice was "none", yet the model emitted a call.', {
      request: request('Without looking anything up: is London usually rainy in November?', ALL_TOOLS, { tool_choice: 'none' }),
      completion: { text: section(call('functions.get_weather:0', { city: 'London' })), finish_reason: 'stop' },
    }),
  );

  // tool-described-not-called: parser-fixes issue 12 (warning), and tool_choice "required" (error).
  add(
    native('described-not-called', 'The agent said it would search, then stopped without a call: the "agent stops mid-task" report.', {
      request: request('Find out whether the Hamburg office is open on Friday.'),
      response: chatCompletion(
        'described-not-called',
        "I'll search the web for the Hamburg office holiday schedule and let you know.",
        [],
        'stop',
      ),
    }),
  );
  add(
    native('required-but-not-called', 'tool_choice was "required" but the model answered from memory without a call.', {
      request: request('Get me the weather in Vienna.', ALL_TOOLS, { tool_choice: 'required' }),
      response: chatCompletion('required-but-not-called', 'Vienna is usually mild this time of year, around 12°C.', [], 'stop'),
    }),
  );

  // text-in-section
  add(
    native(
      'text-inside-section',
      'The model wrote " and then " between two calls inside the section; vLLM drops it, SGLang streams it as content.',
      {
        request: request('Weather in Prague and Brno?'),
        completion: {
          text: `${S}${call('functions.get_weather:0', { city: 'Prague' })} and then ${call('functions.get_weather:1', { city: 'Brno' })}${E}`,
          finish_reason: 'stop',
        },
      },
    ),
  );

  // stray-marker: a repeated call end, and a </think> the prompt opened.
  add(
    native(
      'repeated-call-end-marker',
      'The model repeated <|tool_call_end|> after the call: a marker out of place that some parsers leak as content.',
      {
        request: request('Weather in Copenhagen?'),
        completion: { text: `${S}${call('functions.get_weather:0', { city: 'Copenhagen' })}${C}${E}`, finish_reason: 'stop' },
      },
    ),
  );
  add(
    native(
      'think-opened-by-template',
      'A K2.6-style template put <think> into the prompt, so the completion starts inside reasoning and has a bare </think>.',
      {
        request: request('Weather in Zurich?'),
        completion: {
          text: `The user asks for the weather in Zurich; one call is enough.</think>On it. ${section(call('functions.get_weather:0', { city: 'Zurich' }))}`,
          finish_reason: 'stop',
        },
      },
    ),
  );

  // Template problems: no generation prompt, empty content rendered as a Python list literal.
  add(
    native(
      'prompt-without-generation-prompt',
      'Rendered by the pre-fix 0905 template without add_generation_prompt: the prompt ends after the assistant turn (whose empty content became a Python list literal) and the model writes another user turn.',
      {
        request: request('Weather in Lyon?'),
        prompt: `<|im_system|>system<|im_middle|>${SYSTEM}<|im_end|><|im_user|>user<|im_middle|>Weather in Lyon?<|im_end|><|im_assistant|>assistant<|im_middle|>[{'type': 'text', 'text': ''}]<|im_end|>`,
        completion: { text: '<|im_user|>user<|im_middle|>And in Paris?', finish_reason: 'stop' },
      },
    ),
  );

  // stream-error: an error event instead of the next chunk, recorded by the proxy (meta.streamErrors).
  {
    const cut = stream(
      'error-event-mid-stream',
      [content('Checking the forecast for Oslo. '), tcStart(0, 'functions.get_weather:0', 'get_weather', '{"city": "Oslo"}')],
      'tool_calls',
    );
    add({
      ...native(
        'error-event-mid-stream',
        'The engine ran out of KV-cache memory and sent an error event instead of the finishing chunk; the status line had already said 200, so the client saw a call that never finished.',
        {
          request: request('Weather in Oslo?'),
          response: cut.slice(0, -1),
        },
        { partial: true, streamErrors: ['CUDA out of memory. Tried to allocate 2.00 GiB'] },
      ),
      error: 'error event in the stream: CUDA out of memory. Tried to allocate 2.00 GiB',
    });
  }

  return records;
}

// ---------------------------------------------------------------------------------------------------------------
// K2-Vendor-Verifier samples and results

function k2vvRequests(): Json[] {
  const k2 = (messages: Json[], tools: unknown[], maxTokens = 4096) => ({
    model: 'kimi-k2-0905',
    messages,
    max_tokens: maxTokens,
    temperature: 0.6,
    stream: true,
    tools,
  });
  return [
    k2([{ role: 'user', content: 'What is the weather in Chengdu right now? Should I take an umbrella?' }], [TOOLS.weather]),
    k2(
      [
        { role: 'system', content: '你是一个乐于助人的助手。回答前先用工具查找最新信息。' },
        { role: 'user', content: '帮我搜索一下最新的 vLLM 版本说明，尽量多给几条结果。' },
      ],
      [TOOLS.search],
    ),
    k2(
      [
        { role: 'user', content: 'Find cheap flights from Frankfurt to Tokyo in March.' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'search_web:0',
              type: 'function',
              function: { name: 'search_web', arguments: '{"query": "cheap flights Frankfurt Tokyo March"}' },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'search_web:0',
          name: 'search_web',
          content:
            '[{"title": "FRA-HND from 612 EUR", "url": "https://flights.example/fra-hnd"}, {"title": "FRA-NRT from 655 EUR", "url": "https://flights.example/fra-nrt"}]',
        },
      ],
      [TOOLS.search],
    ),
    k2(
      [{ role: 'user', content: '写一份给新值班工程师的入职指南（on-call onboarding guide），越详细越好。' }],
      [TOOLS.search, TOOLS.readFile],
      300,
    ),
  ];
}

const FIFTH_REQUEST = {
  model: 'kimi-k2-0905',
  messages: [{ role: 'user', content: 'Put a 30 minute 1:1 with priya@acme.example on my calendar for Thursday at 3pm.' }],
  max_tokens: 4096,
  temperature: 0.6,
  stream: true,
  tools: [TOOLS.calendar],
};

function k2vvResponse(seed: string, created: number, text: string, calls: Call[], finish: string): Json {
  return {
    id: `gen-${created}-${alnum(seed, 20)}`,
    object: 'chat.completion',
    created,
    model: 'moonshotai/kimi-k2-0905',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          tool_calls: calls.length ? calls.map(([id, name, a]) => ({ id, type: 'function', function: { name, arguments: a } })) : null,
        },
        finish_reason: finish,
      },
    ],
    usage: null,
  };
}

const ONBOARDING = [
  '# 值班工程师入职指南',
  '',
  '## 1. 第一周',
  '- 申请 PagerDuty、Grafana 和 staging 集群的访问权限。',
  '- 跟随一位资深工程师完成至少两次交接班（shadow shift）。',
  '- 通读 runbooks/ 目录，重点是 vLLM 推理服务和计费数据库。',
  '',
  '## 2. 告警分级',
  '- P1：面向客户的服务不可用，5 分钟内响应，立即拉起事故频道。',
  '- P2：性能下降或单区域故障，30 分钟内响应。',
  '- P3：非紧急问题，下一个工作日处理。',
  '',
  '## 3. 常见问题排查',
  '1. 推理服务返回 429：先检查上游配额，再看 Grafana 上的队列长度。',
  '2. 工具调用解析失败：用 Toolscope 打开请求日志，确认是模型输出还是解析器的问题。',
  '3. 数据库连接数打满：',
].join('\n');

function k2vvResults(): Json[] {
  const requests = [...k2vvRequests(), FIFTH_REQUEST];
  const base = 1_761_041_700;
  const result = (i: number, response: Json, status: string, finish: string | null, valid: boolean | null, durationMs: number) => ({
    data_index: i + 1,
    request: requests[i],
    response,
    status,
    finish_reason: finish,
    tool_calls_valid: valid,
    last_run_at: `2025-10-21T10:15:${String(3 + i * 7).padStart(2, '0')}.${String(fnv(`run${i}`) % 1_000_000).padStart(6, '0')}`,
    duration_ms: durationMs,
    hash: k2vvRequestHash(requests[i]),
  });
  return [
    result(
      0,
      k2vvResponse('r1', base, '', [['functions.get_weather:0', 'get_weather', '{"city":"Chengdu"}']], 'tool_calls'),
      'success',
      'tool_calls',
      true,
      1184,
    ),
    result(
      1,
      k2vvResponse(
        'r2',
        base + 2,
        '',
        [['functions.search_web:0', 'search_web', '{"query":"vLLM 最新版本说明 release notes","max_results":50}']],
        'tool_calls',
      ),
      'success',
      'tool_calls',
      false,
      1421,
    ),
    result(
      2,
      k2vvResponse(
        'r3',
        base + 3,
        'The cheapest option I found is Frankfurt to Tokyo Haneda from 612 EUR (flights.example); Narita starts at 655 EUR.',
        [],
        'stop',
      ),
      'success',
      'stop',
      null,
      2307,
    ),
    result(3, k2vvResponse('r4', base + 5, ONBOARDING, [], 'length'), 'success', 'length', null, 9876),
    result(
      4,
      {
        error:
          "Error code: 429 - {'error': {'message': 'Provider returned error', 'code': 429, 'metadata': {'raw': 'kimi-k2-0905 is temporarily rate-limited upstream. Please retry shortly.', 'provider_name': 'ExampleCloud'}}}",
      },
      'failed',
      null,
      null,
      7012,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAI / vLLM chat.completion objects

function openAiCompletions(): Json[] {
  return [
    chatCompletion(
      'oa-1',
      null,
      [[`chatcmpl-tool-${hex('oa-1-call', 32)}`, 'get_weather', '{"city": "Seoul"}']],
      'tool_calls',
      1_761_042_000,
    ),
    chatCompletion('oa-2', 'Seoul is 12°C and clear this afternoon; no umbrella needed.', [], 'stop', 1_761_042_004),
    chatCompletion('oa-3', null, [['functions.web.search:0', 'search', '{"query": "kimi k2 tool calling"}']], 'tool_calls', 1_761_042_009),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// SSE dump: two concurrent streams logged by a proxy, interleaved

function sseDump(): string {
  const a = stream(
    'sse-a',
    [
      content('Let me check the forecast. '),
      tcStart(0, 'functions.get_weather:0', 'get_weather'),
      tcArgs(0, '{"city":'),
      tcArgs(0, ' "Nairobi"}'),
    ],
    'tool_calls',
    1_761_043_000,
  );
  const b = stream(
    'sse-b',
    [
      content('Looking it up. '),
      content(S),
      content(`${B}functions.search_web:0`),
      content(`${A}{"query": "Nairobi matatu strike"}${C}${E}`),
    ],
    'stop',
    1_761_043_001,
  );
  const lines: string[] = [': captured by the staging proxy'];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    for (const chunks of [a, b]) {
      const c = chunks[i];
      if (c) lines.push(`data: ${JSON.stringify(c)}`, '');
      if (i === chunks.length - 1) lines.push('data: [DONE]', '');
    }
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// /v1/completions responses with legacy logprobs

function completionsLogprobs(): Json[] {
  const logprobs = (tokens: SampleToken[], asIds: boolean) => {
    const name = (t: { id: number; text: string }) => (asIds ? `token_id:${t.id}` : t.text);
    let offset = 0;
    return {
      tokens: tokens.map(name),
      token_logprobs: tokens.map((t) => t.logprob),
      top_logprobs: tokens.map((t) => Object.fromEntries((t.top ?? []).map((alt) => [name(alt), alt.logprob]))),
      text_offset: tokens.map((t) => {
        const at = offset;
        offset += t.text.length;
        return at;
      }),
    };
  };
  const text1 = `Checking the forecast for Lima. ${section(call('functions.get_weather:0', { city: 'Lima', unit: 'celsius' }))}`;
  const text2 = section(call('functions.search_web:0', { query: 'Kimi K2 guided decoding structural tag', max_results: 3 }));
  const response = (id: string, created: number, text: string, lp: Json) => ({
    id,
    object: 'text_completion',
    created,
    model: MODEL,
    choices: [{ index: 0, text, logprobs: lp, finish_reason: 'stop', stop_reason: null, prompt_logprobs: null }],
    usage: {
      prompt_tokens: 1012,
      completion_tokens: (lp.tokens as unknown[]).length,
      total_tokens: 1012 + (lp.tokens as unknown[]).length,
    },
  });
  return [
    response(`cmpl-${hex('cmpl-1', 32)}`, 1_761_044_000, text1, logprobs(recordedTokens(text1, true), false)),
    response(`cmpl-${hex('cmpl-2', 32)}`, 1_761_044_060, text2, logprobs(recordedTokens(text2, true), true)),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// token-problems.jsonl: recorded tokens that cannot be trusted as they are (the rest of each record still is)

function tokenProblems(): Json[] {
  const text1 = `Checking Quito. ${section(call('functions.get_weather:0', { city: 'Quito' }))}`;
  const bad: unknown[] = [-1, 1.5, 'x', null];
  const tokens1 = recordedTokens(text1).map((t, i) => (i < bad.length ? { ...t, id: bad[i] } : t));
  const text2 = `Checking Lagos. ${section(call('functions.get_weather:0', { city: 'Lagos' }))}`;
  // The tokens of another answer (Accra) recorded next to this text: they do not join to it.
  const tokens2 = recordedTokens(text2.replace('Lagos', 'Accra'));
  return [
    native(
      'token-ids-invalid',
      'An exporter wrote token ids of -1, 1.5, "x" and null: the ids are left out, the tokens and the call still read.',
      {
        request: request('Weather in Quito?', [TOOLS.weather]),
        completion: { text: text1, tokens: tokens1, finish_reason: 'stop' },
      },
    ),
    native(
      'tokens-do-not-join',
      'The tokens were recorded from another answer than the text: they do not join to it, and the token boundaries shown are approximate.',
      {
        request: request('Weather in Lagos?', [TOOLS.weather]),
        completion: { text: text2, tokens: tokens2, finish_reason: 'stop' },
      },
    ),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Malformed lines: bad lines are reported with their numbers, the rest loads

/** 1-based line numbers of the lines planted in malformed-lines.jsonl that cannot be read. */
export const MALFORMED_LINES = [2, 3, 5];

function malformed(): string {
  const good = (id: string, city: string) => ({
    toolscope: 1,
    id,
    request: request(`Weather in ${city}?`, [TOOLS.weather]),
    completion: { text: section(call('functions.get_weather:0', { city })), finish_reason: 'stop' },
    meta: { source: 'vllm-capture', endpoint: 'staging-vllm', model: MODEL, note: 'A good record next to unreadable lines.' },
  });
  return [
    JSON.stringify(good('good-before-bad-lines', 'Dublin')),
    'INFO 2025-10-21 09:14:02 proxy: upstream responded 200 in 812 ms',
    JSON.stringify({ level: 'info', msg: 'request finished', duration_ms: 812, path: '/v1/chat/completions' }),
    JSON.stringify(good('good-after-bad-lines', 'Cork')),
    // The writer was killed mid-line: no closing brace, no newline.
    '{"toolscope": 1, "id": "cut-off-while-writing", "completion": {"text": "Let me check the weather in Gal',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------------------
// other-formats.jsonl: Hermes, Qwen3-Coder, DeepSeek-V3.1, gpt-oss Harmony, Llama and GLM records (native, `meta.format`
// set), each format with a clean call and one record per failure: a content leak in the recorded response, an
// unknown tool, a schema violation, invalid JSON and a call cut off by max_tokens.

function otherFormats(): Json[] {
  const fn = (name: string, description: string, parameters: Json) => ({ type: 'function', function: { name, description, parameters } });
  const tools = [
    fn('get_weather', 'Current weather and forecast for a city.', {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 14 },
      },
      required: ['city'],
      additionalProperties: false,
    }),
    fn('search_web', 'Search the web and return the top results.', {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, max_results: { type: 'integer', minimum: 1, maximum: 20 } },
      required: ['query'],
    }),
    fn('create_calendar_event', 'Create a calendar event.', {
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
  ];
  const models: Record<string, { model: string; parser: string }> = {
    hermes: { model: 'Qwen/Qwen2.5-72B-Instruct', parser: 'hermes' },
    qwen3_coder: { model: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', parser: 'qwen3_coder' },
    deepseek_v31: { model: 'deepseek-ai/DeepSeek-V3.1', parser: 'deepseek_v31' },
    harmony: { model: 'openai/gpt-oss-120b', parser: 'openai' },
    llama: { model: 'meta-llama/Llama-3.3-70B-Instruct', parser: 'llama3_json' },
    glm: GLM_SAMPLE_MODEL,
    deepseek_dsml: DSML_SAMPLE_MODEL,
    pythonic: PYTHONIC_SAMPLE_MODEL,
    lfm2: LFM2_SAMPLE_MODEL,
    kimi_k3: KIMI_K3_SAMPLE_MODEL,
    seed_oss: SEED_OSS_SAMPLE_MODEL,
    hy_v3: HY3_SAMPLE_MODEL,
    gemma4: GEMMA4_SAMPLE_MODEL,
    functiongemma: FUNCTION_GEMMA_SAMPLE_MODEL,
    mistral: MISTRAL_SAMPLE_MODEL,
    minimax_m2: MINIMAX_M2_SAMPLE_MODEL,
    minimax_m3: MINIMAX_M3_SAMPLE_MODEL,
    granite: GRANITE_SAMPLE_MODEL,
  };
  const record = (format: string, id: string, note: string, user: string, completion: Json, response?: Json): Json => ({
    toolscope: 1,
    id: `${format}-${id}`,
    request: {
      model: models[format]?.model,
      messages: [
        { role: 'system', content: 'You are the Acme operations assistant. Use the tools to act.' },
        { role: 'user', content: user },
      ],
      tools,
      tool_choice: 'auto',
      max_tokens: completion.finish_reason === 'length' ? 40 : 1024,
    },
    completion,
    ...(response ? { response } : {}),
    meta: { source: 'vllm-capture', endpoint: 'staging-vllm', model: models[format]?.model, parser: models[format]?.parser, format, note },
  });
  const leaked = (format: string, content: string): Json => ({
    id: `chatcmpl-${format}-leak`,
    object: 'chat.completion',
    created: 1_761_050_000,
    model: models[format]?.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });
  // What the client got for a call delivered as written: the call, and the content / reasoning the model wrote first.
  const answered = (
    format: string,
    name: string,
    args: string,
    said: { content?: string; reasoning?: string; id?: string } = {},
  ): Json => ({
    id: `chatcmpl-${format}-ok`,
    object: 'chat.completion',
    created: 1_761_050_100,
    model: models[format]?.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: said.content ?? null,
          ...(said.reasoning !== undefined ? { reasoning_content: said.reasoning } : {}),
          tool_calls: [{ id: said.id ?? `chatcmpl-tool-${format}0`, type: 'function', function: { name, arguments: args } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
  });
  const rows: Json[] = [];
  const scenarios = (
    format: string,
    calls: {
      clean: [text: string, name: string, args: string, said: { content?: string; reasoning?: string; id?: string }];
      leak: [text: string, content: string];
      unknown: string;
      schema: string;
      invalid: { completion?: string; response?: Json };
      truncated: string;
    },
  ) => {
    const [cleanText, cleanName, cleanArgs, said] = calls.clean;
    rows.push(
      record(
        format,
        'clean-call',
        'a well-formed call, delivered as it was written',
        'What is the weather in Lisbon?',
        { text: cleanText, finish_reason: 'tool_calls' },
        answered(format, cleanName, cleanArgs, said),
      ),
    );
    rows.push(
      record(
        format,
        'leak-markup-in-content',
        'the server returned the raw call markup as content and no tool_calls',
        'Search the web for the Acme status page incident.',
        { text: calls.leak[0], finish_reason: 'tool_calls' },
        leaked(format, calls.leak[1]),
      ),
    );
    rows.push(
      record(format, 'unknown-tool', 'the model called get_stock_price, which the request does not offer', 'How is ACME stock doing?', {
        text: calls.unknown,
        finish_reason: 'tool_calls',
      }),
    );
    rows.push(
      record(
        format,
        'schema-violation',
        'days 30 is above the maximum of 14 and unit "kelvin" is not in the enum',
        'Give me a month of weather for Oslo in kelvin.',
        { text: calls.schema, finish_reason: 'tool_calls' },
      ),
    );
    if (calls.invalid.completion !== undefined) {
      rows.push(
        record(format, 'invalid-json-arguments', 'the arguments are not valid JSON', 'Book a 30 minute sync with Lena tomorrow at 10.', {
          text: calls.invalid.completion,
          finish_reason: 'tool_calls',
        }),
      );
    } else {
      rows.push({
        ...record(
          format,
          'invalid-json-arguments',
          'the streaming parser sent arguments without their closing brace (no raw completion recorded)',
          'Book a 30 minute sync with Lena tomorrow at 10.',
          {},
        ),
        completion: undefined,
        response: calls.invalid.response,
      });
    }
    rows.push(
      record(format, 'unterminated-call-length', 'max_tokens cut the completion inside the call', 'Find recent news on the Acme outage.', {
        text: calls.truncated,
        finish_reason: 'length',
      }),
    );
  };

  // Hermes / Qwen2.5: <tool_call>{"name": …, "arguments": …}</tool_call>
  const hermes = (name: string, args: string) => `<tool_call>\n{"name": "${name}", "arguments": ${args}}\n</tool_call>`;
  scenarios('hermes', {
    clean: [
      `I'll check the current weather in Lisbon.\n${hermes('get_weather', '{"city": "Lisbon", "unit": "celsius"}')}`,
      'get_weather',
      '{"city": "Lisbon", "unit": "celsius"}',
      { content: "I'll check the current weather in Lisbon.\n" },
    ],
    leak: [hermes('search_web', '{"query": "acme status page incident"}'), hermes('search_web', '{"query": "acme status page incident"}')],
    unknown: hermes('get_stock_price', '{"ticker": "ACME"}'),
    schema: hermes('get_weather', '{"city": "Oslo", "unit": "kelvin", "days": 30}'),
    invalid: {
      completion: hermes(
        'create_calendar_event',
        '{"title": "Sync with Lena", "start": "2025-10-22T10:00:00+02:00", "duration_minutes": 30,}',
      ),
    },
    truncated: `<tool_call>\n{"name": "search_web", "arguments": {"query": "acme outage`,
  });

  // Qwen3-Coder: <tool_call><function=…><parameter=…>…</parameter></function></tool_call>
  const param = (name: string, value: string) => `<parameter=${name}>\n${value}\n</parameter>\n`;
  const coder = (name: string, ...params: string[]) => `<tool_call>\n<function=${name}>\n${params.join('')}</function>\n</tool_call>`;
  scenarios('qwen3_coder', {
    clean: [
      `I'll check the current weather in Lisbon.\n${coder('get_weather', param('city', 'Lisbon'), param('unit', 'celsius'))}`,
      'get_weather',
      '{"city": "Lisbon", "unit": "celsius"}',
      { content: "I'll check the current weather in Lisbon.\n" },
    ],
    leak: [
      coder('search_web', param('query', 'acme status page incident')),
      coder('search_web', param('query', 'acme status page incident')),
    ],
    unknown: coder('get_stock_price', param('ticker', 'ACME')),
    schema: coder('get_weather', param('city', 'Oslo'), param('unit', 'kelvin'), param('days', '30')),
    invalid: {
      response: {
        id: 'chatcmpl-qwen3_coder-cut',
        object: 'chat.completion',
        created: 1_761_050_200,
        model: models.qwen3_coder?.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'chatcmpl-tool-q1',
                  type: 'function',
                  function: {
                    name: 'create_calendar_event',
                    arguments: '{"title": "Sync with Lena", "start": "2025-10-22T10:00:00+02:00", "duration_minutes": 30',
                  },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    },
    truncated: `<tool_call>\n<function=search_web>\n<parameter=query>\nacme outage`,
  });

  // DeepSeek-V3.1: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>name<｜tool▁sep｜>{json}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
  const ds = (name: string, argsText: string) =>
    `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>${name}<｜tool▁sep｜>${argsText}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`;
  scenarios('deepseek_v31', {
    clean: [
      `I'll check the current weather in Lisbon.${ds('get_weather', '{"city": "Lisbon", "unit": "celsius"}')}`,
      'get_weather',
      '{"city": "Lisbon", "unit": "celsius"}',
      { content: "I'll check the current weather in Lisbon." },
    ],
    leak: [ds('search_web', '{"query": "acme status page incident"}'), ds('search_web', '{"query": "acme status page incident"}')],
    unknown: ds('get_stock_price', '{"ticker": "ACME"}'),
    schema: ds('get_weather', '{"city": "Oslo", "unit": "kelvin", "days": 30}'),
    invalid: {
      completion: ds('create_calendar_event', "{'title': 'Sync with Lena', 'start': '2025-10-22T10:00:00+02:00', 'duration_minutes': 30}"),
    },
    truncated: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search_web<｜tool▁sep｜>{"query": "acme outage`,
  });

  // gpt-oss Harmony: the completion starts after the prompt's <|start|>assistant.
  const think = (text: string) => `<|channel|>analysis<|message|>${text}<|end|><|start|>assistant`;
  const oss = (name: string, argsText: string) =>
    `<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${argsText}<|call|>`;
  scenarios('harmony', {
    clean: [
      `${think('User wants Lisbon weather. Call get_weather.')}${oss('get_weather', '{"city":"Lisbon","unit":"celsius"}')}`,
      'get_weather',
      '{"city":"Lisbon","unit":"celsius"}',
      { reasoning: 'User wants Lisbon weather. Call get_weather.' },
    ],
    leak: [
      `${think('Need to search.')}${oss('search_web', '{"query":"acme status page incident"}')}`,
      // Decoded with skip_special_tokens: the header words run into the text.
      'analysisNeed to search.assistantcommentary to=functions.search_web json{"query":"acme status page incident"}',
    ],
    unknown: `${think('Stock price needed.')}${oss('get_stock_price', '{"ticker":"ACME"}')}`,
    schema: oss('get_weather', '{"city":"Oslo","unit":"kelvin","days":30}'),
    invalid: {
      completion: oss('create_calendar_event', '{"title":"Sync with Lena","start":"2025-10-22T10:00:00+02:00","duration_minutes":30'),
    },
    truncated: `${think('Search for news.')}<|channel|>commentary to=functions.search_web <|constrain|>json<|message|>{"query":"acme outage`,
  });

  // Llama 3.x / 4 JSON: <|python_tag|>{"name": …, "parameters": …}<|eom_id|>, or the bare object ended by <|eot_id|>.
  const llama = (name: string, args: string) => `{"name": "${name}", "parameters": ${args}}`;
  scenarios('llama', {
    clean: [
      `<|python_tag|>${llama('get_weather', '{"city": "Lisbon", "unit": "celsius"}')}<|eom_id|>`,
      'get_weather',
      '{"city": "Lisbon", "unit": "celsius"}',
      {},
    ],
    // No tool parser on the server: the bare call came back as content.
    leak: [
      `${llama('search_web', '{"query": "acme status page incident"}')}<|eot_id|>`,
      llama('search_web', '{"query": "acme status page incident"}'),
    ],
    unknown: `${llama('get_stock_price', '{"ticker": "ACME"}')}<|eot_id|>`,
    schema: `<|python_tag|>${llama('get_weather', '{"city": "Oslo", "unit": "kelvin", "days": 30}')}<|eom_id|>`,
    invalid: {
      completion: `${llama('create_calendar_event', '{"title": "Sync with Lena", "start": "2025-10-22T10:00:00+02:00", "duration_minutes": 30,}')}<|eot_id|>`,
    },
    truncated: `<|python_tag|>{"name": "search_web", "parameters": {"query": "acme outage`,
  });

  // GLM: its scenario lives beside its fixtures (test/fixtures/glm/glmSamples.ts).
  scenarios('glm', glmSampleCalls());
  // DeepSeek DSML: its scenario lives beside its fixtures (test/fixtures/deepseekDsml/dsmlSamples.ts).
  scenarios('deepseek_dsml', dsmlSampleCalls());
  // Pythonic and LFM2: their scenarios live beside their fixtures (test/fixtures/pythonic/pythonicSamples.ts).
  scenarios('pythonic', pythonicSampleCalls());
  scenarios('lfm2', lfm2SampleCalls());
  // Kimi K3, Seed-OSS and Hunyuan Hy3 (its :opensource spelling): their scenarios live beside their fixtures.
  scenarios('kimi_k3', kimiK3SampleCalls());
  scenarios('seed_oss', seedOssSampleCalls());
  scenarios('hy_v3', hy3SampleCalls());
  // Gemma 4, FunctionGemma and Mistral: their scenarios live beside their fixtures (test/fixtures/gemma4/gemma4Samples.ts,
  // test/fixtures/mistral/mistralSamples.ts).
  scenarios('gemma4', gemma4SampleCalls());
  scenarios('functiongemma', functionGemmaSampleCalls());
  scenarios('mistral', mistralSampleCalls());
  // MiniMax-M2 and M3: their scenarios live beside their fixtures (test/fixtures/minimax/, test/fixtures/minimaxM3/).
  scenarios('minimax_m2', minimaxM2SampleCalls());
  scenarios('minimax_m3', minimaxM3SampleCalls());
  // Granite (3.1's `<tool_call>` string before its list): its scenario lives beside its fixtures (test/fixtures/granite/).
  scenarios('granite', graniteSampleCalls());
  return rows;
}

// ---- Anthropic Messages API: Kimi K2 behind an Anthropic-compatible endpoint (what Claude Code users run) ----

const ANTHROPIC_MODEL = 'kimi-k2-0905-preview';
const toolu = (seed: string) => `toolu_${alnum(seed, 24)}`;
const msgId = (seed: string) => `msg_${alnum(seed, 24)}`;

function anthropicMessages(): Json[] {
  const message = (seed: string, content: Json[], stopReason: string, usage: Json) => ({
    id: msgId(seed),
    type: 'message',
    role: 'assistant',
    model: ANTHROPIC_MODEL,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  });
  return [
    message(
      'anthropic-clean',
      [
        {
          type: 'thinking',
          thinking: 'The user wants the Berlin forecast for three days; get_weather takes city and days.',
          signature: '',
        },
        { type: 'text', text: 'Checking the forecast.' },
        { type: 'tool_use', id: toolu('anthropic-clean'), name: 'get_weather', input: { city: 'Berlin', days: 3, unit: 'celsius' } },
      ],
      'tool_use',
      { input_tokens: 912, output_tokens: 61 },
    ),
    // The endpoint's parser missed the call: the raw Kimi markup arrives as text and the turn ends.
    message(
      'anthropic-leak',
      [
        {
          type: 'text',
          text: `I'll search for that.${section(call('functions.search_web:0', { query: 'acme outage status', max_results: 5 }))}`,
        },
      ],
      'end_turn',
      { input_tokens: 905, output_tokens: 48 },
    ),
    { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: `req_${alnum('anthropic-overloaded', 24)}` },
  ];
}

/** Anthropic SSE: `event:` and `data:` lines, a blank line after each event. */
function anthropicSse(events: Json[]): string {
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

function anthropicStream(): string {
  const start = (seed: string) => ({
    type: 'message_start',
    message: {
      id: msgId(seed),
      type: 'message',
      role: 'assistant',
      model: ANTHROPIC_MODEL,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 930, output_tokens: 1 },
    },
  });
  const blockStart = (index: number, block: Json) => ({ type: 'content_block_start', index, content_block: block });
  const delta = (index: number, d: Json) => ({ type: 'content_block_delta', index, delta: d });
  const stop = (index: number) => ({ type: 'content_block_stop', index });
  const clean = [
    start('anthropic-stream-clean'),
    blockStart(0, { type: 'thinking', thinking: '' }),
    delta(0, { type: 'thinking_delta', thinking: 'Two lookups: the weather in Paris' }),
    delta(0, { type: 'thinking_delta', thinking: ' and the calendar for tomorrow.' }),
    stop(0),
    { type: 'ping' },
    blockStart(1, { type: 'tool_use', id: toolu('anthropic-stream-1'), name: 'get_weather', input: {} }),
    delta(1, { type: 'input_json_delta', partial_json: '' }),
    delta(1, { type: 'input_json_delta', partial_json: '{"city": "Par' }),
    delta(1, { type: 'input_json_delta', partial_json: 'is", "days": 1}' }),
    stop(1),
    blockStart(2, { type: 'tool_use', id: toolu('anthropic-stream-2'), name: 'list_events', input: {} }),
    delta(2, { type: 'input_json_delta', partial_json: '{"date": "2025-10-22"}' }),
    stop(2),
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 74 } },
    { type: 'message_stop' },
  ];
  const broken = [
    start('anthropic-stream-overloaded'),
    blockStart(0, { type: 'text', text: '' }),
    delta(0, { type: 'text_delta', text: 'Let me pull the' }),
    delta(0, { type: 'text_delta', text: ' incident list' }),
    { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  ];
  return anthropicSse(clean) + anthropicSse(broken);
}

// ---- OpenAI Responses API: gpt-oss served through /v1/responses (vLLM) ----

const OSS_MODEL = 'openai/gpt-oss-120b';
/** The flat tool shape the Responses API declares: {type, name, description, parameters}. */
const flatTools = (...tools: Array<{ function: { name: string; description: string; parameters: Json } }>) =>
  tools.map((t) => ({
    type: 'function',
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
    strict: false,
  }));
const RESPONSES_TOOLS = flatTools(TOOLS.weather, TOOLS.search);

function responsesObject(seed: string, output: Json[], created: number, usage: Json): Json {
  return {
    id: `resp_${hex(seed, 32)}`,
    object: 'response',
    created_at: created,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: OSS_MODEL,
    output,
    tool_choice: 'auto',
    tools: RESPONSES_TOOLS,
    usage,
  };
}

function openAiResponses(): Json[] {
  const reasoning = (seed: string, text: string) => ({
    id: `rs_${hex(seed, 32)}`,
    type: 'reasoning',
    summary: [],
    content: [{ type: 'reasoning_text', text }],
  });
  const fc = (seed: string, name: string, argumentsText: string) => ({
    id: `fc_${hex(seed, 32)}`,
    type: 'function_call',
    status: 'completed',
    call_id: `call_${alnum(seed, 24)}`,
    name,
    arguments: argumentsText,
  });
  return [
    responsesObject(
      'responses-clean',
      [
        reasoning('responses-clean', 'The user wants the weather in Lisbon. Call get_weather.'),
        fc('responses-clean', 'get_weather', '{"city":"Lisbon","unit":"celsius"}'),
      ],
      1_761_040_400,
      { input_tokens: 402, output_tokens: 38, total_tokens: 440 },
    ),
    // max_results 50 breaks the schema's maximum of 20.
    responsesObject(
      'responses-schema',
      [
        reasoning('responses-schema', 'Search broadly: ask for many results.'),
        fc('responses-schema', 'search_web', '{"query":"acme outage postmortem","max_results":50}'),
      ],
      1_761_040_460,
      { input_tokens: 410, output_tokens: 44, total_tokens: 454 },
    ),
  ];
}

function openAiResponsesStream(): string {
  const seq = (events: Json[]): Json[] => events.map((e, i) => ({ ...e, sequence_number: i }));
  const created = (seed: string, at: number) => ({
    type: 'response.created',
    response: {
      id: `resp_${hex(seed, 32)}`,
      object: 'response',
      created_at: at,
      status: 'in_progress',
      model: OSS_MODEL,
      output: [],
      tool_choice: 'auto',
      tools: RESPONSES_TOOLS,
      usage: null,
    },
  });
  const completed = (seed: string, at: number, output: Json[], usage: Json) => ({
    type: 'response.completed',
    response: { ...created(seed, at).response, status: 'completed', output, usage },
  });
  // 1. The server's parser missed the call: the Harmony markup streams out as output_text (with event: lines).
  const leakText = [
    'Let me search. ',
    '<|channel|>commentary to=functions.search_web <|constrain|>json<|message|>',
    '{"query":"acme outage"}',
    '<|call|>',
  ];
  const leakMsg = {
    id: `msg_${hex('responses-leak', 32)}`,
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: leakText.join(''), annotations: [] }],
  };
  const leak = seq([
    created('responses-leak', 1_761_040_520),
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { id: `rs_${hex('responses-leak', 32)}`, type: 'reasoning', summary: [] },
    },
    {
      type: 'response.reasoning_text.delta',
      item_id: `rs_${hex('responses-leak', 32)}`,
      output_index: 0,
      content_index: 0,
      delta: 'Search the web',
    },
    {
      type: 'response.reasoning_text.delta',
      item_id: `rs_${hex('responses-leak', 32)}`,
      output_index: 0,
      content_index: 0,
      delta: ' for the outage.',
    },
    { type: 'response.output_item.added', output_index: 1, item: { ...leakMsg, status: 'in_progress', content: [] } },
    ...leakText.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: leakMsg.id,
      output_index: 1,
      content_index: 0,
      delta,
      logprobs: [],
    })),
    { type: 'response.output_item.done', output_index: 1, item: leakMsg },
    completed('responses-leak', 1_761_040_520, [leakMsg], { input_tokens: 398, output_tokens: 41, total_tokens: 439 }),
  ]);
  // 2. A clean call, its arguments in fragments (data: lines alone, as some proxies log them).
  const call = {
    id: `fc_${hex('responses-stream-call', 32)}`,
    type: 'function_call',
    status: 'completed',
    call_id: `call_${alnum('responses-stream-call', 24)}`,
    name: 'get_weather',
    arguments: '{"city":"Oslo"}',
  };
  const clean = seq([
    created('responses-stream-call', 1_761_040_580),
    { type: 'response.output_item.added', output_index: 0, item: { ...call, status: 'in_progress', arguments: '' } },
    ...['{"ci', 'ty":"', 'Oslo"}'].map((delta) => ({
      type: 'response.function_call_arguments.delta',
      item_id: call.id,
      output_index: 0,
      delta,
    })),
    { type: 'response.function_call_arguments.done', item_id: call.id, output_index: 0, arguments: call.arguments },
    { type: 'response.output_item.done', output_index: 0, item: call },
    completed('responses-stream-call', 1_761_040_580, [call], { input_tokens: 395, output_tokens: 19, total_tokens: 414 }),
  ]);
  return (
    leak.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('') +
    clean.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')
  );
}

// ---- Ollama: Qwen3 on a laptop, /api/chat streamed as NDJSON and /api/generate in raw mode ----

function ollamaNdjson(): string {
  const at = (s: number) =>
    `2025-10-21T09:${String(10 + Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${hex(`t${s}`, 6).replace(/[a-f]/g, '7')}Z`;
  const chat = (s: number, message: Json, done = false, extra: Json = {}) => ({
    model: 'qwen3:8b',
    created_at: at(s),
    message: { role: 'assistant', content: '', ...message },
    done,
    ...extra,
  });
  const timings = (n: number) => ({
    total_duration: 2_113_000_000 + n,
    load_duration: 31_250_000,
    prompt_eval_count: 412,
    prompt_eval_duration: 180_400_000,
    eval_count: 38 + n,
    eval_duration: 1_702_000_000,
  });
  // 1. Two streamed calls after a thinking block, arguments as objects.
  const stream = [
    chat(0, { thinking: 'Two cities: call get_weather' }),
    chat(1, { thinking: ' for each.' }),
    chat(2, { tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Oslo' } } }] }),
    chat(3, { tool_calls: [{ function: { name: 'get_weather', arguments: { unit: 'celsius', city: 'Bergen' } } }] }),
    chat(4, {}, true, { done_reason: 'stop', ...timings(0) }),
  ];
  // 2. /api/generate with raw: true — the Hermes-style call as the model wrote it, and a second call cut by num_predict.
  const raw = {
    model: 'qwen3:8b',
    created_at: at(9),
    response:
      '<tool_call>\n{"name": "search_web", "arguments": {"query": "acme outage"}}\n</tool_call>\n<tool_call>\n{"name": "search_web", "arguments": {"query": "acme stat',
    done: true,
    done_reason: 'length',
    ...timings(7),
  };
  return [...stream, raw].map((v) => JSON.stringify(v)).join('\n') + '\n';
}

// ---- llama.cpp server: Kimi K2 GGUF behind llama-server (--jinja --verbose) ----

function llamaCppLog(): string {
  const timings = (promptN: number, predictedN: number) => ({
    prompt_n: promptN,
    prompt_ms: round4(promptN * 1.17),
    prompt_per_token_ms: 1.17,
    prompt_per_second: 854.7,
    predicted_n: predictedN,
    predicted_ms: round4(predictedN * 21.4),
    predicted_per_token_ms: 21.4,
    predicted_per_second: 46.73,
  });
  const GGUF = 'Kimi-K2-Instruct-0905-UD-Q2_K_XL.gguf';
  // 1. /v1/chat/completions with __verbose: the raw completion has two calls, the parsed message one.
  const twoCalls = section(call('functions.get_weather:0', { city: 'Oslo' }), call('functions.get_weather:1', { city: 'Bergen' }));
  const verboseChat = {
    choices: [
      {
        finish_reason: 'tool_calls',
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' }, id: 'functions.get_weather:0' },
          ],
        },
      },
    ],
    created: 1_761_041_000,
    model: GGUF,
    system_fingerprint: 'b6912-3c1f5a2e',
    object: 'chat.completion',
    usage: { completion_tokens: 31, prompt_tokens: 388, total_tokens: 419 },
    id: `chatcmpl-${alnum('llama-verbose', 32)}`,
    __verbose: {
      index: 0,
      content: twoCalls,
      tokens: [],
      id_slot: 0,
      stop: true,
      model: GGUF,
      tokens_predicted: 31,
      tokens_evaluated: 388,
      stop_type: 'eos',
      stopping_word: '',
      tokens_cached: 418,
      timings: timings(388, 31),
      truncated: false,
    },
    timings: timings(388, 31),
  };
  // 2. /completion with n_probs: a clean call, every token with its logprob and one alternative.
  const clean = section(call('functions.search_web:0', { query: 'acme outage' }));
  const tokens = recordedTokens(clean, true);
  const completion = {
    index: 0,
    content: clean,
    tokens: [],
    id_slot: 0,
    stop: true,
    model: GGUF,
    tokens_predicted: tokens.length,
    tokens_evaluated: 402,
    stop_type: 'eos',
    stopping_word: '',
    tokens_cached: 402 + tokens.length,
    timings: timings(402, tokens.length),
    truncated: false,
    completion_probabilities: tokens.map((t) => ({
      id: t.id,
      token: t.text,
      logprob: t.logprob,
      top_logprobs: (t.top ?? []).map((a) => ({ id: a.id, token: a.text, logprob: a.logprob })),
    })),
  };
  // 3. A streamed chat whose parser gave up: the error quotes the markup the client never got as calls.
  const chunk = (delta: Json) => ({
    choices: [{ finish_reason: null, index: 0, delta }],
    created: 1_761_041_060,
    id: `chatcmpl-${alnum('llama-parse-error', 32)}`,
    model: GGUF,
    system_fingerprint: 'b6912-3c1f5a2e',
    object: 'chat.completion.chunk',
  });
  const failed = `Failed to parse input at pos 0: ${section(call('functions.create_calendar_event:0', { title: 'Outage review', start: '2025-10-22T10:00:00Z' }))}`;
  const sse = [chunk({ role: 'assistant', content: null }), { error: { code: 500, message: failed, type: 'server_error' } }]
    .map((v) => `data: ${JSON.stringify(v)}\n\n`)
    .join('');
  return `${JSON.stringify(verboseChat)}\n${JSON.stringify(completion)}\n${sse}`;
}

// ---- Python printouts: what a bug report pastes (print(completion), a print loop over a stream) ----

/** A Python object repr: `Name(key=value, …)`. */
class Py {
  constructor(
    readonly name: string,
    readonly fields: Array<[string, unknown]>,
  ) {}
}
const py = (name: string, fields: Record<string, unknown>) => new Py(name, Object.entries(fields));

/** Python's repr of a str: single quotes unless the text has one and no double quote. */
function pyStr(text: string): string {
  const q = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = q;
  for (const c of text) {
    if (c === '\\') out += '\\\\';
    else if (c === q) out += `\\${q}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else out += c;
  }
  return out + q;
}

function pyRepr(value: unknown): string {
  if (value instanceof Py) return `${value.name}(${value.fields.map(([k, v]) => `${k}=${pyRepr(v)}`).join(', ')})`;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${pyStr(k)}: ${pyRepr(v)}`)
    .join(', ')}}`;
}

function pythonPrintouts(): string {
  const created = 1_761_041_200;
  // 1. print(chunk) over a vLLM stream whose parser let the Kimi markup through as content.
  const id = `chatcmpl-${hex('python-leak', 32)}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    py('ChatCompletionChunk', {
      id,
      choices: [
        py('Choice', {
          delta: py('ChoiceDelta', { content: null, function_call: null, refusal: null, role: null, tool_calls: null, ...delta }),
          finish_reason: finish,
          index: 0,
          logprobs: null,
        }),
      ],
      created,
      model: MODEL,
      object: 'chat.completion.chunk',
      service_tier: null,
      system_fingerprint: null,
      usage: null,
    });
  const leak = [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Let me check. ' }),
    chunk({ content: S }),
    chunk({ content: `${B}functions.get_weather:0${A}{"city": "Lyon"}${C}` }),
    chunk({ content: E }),
    chunk({}, 'stop'),
  ];
  // 2. print(completion): calls, but finish_reason "stop" (the server's finish reason ignored the calls).
  const completion = py('ChatCompletion', {
    id: `chatcmpl-${hex('python-finish', 32)}`,
    choices: [
      py('Choice', {
        finish_reason: 'stop',
        index: 0,
        logprobs: null,
        message: py('ChatCompletionMessage', {
          content: null,
          refusal: null,
          role: 'assistant',
          annotations: null,
          audio: null,
          function_call: null,
          tool_calls: [
            py('ChatCompletionMessageToolCall', {
              id: 'functions.search_web:0',
              function: py('Function', { arguments: '{"query": "acme outage"}', name: 'search_web' }),
              type: 'function',
            }),
          ],
          reasoning_content: null,
        }),
        stop_reason: 163586,
      }),
    ],
    created: created + 60,
    model: MODEL,
    object: 'chat.completion',
    service_tier: null,
    system_fingerprint: null,
    usage: py('CompletionUsage', {
      completion_tokens: 22,
      prompt_tokens: 401,
      total_tokens: 423,
      completion_tokens_details: null,
      prompt_tokens_details: null,
    }),
    prompt_logprobs: null,
  });
  return `${leak.map(pyRepr).join('\n')}\n\n${pyRepr(completion)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// real-failures.jsonl: the shapes public failure reports show (test/fixtures/real/ holds the reports themselves),
// written for this operations assistant: what a client received, without a raw completion.

function realFailures(): Json[] {
  const tools = [TOOLS.weather, TOOLS.search];
  const record = (id: string, note: string, model: string, user: string, response: unknown, extra: Json = {}): Json => ({
    toolscope: 1,
    id,
    request: {
      model,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: user },
      ],
      tools,
      ...extra,
    },
    response,
    meta: { source: 'proxy-capture', model, created: `2025-10-22T10:${String(minute++).padStart(2, '0')}:00Z`, note },
  });
  const message = (fields: Json, finish: string) => ({
    id: `chatcmpl-${hex(JSON.stringify(fields), 12)}`,
    object: 'chat.completion',
    created: 1_761_127_200,
    choices: [{ index: 0, message: { role: 'assistant', ...fields }, finish_reason: finish }],
  });
  const streamOf = (model: string, seed: string, deltas: Json[], finish: string) =>
    stream(seed, deltas, finish, 1_761_127_200).map((c) => ({ ...(c as Record<string, Json>), model }));
  return [
    record(
      'calls-in-reasoning-content',
      'Kimi K2 Thinking wrote its tool-call section before closing its reasoning; the server kept the section in reasoning_content, so the client ran nothing.',
      'moonshotai/Kimi-K2-Thinking',
      'What is the weather in Lisbon, and any news about the Lisbon tram strike?',
      message(
        {
          content: null,
          reasoning_content: `The user wants the weather and news. I'll call both tools. ${S}${call('functions.get_weather:0', { city: 'Lisbon' })}${call('functions.search_web:1', { query: 'Lisbon tram strike' })}${E}`,
        },
        'stop',
      ),
    ),
    record(
      'calls-in-streamed-reasoning',
      'DeepSeek-V3.1 in thinking mode: the call streamed as `reasoning` deltas and never became a tool call.',
      'deepseek-ai/DeepSeek-V3.1',
      'Weather in Porto tomorrow?',
      streamOf(
        'deepseek-ai/DeepSeek-V3.1',
        'calls-in-streamed-reasoning',
        [
          { role: 'assistant', reasoning: 'The user asks for the weather in Porto.' },
          { reasoning: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>' },
          { reasoning: '{"city": "Porto", "days": 2}' },
          { reasoning: '<｜tool▁call▁end｜><｜tool▁calls▁end｜>' },
        ],
        'stop',
      ),
    ),
    record(
      'reserved-token-spelling-in-content',
      'An Ollama GGUF build of Kimi K2 decoded the tool-call markers by id (<|reserved_token_163595|> …): no parser recognised them, the call reached the client as text.',
      'kimi-k2:1t-cloud',
      'Weather in Faro?',
      message(
        {
          content: `<|reserved_token_163595|><|reserved_token_163597|>functions.get_weather:0<|reserved_token_163598|>{"city": "Faro"}<|reserved_token_163599|><|reserved_token_163596|>`,
        },
        'stop',
      ),
    ),
    record(
      'leaked-call-bad-id',
      'Kimi K2.5 wrote ids without "functions." and ":" (functionsget_weather0, after a client sanitised the history ids); the server\'s parser refused them and streamed the section as content.',
      'moonshotai/Kimi-K2.5',
      'Weather in Braga and Coimbra?',
      message(
        {
          content: `${S}${call('functionsget_weather0', { city: 'Braga' })}${call('functionsget_weather1', { city: 'Coimbra', unit: 'kelvin' })}${E}`,
        },
        'stop',
      ),
    ),
    record(
      'bare-json-call-in-content',
      'Qwen2.5 behind a server without a tool parser answered with the call as bare JSON: the client printed it instead of running it.',
      'Qwen/Qwen2.5-7B-Instruct',
      'Search the web for the Lisbon tram strike.',
      message({ content: '{"name": "search_web", "arguments": {"query": "Lisbon tram strike"}}' }, 'stop'),
    ),
    record(
      'dsml-lookalike-in-content',
      "DeepSeek's DSML call markup reached the content spelled with DOUBLE VERTICAL LINE bars (<‖DSML‖tool_calls>, as lsdefine/GenericAgent issue 804 saw it): no parser reads that spelling, so it is reported as unknown markup.",
      'deepseek-ai/DeepSeek-V4-Flash',
      'Weather in Évora?',
      message(
        {
          content:
            '<‖DSML‖tool_calls>\n<‖DSML‖invoke name="get_weather">\n<‖DSML‖parameter name="city" string="true">Évora</‖DSML‖parameter>\n</‖DSML‖invoke>\n</‖DSML‖tool_calls>',
        },
        'stop',
      ),
    ),
  ];
}

// ---- OpenTelemetry GenAI spans: an agent's OTLP JSON export (OpenLLMetry / Langfuse / Phoenix pipelines) ----

const kv = (key: string, value: unknown): Json => ({
  key,
  value:
    typeof value === 'number' ? { intValue: String(value) } : { stringValue: typeof value === 'string' ? value : JSON.stringify(value) },
});

function otelSpan(seed: string, name: string, attributes: Json[], start: number, ms: number): Json {
  const startNs = BigInt(start) * 1_000_000_000n;
  return {
    traceId: hex('otel-trace', 32),
    spanId: hex(seed, 16),
    name,
    kind: 3,
    startTimeUnixNano: String(startNs),
    endTimeUnixNano: String(startNs + BigInt(ms) * 1_000_000n),
    attributes,
    status: {},
  };
}

const otelExport = (service: string, scope: string, spans: Json[]): Json => ({
  resourceSpans: [{ resource: { attributes: [kv('service.name', service)] }, scopeSpans: [{ scope: { name: scope }, spans }] }],
});

/** A pretty-printed export (current conventions: messages as JSON strings with parts) and a one-line export (OpenLLMetry's flattened attributes). */
function otelSpans(): string {
  const user = (text: string) => ({ role: 'user', parts: [{ type: 'text', content: text }] });
  const toolDefinitions = [TOOLS.weather, TOOLS.search].map((t) => ({
    type: 'function',
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
  }));
  const callId = `functions.get_weather:0`;
  const current = otelExport('acme-ops-agent', 'opentelemetry.instrumentation.openai_v2', [
    otelSpan(
      'otel-agent',
      'invoke_agent ops',
      [kv('gen_ai.operation.name', 'invoke_agent'), kv('gen_ai.agent.name', 'ops')],
      1_761_040_300,
      4200,
    ),
    otelSpan(
      'otel-chat-clean',
      `chat ${MODEL}`,
      [
        kv('gen_ai.operation.name', 'chat'),
        kv('gen_ai.provider.name', 'openai'),
        kv('gen_ai.request.model', MODEL),
        kv('gen_ai.response.id', `chatcmpl-${hex('otel-chat-clean', 32)}`),
        kv('gen_ai.usage.input_tokens', 884),
        kv('gen_ai.usage.output_tokens', 23),
        kv('gen_ai.system_instructions', [{ type: 'text', content: SYSTEM }]),
        kv('gen_ai.input.messages', [user('What is the weather in Lisbon?')]),
        kv('gen_ai.output.messages', [
          {
            role: 'assistant',
            parts: [{ type: 'tool_call', id: callId, name: 'get_weather', arguments: { city: 'Lisbon' } }],
            finish_reason: 'tool_call',
          },
        ]),
        kv('gen_ai.tool.definitions', toolDefinitions),
      ],
      1_761_040_300,
      900,
    ),
    otelSpan(
      'otel-tool',
      'execute_tool get_weather',
      [kv('gen_ai.operation.name', 'execute_tool'), kv('gen_ai.tool.name', 'get_weather'), kv('gen_ai.tool.call.id', callId)],
      1_761_040_301,
      120,
    ),
  ]);
  // OpenLLMetry's flattened attributes; the endpoint's parser missed the call, so the Kimi markup is the content.
  const leaked = `Searching now.${section(call('functions.search_web:0', { query: 'acme outage status', max_results: 5 }))}`;
  const legacy = otelExport('acme-ops-agent', 'opentelemetry.instrumentation.openai.v1', [
    otelSpan(
      'otel-chat-leak',
      'openai.chat',
      [
        kv('llm.request.type', 'chat'),
        kv('gen_ai.system', 'OpenAI'),
        kv('gen_ai.request.model', MODEL),
        ...[TOOLS.weather, TOOLS.search].flatMap((t, i) => [
          kv(`llm.request.functions.${i}.name`, t.function.name),
          kv(`llm.request.functions.${i}.description`, t.function.description),
          kv(`llm.request.functions.${i}.parameters`, t.function.parameters),
        ]),
        kv('gen_ai.prompt.0.role', 'system'),
        kv('gen_ai.prompt.0.content', SYSTEM),
        kv('gen_ai.prompt.1.role', 'user'),
        kv('gen_ai.prompt.1.content', 'Is there an outage at Acme right now?'),
        kv('gen_ai.usage.prompt_tokens', 902),
        kv('gen_ai.usage.completion_tokens', 41),
        kv('gen_ai.completion.0.role', 'assistant'),
        kv('gen_ai.completion.0.finish_reason', 'stop'),
        kv('gen_ai.completion.0.content', leaked),
      ],
      1_761_040_400,
      1300,
    ),
  ]);
  return `${JSON.stringify(current, null, 2)}\n${JSON.stringify(legacy)}\n`;
}

// ---- What observability tools and vendor verifiers export: Langfuse, LangSmith, Phoenix (OpenInference), MiniMax ----

const USER_LISBON = 'What is the weather in Lisbon?';
const USER_OUTAGE = 'Is there an outage at Acme right now?';
const chatInput = (user: string) => ({
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ],
  tools: [TOOLS.weather, TOOLS.search],
});
const parsedCall = (id: string, name: string, value: unknown) => ({ id, type: 'function', function: { name, arguments: args(value) } });
// The endpoint's parser missed the call: the Kimi markup reaches the client as content.
const LEAKED_SEARCH = `Checking the status page.${section(call('functions.search_web:0', { query: 'acme outage status', max_results: 5 }))}`;

/**
 * Langfuse's blob storage export (observations_v2, JSONL; snake_case, input/output as JSON text): the agent's span
 * (no model call), a generation whose parsed call is clean, and one whose content holds the leaked markup. Langfuse
 * keeps the parsed assistant message only, so both say which checks could not run.
 */
function langfuseObservations(): Json[] {
  const traceId = hex('langfuse-trace', 32);
  const row = (id: string, type: string, name: string, second: number, input: unknown, output: unknown, model: string | null) => ({
    id,
    trace_id: traceId,
    project_id: 'acme-ops',
    environment: 'production',
    type,
    name,
    start_time: `2025-10-21 10:20:${String(second).padStart(2, '0')}.000000`,
    end_time: `2025-10-21 10:20:${String(second + 1).padStart(2, '0')}.200000`,
    parent_observation_id: type === 'SPAN' ? '' : `span-${hex('langfuse-span', 8)}`,
    level: 'DEFAULT',
    status_message: '',
    input: JSON.stringify(input),
    output: output === null ? '' : JSON.stringify(output),
    provided_model_name: model,
    model_parameters: model ? JSON.stringify({ temperature: 0.6 }) : null,
    usage_details: model ? { input: 884, output: 23, total: 907 } : {},
  });
  return [
    row(`span-${hex('langfuse-span', 8)}`, 'SPAN', 'ops-agent', 0, { question: USER_LISBON }, null, null),
    row(
      `gen-${hex('langfuse-clean', 8)}`,
      'GENERATION',
      'OpenAI-generation',
      1,
      chatInput(USER_LISBON),
      { role: 'assistant', content: null, tool_calls: [parsedCall('functions.get_weather:0', 'get_weather', { city: 'Lisbon' })] },
      MODEL,
    ),
    row(
      `gen-${hex('langfuse-leak', 8)}`,
      'GENERATION',
      'OpenAI-generation',
      3,
      chatInput(USER_OUTAGE),
      { role: 'assistant', content: LEAKED_SEARCH },
      MODEL,
    ),
  ];
}

/**
 * LangSmith runs as its bulk export writes them (JSONL here; Parquet the same columns): the agent's chain run (no
 * model call), an llm run whose outputs kept the whole chat.completion (its call breaks the schema: max_results 50
 * > 20), and one that kept LangChain's generations (parsed message only).
 */
function langsmithRuns(): Json[] {
  const traceId = uuidLike('langsmith-trace');
  const run = (seed: string, runType: string, name: string, second: number, inputs: unknown, outputs: unknown) => ({
    id: runType === 'chain' ? traceId : uuidLike(seed),
    trace_id: traceId,
    parent_run_id: runType === 'chain' ? null : traceId,
    name,
    run_type: runType,
    status: 'success',
    start_time: `2025-10-21T10:25:${String(second).padStart(2, '0')}.000000`,
    end_time: `2025-10-21T10:25:${String(second + 1).padStart(2, '0')}.400000`,
    inputs,
    outputs,
    error: null,
    extra: { metadata: runType === 'llm' ? { ls_provider: 'openai', ls_model_name: MODEL } : {} },
    tags: [],
  });
  const completion = {
    id: `chatcmpl-${hex('langsmith-raw', 24)}`,
    object: 'chat.completion',
    created: 1_761_042_301,
    model: MODEL,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [parsedCall('functions.search_web:0', 'search_web', { query: 'acme outage status', max_results: 50 })],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 902, completion_tokens: 31, total_tokens: 933 },
  };
  const generation = {
    generations: [
      [
        {
          text: '',
          type: 'ChatGeneration',
          generation_info: { finish_reason: 'tool_calls' },
          message: {
            role: 'assistant',
            content: '',
            tool_calls: [parsedCall('functions.get_weather:0', 'get_weather', { city: 'Lisbon', unit: 'celsius' })],
          },
        },
      ],
    ],
  };
  return [
    run('langsmith-chain', 'chain', 'ops_agent', 0, { question: USER_OUTAGE }, { answer: 'No outage is reported.' }),
    run('langsmith-raw', 'llm', 'ChatOpenAI', 1, { ...chatInput(USER_OUTAGE), model: MODEL }, completion),
    run('langsmith-parsed', 'llm', 'ChatOpenAI', 4, { ...chatInput(USER_LISBON), model: MODEL }, generation),
  ];
}

/** A UUID-shaped id from a seed. */
function uuidLike(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Phoenix spans with OpenInference's flattened attributes (its span JSONL): the agent's CHAIN span (no model call)
 * and an LLM span whose output message calls a tool the request never offered (`get_stock_price`).
 */
function phoenixSpans(): Json[] {
  const traceId = uuidLike('phoenix-trace');
  const agent = uuidLike('phoenix-agent');
  const span = (id: string, name: string, kind: string, attributes: Json) => ({
    name,
    context: { trace_id: traceId, span_id: id },
    span_kind: kind,
    parent_id: kind === 'CHAIN' ? null : agent,
    start_time: '2025-10-21T10:30:00.000000+00:00',
    end_time: '2025-10-21T10:30:01.500000+00:00',
    status_code: 'OK',
    status_message: '',
    attributes,
    events: [],
  });
  const tools = [TOOLS.weather, TOOLS.search];
  return [
    span(agent, 'ops-agent', 'CHAIN', { 'openinference.span.kind': 'CHAIN', 'input.value': 'How is ACME stock doing today?' }),
    span(uuidLike('phoenix-llm'), 'ChatCompletion', 'LLM', {
      'openinference.span.kind': 'LLM',
      'llm.model_name': MODEL,
      'llm.provider': 'openai',
      'llm.invocation_parameters': JSON.stringify({ temperature: 0.6 }),
      'llm.input_messages.0.message.role': 'system',
      'llm.input_messages.0.message.content': SYSTEM,
      'llm.input_messages.1.message.role': 'user',
      'llm.input_messages.1.message.content': 'How is ACME stock doing today?',
      ...Object.fromEntries(tools.map((t, i) => [`llm.tools.${i}.tool.json_schema`, JSON.stringify(t)])),
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'functions.get_stock_price:0',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'get_stock_price',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': JSON.stringify({ ticker: 'ACME' }),
      'llm.token_count.prompt': 871,
      'llm.token_count.completion': 19,
    }),
  ];
}

/**
 * MiniMax-Provider-Verifier's results.jsonl (verify.py: K2VV's result line plus its validators' verdicts): a clean
 * call, and an answer that is reasoning alone (its error_only_reasoning verdict).
 */
function minimaxVerifierResults(): Json[] {
  const model = 'MiniMaxAI/MiniMax-M2.1';
  const request = (user: string) => ({ ...chatInput(user), model, temperature: 1.0 });
  const response = (seed: string, message: Json, finish: string) => ({
    id: `chatcmpl-${hex(seed, 24)}`,
    object: 'chat.completion',
    created: 1_761_043_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 884, completion_tokens: 40, total_tokens: 924 },
  });
  const line = (i: number, user: string, message: Json, finish: string, verdicts: Json) => ({
    data_index: i,
    request: request(user),
    response: response(`minimax-${i}`, message, finish),
    status: 'success',
    finish_reason: finish,
    last_run_at: `2025-10-21T10:35:0${i}.000000`,
    duration_ms: 900 + i * 111,
    hash: k2vvRequestHash(request(user)),
    error_only_reasoning_checked: 1,
    ...verdicts,
  });
  return [
    line(
      1,
      USER_LISBON,
      { content: null, reasoning: 'The user wants the weather.', tool_calls: [parsedCall('call_1_0', 'get_weather', { city: 'Lisbon' })] },
      'tool_calls',
      { error_only_reasoning: false, tool_calls_finish_reason: 'tool_calls', tool_calls_valid: true, tool_calls_count: 1 },
    ),
    line(2, USER_OUTAGE, { content: '', reasoning: 'I should search the status page for an outage.' }, 'stop', {
      error_only_reasoning: true,
      tool_calls_finish_reason: 'stop',
    }),
  ];
}

/** Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True) for the ASCII values written here. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson((value as Json)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The DeepSeek provider verifier's attempts.jsonl (evidence.py's hash-chained envelopes, keys sorted, compact): the
 * run's manifest, then per attempt its attempt_start and attempt records — a clean call, and a call whose
 * max_results (50) breaks the declared maximum (20). Each record_hash is the sha256 of the envelope without it.
 */
function deepseekAttempts(): string {
  const model = 'deepseek-v4-flash';
  const records: Json[] = [{ kind: 'manifest', manifest_hash: hex('deepseek-manifest', 64) }];
  const attempt = (n: number, caseId: string, user: string, name: string, value: unknown) => {
    const request = {
      model,
      messages: [{ role: 'user', content: user }],
      tools: [TOOLS.weather, TOOLS.search],
      stream: false,
      max_tokens: 1024,
    };
    const requestHash = createHash('sha256').update(sortedJson(request)).digest('hex');
    const body = {
      id: `ds-${hex(caseId, 12)}`,
      object: 'chat.completion',
      created: 1_761_044_000 + n,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: '', tool_calls: [{ index: 0, ...parsedCall(`call_00_${hex(caseId, 8)}`, name, value) }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 180, completion_tokens: 22, total_tokens: 202 },
    };
    const step = {
      attempt_number: 1,
      case_id: caseId,
      endpoint: 'candidate',
      prompt_id: caseId.split('.')[0],
      repetition: 0,
      retry: 0,
      step: 0,
    };
    records.push({ ...step, kind: 'attempt_start', protocol: 'chat', request_hash: requestHash });
    records.push({
      kind: 'attempt',
      attempt: {
        ...step,
        capture: {
          body_base64: Buffer.from(JSON.stringify(body)).toString('base64'),
          body_omission_reason: null,
          chunks: [],
          decoded_json: body,
          error: null,
          headers: { 'content-type': 'application/json' },
          schema_version: 1,
          status_code: 200,
          timings: { total_seconds: 1.5 + n / 4 },
        },
        error: null,
        events: [],
        evidence_hash: hex(`${caseId}-evidence`, 64),
        http_exchange_completed: true,
        request,
        request_hash: requestHash,
        response: { status_code: 200 },
        schema_version: 1,
        status_code: 200,
        timings: { total_seconds: 1.5 + n / 4 },
      },
    });
  };
  attempt(1, 'weather.r0', USER_LISBON, 'get_weather', { city: 'Lisbon' });
  attempt(2, 'outage.r0', USER_OUTAGE, 'search_web', { query: 'acme outage status', max_results: 50 });
  let previous = '0'.repeat(64);
  return records
    .map((record) => {
      const hashed = sortedJson({ previous_hash: previous, record });
      const recordHash = createHash('sha256').update(hashed).digest('hex');
      previous = recordHash;
      return `${hashed.slice(0, -1)},"record_hash":"${recordHash}"}`;
    })
    .join('\n')
    .concat('\n');
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Every sample file: name → exact content. */
export function generateSamples(): Record<string, string> {
  return {
    'kimi-k2-raw-completions.jsonl': jsonl(rawCompletions()),
    'k2vv-requests.jsonl': jsonl(k2vvRequests()),
    'k2vv-results.jsonl': jsonl(k2vvResults()),
    'openai-chat-completions.jsonl': jsonl(openAiCompletions()),
    'vllm-stream.sse.jsonl': sseDump(),
    'completions-logprobs.jsonl': jsonl(completionsLogprobs()),
    'malformed-lines.jsonl': malformed(),
    'other-formats.jsonl': jsonl(otherFormats()),
    'anthropic-messages.jsonl': jsonl(anthropicMessages()),
    'anthropic-stream.sse': anthropicStream(),
    'openai-responses.jsonl': jsonl(openAiResponses()),
    'openai-responses-stream.sse': openAiResponsesStream(),
    'ollama-chat-stream.ndjson': ollamaNdjson(),
    'llama-cpp-server.log': llamaCppLog(),
    'python-sdk-printouts.txt': pythonPrintouts(),
    'real-failures.jsonl': jsonl(realFailures()),
    'token-problems.jsonl': jsonl(tokenProblems()),
    'otel-genai-spans.json': otelSpans(),
    'langfuse-observations.jsonl': jsonl(langfuseObservations()),
    'langsmith-runs.jsonl': jsonl(langsmithRuns()),
    'phoenix-spans.jsonl': jsonl(phoenixSpans()),
    'minimax-verifier-results.jsonl': jsonl(minimaxVerifierResults()),
    'deepseek-verifier-attempts.jsonl': deepseekAttempts(),
  };
}

if (require.main === module) {
  const dir = join(__dirname, '..', 'samples');
  const files = generateSamples();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  process.stdout.write(`wrote ${Object.keys(files).length} files to samples/\n`);
}
