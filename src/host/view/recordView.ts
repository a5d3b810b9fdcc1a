/**
 * Builds what the trace editor shows for one record from its analysis: tokens with roles and per-token parser
 * events, calls with their token ranges and schema errors, the reference parse next to the response.
 */
import type { AnalyzedRecord } from '../../core/analysis.ts';
import { tokenRange } from '../../core/diagnostics/context.ts';
import { worstSeverity, type Diagnostic } from '../../core/diagnostics/diagnostic.ts';
import { findFormat, getFormat } from '../../core/formats/registry.ts';
import { renderPrompt } from '../../core/template/renderPrompt.ts';
import { redact, redactString } from '../../core/util/redact.ts';
import type { TraceRecord } from '../../core/trace/record.ts';
import type { CallView, MessageView, RecordSummary, RecordView, TokenRole, TokenView } from '../../shared/protocol.ts';
import { vllmView } from './vllmView.ts';
import { clientStreamView } from './clientStream.ts';
import { tokenSourceLabel } from '../../core/tokens/tokenSourceLabel.ts';
import { VIEW_DEPTH, nestedDeeperThan, pruned } from './prunedJson.ts';

/** Past this size the raw JSON is cut (the full record is one click away in a text editor). */
export const RAW_JSON_LIMIT = 2_000_000;

const THINK_MARKERS = new Set(['<think>', '</think>']);

function roleOf(text: string, special: boolean, state: string, markers: ReadonlySet<string>): TokenRole {
  if (THINK_MARKERS.has(text)) return 'think-marker';
  if (markers.has(text)) return 'marker';
  if (special) return 'special';
  switch (state) {
    case 'reasoning':
      return 'reasoning';
    case 'section':
      return 'section';
    case 'call-id':
      return 'call-id';
    case 'call-arguments':
      return 'arguments';
    default:
      return 'content';
  }
}

export function buildTokenViews(a: AnalyzedRecord): TokenView[] {
  const tokens = a.completion?.tokens ?? [];
  const markers = new Set(getFormat(a.format).markers);
  return tokens.map((t, i) => {
    const event = a.events[i];
    const view: TokenView = {
      text: t.text,
      role: roleOf(t.text, t.special, event?.state ?? 'content', markers),
      special: t.special,
      approximate: t.approximate,
      state: event?.state ?? 'content',
      emitted: event?.emitted ?? null,
    };
    if (t.id !== undefined) view.id = t.id;
    if (t.bytes !== undefined) view.bytes = t.bytes;
    if (t.logprob !== undefined) view.logprob = t.logprob;
    return view;
  });
}

function buildCalls(a: AnalyzedRecord, record: TraceRecord): CallView[] {
  const tools = new Map((Array.isArray(record.request?.tools) ? record.request.tools : []).map((t) => [t?.function?.name, t] as const));
  const tokens = a.completion?.tokens ?? [];
  // Where each call's argument fragments reached the client.
  const fragments = new Map<number, Array<{ token: number; text: string }>>();
  a.events.forEach((e, token) => {
    for (const tc of e.emitted?.tool_calls ?? []) {
      if (!tc.function.arguments) continue;
      const list = fragments.get(tc.index) ?? [];
      list.push({ token, text: tc.function.arguments });
      fragments.set(tc.index, list);
    }
  });
  for (const tc of a.finalEmitted?.tool_calls ?? []) {
    if (!tc.function.arguments) continue;
    const list = fragments.get(tc.index) ?? [];
    list.push({ token: Math.max(0, tokens.length - 1), text: tc.function.arguments });
    fragments.set(tc.index, list);
  }
  const schemaErrors = (index: number) =>
    a.diagnostics
      .filter((d) => d.kind === 'schema-violation' && d.callIndex === index && d.where !== 'request')
      .map((d) => ({ path: d.path ?? '$', message: d.message, severity: d.severity }));
  if (a.parse) {
    return a.parse.calls.map((c) => {
      const range = tokenRange(tokens, c.span.start, c.span.end);
      return {
        index: c.index,
        id: c.id,
        name: c.name,
        arguments: c.arguments,
        tokenStart: range.tokenStart ?? 0,
        tokenEnd: range.tokenEnd ?? 0,
        terminated: c.terminated,
        fragments: fragments.get(c.index) ?? [],
        schemaErrors: schemaErrors(c.index),
        tool: tools.get(c.name) ?? null,
      };
    });
  }
  return (a.response?.calls ?? []).map((c, i) => ({
    index: c.index,
    id: c.id ?? '',
    name: c.name ?? '',
    arguments: c.arguments,
    tokenStart: 0,
    tokenEnd: 0,
    terminated: true,
    fragments: [],
    schemaErrors: schemaErrors(i),
    tool: (c.name ? tools.get(c.name) : undefined) ?? null,
  }));
}

function firstLine(s: string, max = 200): string {
  const line = s.split('\n', 1)[0] ?? '';
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}

