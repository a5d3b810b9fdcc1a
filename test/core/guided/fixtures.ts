/** Shared inputs of the guided tests: the tools of the shared/data documents, and completion builders. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatTool } from '../../../src/core/trace/record.ts';

/** The two tools the xgrammar 0.2.3 / 0.2.0 documents were generated with. */
export const DOC_TOOLS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
  { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
];

/** Richer tools for semantics: an enum, a bounded integer, a tool without parameters. */
export const TOOLS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      strict: true,
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
        required: ['city'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'search',
      parameters: {
        type: 'object',
        properties: { q: { type: 'string' }, top_k: { type: 'integer', minimum: 1, maximum: 20 } },
        required: ['q'],
      },
    },
  },
  { type: 'function', function: { name: 'now' } },
];

export const call = (name: string, index: number, args: string) =>
  `<|tool_call_begin|>functions.${name}:${index}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;
export const section = (...calls: string[]) => `<|tool_calls_section_begin|>${calls.join('')}<|tool_calls_section_end|>`;

/** ../shared/data/vllm-kimi, when this checkout sits next to it. */
export const SHARED_DATA = join(import.meta.dirname, '../../../../shared/data/vllm-kimi');

export function sharedFile(name: string): string | undefined {
  const path = join(SHARED_DATA, name);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** The JSON blocks of the 0.2.3 document, by heading (`### tool_choice = "auto"` …). */
export function parseShapeDocument(md: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const parts = md.split(/^### (.*)$/m);
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const body = (parts[i + 1] as string).trim().replace(/^```(?:json)?\n?|```$/g, '');
    out.set((parts[i] as string).trim(), JSON.parse(body));
  }
  return out;
}
