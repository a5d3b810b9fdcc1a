/** Shared by the diagnostics tests: build a native record and run the real pipeline on it. */
import { Analyzer, type AnalysisOptions, type AnalyzedRecord } from '../../../src/core/analysis.ts';
import type { Diagnostic } from '../../../src/core/diagnostics/diagnostic.ts';
import type { DiagnosticKind } from '../../../src/core/diagnostics/registry.ts';
import type { ChatCompletionChunk, ChatTool, TraceRecord } from '../../../src/core/trace/record.ts';

export const S = '<|tool_calls_section_begin|>';
export const E = '<|tool_calls_section_end|>';
export const B = '<|tool_call_begin|>';
export const A = '<|tool_call_argument_begin|>';
export const C = '<|tool_call_end|>';

export const TOOLS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 1 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
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
  {
    type: 'function',
    function: {
      name: 'send_email',
      parameters: {
        type: 'object',
        properties: { to: { type: 'string', format: 'email' }, subject: { type: 'string' }, body: { type: 'string' } },
        required: ['to', 'subject'],
      },
    },
  },
];

export function call(id: string, args: string): string {
  return `${B}${id}${A}${args}${C}`;
}

export function section(...calls: string[]): string {
  return `${S}${calls.join('')}${E}`;
}

export function record(fields: Partial<TraceRecord>): TraceRecord {
  return { toolscope: 1, id: 'r1', request: { model: 'kimi-k2', messages: [{ role: 'user', content: 'hi' }], tools: TOOLS }, ...fields };
}

export function analyze(r: TraceRecord, options?: AnalysisOptions): AnalyzedRecord {
  return new Analyzer(options).analyze({ record: r, line: 1, lastLine: 1, source: 'native' });
}

export function ofKind(r: AnalyzedRecord, kind: DiagnosticKind): Diagnostic[] {
  return r.diagnostics.filter((d) => d.kind === kind);
}

/** A streamed response as chunks, one delta each, plus a final chunk with the finish reason. */
export function stream(deltas: ChatCompletionChunk['choices'][number]['delta'][], finish: string | null): ChatCompletionChunk[] {
  const chunks: ChatCompletionChunk[] = deltas.map((delta) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: null }],
  }));
  chunks.push({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  return chunks;
}

export function completionResponse(content: string | null, calls: Array<{ id: string; name: string; arguments: string }>, finish: string) {
  return {
    id: 'chatcmpl-2',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          ...(calls.length
            ? {
                tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
              }
            : {}),
        },
        finish_reason: finish,
      },
    ],
  };
}