/** The prompt to show: recorded or rendered by the analysis, else the request rendered with the default template. */
function promptView(a: AnalyzedRecord, record: TraceRecord): RecordView['prompt'] {
  if (a.prompt?.origin === 'recorded') return { text: a.prompt.text, origin: 'recorded', template: null, error: null };
  if (a.prompt)
    return { text: a.prompt.text, origin: 'rendered', template: a.prompt.template, error: 'error' in a.prompt ? a.prompt.error : null };
  const template = findFormat(a.format)?.chatTemplate;
  if (!template || !Array.isArray(record.request?.messages)) return null;
  try {
    return { text: renderPrompt(record.request, template.source), origin: 'rendered', template: template.label, error: null };
  } catch (err) {
    return { text: null, origin: 'rendered', template: template.label, error: err instanceof Error ? err.message : String(err) };
  }
}

export function recordView(key: string, a: AnalyzedRecord, given: TraceRecord): RecordView {
  // What the view holds is cut where it nests too deep to serialise (a hostile schema); the analysis saw it all.
  const record = nestedDeeperThan(given, VIEW_DEPTH) ? pruned(given) : given;
  const safe = redact(record);
  const reference: MessageView = { content: a.content, reasoning: a.reasoning, calls: a.calls };
  let rawJson = JSON.stringify(safe, null, 2);
  if (rawJson.length > RAW_JSON_LIMIT)
    rawJson = rawJson.slice(0, RAW_JSON_LIMIT) + `\n… (${rawJson.length - RAW_JSON_LIMIT} more characters: open the raw record to see all)`;
  const request = safe.request;
  return {
    key,
    id: a.id,
    line: a.line,
    lastLine: a.lastLine,
    source: a.source,
    format: a.format,
    formatBasis: a.formatBasis,
    formatEvidence: a.formatEvidence,
    writesCallIds: Boolean(getFormat(a.format).callIds),
    model: modelOf(record),
    tokenOrigin: a.completion ? a.completion.origin : 'none',
    tokenSource: a.completion ? a.completion.source : null,
    tokenLabel: a.completion ? tokenSourceLabel(a.completion) : null,
    approximate: (a.completion?.tokens ?? []).some((t) => t.approximate),
    rebuilt: Boolean(a.completion?.rebuilt),
    tokenWarning: a.oversized
      ? `above the ${(a.oversized.limit / 1e6).toFixed(1)} MB size limit: the completion is shown in pieces of about 64 KB, not token by token`
      : [a.completion?.warning, a.unchecked].filter((w): w is string => Boolean(w)).join(' — ') || null,
    tokens: buildTokenViews(a),
    finalEmitted: a.finalEmitted,
    diagnostics: a.diagnostics,
    ignored: a.ignored,
    guidedPending: false,
    calls: buildCalls(a, record),
    reference,
    response: a.response
      ? {
          content: a.response.content,
          reasoning: a.response.reasoning,
          calls: a.response.calls.map((c) => ({ id: c.id ?? '', name: c.name ?? '', arguments: c.arguments })),
          finishReason: a.response.finishReason,
          streamed: a.response.streamed,
          chunks: a.response.deltas.length,
        }
      : null,
    clientStream: clientStreamView(a),
    request: request
      ? {
          model: typeof request.model === 'string' ? request.model : null,
          messages: Array.isArray(request.messages) ? request.messages : [],
          tools: Array.isArray(request.tools) ? request.tools : [],
          toolChoice: request.tool_choice ?? null,
        }
      : null,
    failed: a.error ? firstLine(redactString(a.error)) : null,
    prompt: promptView(a, record),
    comparison: null,
    vllm: vllmView(a),
    rawJson,
  };
}

function modelOf(record: TraceRecord): string | null {
  const m =
    record.meta?.model ?? record.request?.model ?? (record.response && !Array.isArray(record.response) ? record.response.model : undefined);
  return typeof m === 'string' ? m : null;
}

export function recordSummary(key: string, entry: number, a: AnalyzedRecord, record: TraceRecord): RecordSummary {
  const counts = { error: 0, warning: 0, info: 0 };
  const kinds: RecordSummary['kinds'] = {};
  // A plain "guided decoding accepts this" is not a finding: it stays in the record view, out of the list's badges.
  // A loop, not filter: filter's arrays deoptimised this (core/util/mapped.ts).
  const listed: Diagnostic[] = [];
  for (const d of a.diagnostics) if (!(d.kind === 'guided-accepts' && d.severity === 'info')) listed.push(d);
  for (const d of listed) {
    counts[d.severity]++;
    kinds[d.kind] = (kinds[d.kind] ?? 0) + 1;
  }
  const preview = (a.content ?? a.reasoning ?? '').slice(0, 160);
  return {
    key,
    entry,
    line: a.line,
    id: a.id,
    model: modelOf(record),
    source: a.source,
    format: a.format,
    calls: a.calls.length,
    worst: worstSeverity(listed),
    counts,
    kinds,
    failed: a.error ? firstLine(redactString(a.error)) : null,
    preview,
    guidedPending: false,
  };
}
