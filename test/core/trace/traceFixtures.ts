/**
 * Trace lines written for these tests (no real data): one or more of every shape the importers recognise.
 * The native records are also validated against docs/trace-record.schema.json.
 */
import type { TraceRecord } from '../../../src/core/trace/record.ts';

const S = '<|tool_calls_section_begin|>';
const B = '<|tool_call_begin|>';
const A = '<|tool_call_argument_begin|>';
const C = '<|tool_call_end|>';
const E = '<|tool_calls_section_end|>';

export const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

export const WEATHER_REQUEST = {
  model: 'kimi-k2',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Weather in Paris?' },
  ],
  tools: [WEATHER_TOOL],
  tool_choice: 'auto' as const,
  temperature: 0.6,
};

const CALL_TEXT = `${S}${B}functions.get_weather:0${A}{"city":"Paris"}${C}${E}`;

export const NATIVE_RECORDS: TraceRecord[] = [
  { toolscope: 1, id: 'minimal' },
  {
    toolscope: 1,
    id: 'raw-with-tokens',
    request: WEATHER_REQUEST,
    prompt: '<|im_system|>system<|im_middle|>You are a helpful assistant.<|im_end|>',
    completion: {
      text: CALL_TEXT,
      tokens: [
        { id: 163595, text: S, logprob: -0.01 },
        { id: 163597, text: B, logprob: 0 },
        {
          text: 'functions',
          logprob: -0.2,
          top: [
            { text: 'functions', logprob: -0.2 },
            { text: 'function', logprob: -1.9, id: 1412 },
          ],
        },
      ],
      finish_reason: 'tool_calls',
    },
    meta: {
      source: 'vllm',
      endpoint: '/v1/completions',
      model: 'kimi-k2',
      guided: false,
      parser: 'kimi_k2',
      created: '2025-01-01T00:00:00Z',
    },
  },
  {
    toolscope: 1,
    id: 'chat-response',
    request: WEATHER_REQUEST,
    response: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    },
  },
  {
    toolscope: 1,
    id: 'streamed',
    response: [
      { id: 'chatcmpl-2', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
      {
        id: 'chatcmpl-2',
        object: 'chat.completion.chunk',
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '' } }],
            },
          },
        ],
      },
      {
        id: 'chatcmpl-2',
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] } }],
      },
      { id: 'chatcmpl-2', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ],
    meta: { replayOf: 'raw-with-tokens' },
  },
  { toolscope: 1, id: 'failed', request: WEATHER_REQUEST, error: 'HTTP 429: rate limited', meta: { status: 'failed' } },
];

/** A chat request line as K2VV's sample files hold them (made up). */
export const CHAT_REQUEST_LINE = { ...WEATHER_REQUEST, max_tokens: 512, stream: false, user: 'tester' };

export const CHAT_COMPLETION = {
  id: 'chatcmpl-abc',
  object: 'chat.completion',
  created: 1700000000,
  model: 'kimi-k2',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Sunny.', tool_calls: null }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
};

export function k2vvLine(dataIndex: number, failed = false): Record<string, unknown> {
  return {
    data_index: dataIndex,
    request: CHAT_REQUEST_LINE,
    response: failed ? { error: 'Error code: 429 - rate limited' } : CHAT_COMPLETION,
    status: failed ? 'failed' : 'success',
    finish_reason: failed ? null : 'stop',
    tool_calls_valid: failed ? null : true,
    last_run_at: '2025-01-02T03:04:05.678901',
    duration_ms: 1234,
    hash: '0123456789abcdef0123456789abcdef',
  };
}

export const TEXT_COMPLETION = {
  id: 'cmpl-xyz',
  object: 'text_completion',
  created: 1700000000,
  model: 'kimi-k2',
  choices: [
    {
      index: 0,
      text: `Let me check.${S}`,
      finish_reason: 'length',
      logprobs: {
        tokens: ['Let', ' me', ' check', '.', 'token_id:163595'],
        token_logprobs: [-0.5, -0.1, -0.2, -0.05, -0.01],
        top_logprobs: [{ Let: -0.5, I: -1.2 }, null, { ' check': -0.2 }, { '.': -0.05 }, { 'token_id:163595': -0.01, 'token_id:13': -4.5 }],
        text_offset: [0, 3, 6, 12, 13],
      },
    },
  ],
};

export function chunk(id: string, delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'kimi-k2',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

export const jsonl = (values: unknown[]): string => values.map((v) => JSON.stringify(v)).join('\n') + '\n';
