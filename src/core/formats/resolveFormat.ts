/**
 * Which tool-call format a record is in, and on what evidence. In order of trust:
 * 1. `forced`: the caller said so (`--format`, the editor's `toolscope.format` setting);
 * 2. `named`: the record says so (`meta.format`);
 * 3. `markup`: the format's markup in the raw completion, else in the recorded response (a leak shows it too);
 * 4. `parser`: the server's tool-call parser named in `meta.parser` (`hermes`, `openai`…);
 * 5. `model`: the model name (`meta.model`, the request's, the response's) is one that writes a known format;
 * 6. `history`: earlier calls in the request carry ids in a format's own convention (Kimi's `functions.name:idx`);
 * 7. `default`: nothing to go on. The record is read as the default format (plain text parses the same anywhere),
 *    but the default's own conventions (Kimi's `functions.name:idx` call ids) are not held against it.
 */
import { isStreamedResponse, type TraceRecord } from '../trace/record.ts';
import type { ResponseMessage } from '../trace/responseMessage.ts';
import { DEFAULT_FORMAT, detectFormatIn, findFormat, formatNames, getFormat } from './registry.ts';
import type { ToolCallFormat } from './toolCallFormat.ts';

import type { FormatBasis } from '../../shared/formatBasis.ts';

export type { FormatBasis } from '../../shared/formatBasis.ts';

export interface ResolvedFormat {
  format: ToolCallFormat;
  basis: FormatBasis;
  /** What decided it, in words for the UI: `markup in the completion`, `model "openai/gpt-oss-120b"`… */
  evidence: string;
}

export function resolveFormat(record: TraceRecord, response: ResponseMessage | null, forced?: string): ResolvedFormat {
  if (forced) return { format: getFormat(forced), basis: 'forced', evidence: 'chosen by the user' };
  const named = findFormat(record.meta?.format);
  if (named) return { format: named, basis: 'named', evidence: `the record's meta.format` };
  const completionText = record.completion?.text;
  const inCompletion = typeof completionText === 'string' ? detectFormatIn(completionText) : null;
  if (inCompletion) return { format: inCompletion, basis: 'markup', evidence: 'its markup in the completion' };
  const inResponse = response ? detectFormatIn([response.reasoning ?? '', response.content ?? ''].join('\n')) : null;
  if (inResponse) return { format: inResponse, basis: 'markup', evidence: 'its markup in the response' };
  const parser = record.meta?.parser;
  if (typeof parser === 'string') {
    const byParser = formatOfParser(parser);
    if (byParser) return { format: byParser, basis: 'parser', evidence: `meta.parser "${parser}"` };
  }
  for (const model of modelNames(record)) {
    const byModel = formatOfModel(model);
    if (byModel) return { format: byModel, basis: 'model', evidence: `model "${model}"` };
  }
  const history = formatOfHistory(record);
  if (history) return { format: history.format, basis: 'history', evidence: `call id "${history.id}" in the request's history` };
  return {
    format: getFormat(DEFAULT_FORMAT),
    basis: 'default',
    evidence: 'assumed: no markup, parser, known model name or call ids in the record',
  };
}

/** The first call id in the request's history that follows some format's id convention, and that format. */
function formatOfHistory(record: TraceRecord): { format: ToolCallFormat; id: string } | null {
  const messages = record.request?.messages;
  if (!Array.isArray(messages)) return null;
  const withIds = formatNames()
    .map(getFormat)
    .filter((f) => f.callIds && f.callIds.evidence !== false);
  for (const m of messages) {
    const ids = [...(Array.isArray(m?.tool_calls) ? m.tool_calls.map((c) => c?.id) : []), m?.tool_call_id];
    for (const id of ids) {
      if (typeof id !== 'string' || id === '') continue;
      const format = withIds.find((f) => f.callIds?.problem(id) === null);
      if (format) return { format, id };
    }
  }
  return null;
}

/** The format a server's `--tool-call-parser` name stands for, or undefined. */
export function formatOfParser(parser: string): ToolCallFormat | undefined {
  const name = parser.trim().toLowerCase();
  for (const f of formatNames().map(getFormat)) if (f.name === name || f.parserNames?.includes(name)) return f;
  return undefined;
}

/** The format a model of that name writes, or undefined. */
export function formatOfModel(model: string): ToolCallFormat | undefined {
  return formatNames()
    .map(getFormat)
    .find((f) => f.models?.test(model));
}

/** The model names a record carries, most specific first: meta, request, response. */
export function modelNames(record: TraceRecord): string[] {
  const names: unknown[] = [record.meta?.model, record.request?.model];
  const response = record.response;
  if (response) {
    if (isStreamedResponse(response)) names.push(response.find((c) => typeof c?.model === 'string')?.model);
    else names.push(response.model);
  }
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n.trim() !== ''))];
}

/** The value of the editor's `toolscope.format` setting that means "per record" (the CLI: no `--format`). */
export const AUTO_FORMAT = 'auto';

/**
 * The `toolscope.format` setting as an analysis option: a registered format's name, or undefined for `auto`.
 * `invalid` names a value that is neither (settings.json is hand-edited), which is then treated as `auto`.
 */
export function formatFromSetting(value: unknown): { format: string | undefined; invalid: string | null } {
  if (value === undefined || value === null || value === '' || value === AUTO_FORMAT) return { format: undefined, invalid: null };
  const format = findFormat(value);
  return format ? { format: format.name, invalid: null } : { format: undefined, invalid: String(value) };
}
