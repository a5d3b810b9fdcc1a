/**
 * Langfuse observations as its exports write them: the blob storage export (`observations_v2/` and the legacy
 * `observations/`, snake_case: `id`, `trace_id`, `type`, `input` and `output` as text, `provided_model_name`,
 * `tool_definitions`; JSONL, CSV or Parquet) and the UI/API export (camelCase: `traceId`, `model`, `input` and
 * `output` as JSON). One record per GENERATION (an LLM call); spans, events, tools and the other types are not
 * model calls and are skipped. Langfuse keeps what its SDK integrations log: for OpenAI, the request's messages
 * (with `tools` beside them) and the parsed assistant message, not the raw completion — such a record says so in
 * `meta.unchecked`. Field reference: https://langfuse.com/docs/api-and-data-platform/features/blob-storage-export-fields
 * (langfuse/langfuse-docs 05bdc0e1000f33f3322142b301dc7fed22667578).
 */
import type { ChatRequest, LoadedRecord, RecordMeta, TraceRecord } from '../record.ts';
import {
  chatMessage,
  chatMessages,
  chatTools,
  ExportShapeProblem,
  jsonColumn,
  PARSED_ONLY_NOTE,
  parsedCompletion,
  rawCompletion,
} from './exportMessages.ts';
import { isObject, type UnknownObject } from './jsonGuards.ts';
import { langfuseInputValue } from './langfuseInput.ts';
import type { ReadResult } from './importResult.ts';

function field(row: UnknownObject, snake: string, camel: string): unknown {
  return row[snake] ?? row[camel];
}

/**
 * Every column this importer reads from a row, the shape test's among them (both spellings): a table of observations
 * need not decode the others (metadata, usage, costs, tags, the derived tool_calls… — most of a full export's cells).
 * A test reads every fixture row through a proxy and fails when the importer touches a column missing here.
 */
export const LANGFUSE_OBSERVATION_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'trace_id',
  'traceId',
  'type',
  'name',
  'input',
  'output',
  'start_time',
  'startTime',
  'provided_model_name',
  'model',
  'parent_observation_id',
  'tool_definitions',
  'toolDefinitions',
  'model_parameters',
  'modelParameters',
  'level',
  'status_message',
  'statusMessage',
]);

/** Whether a table with these columns holds Langfuse observations (the row test below, on column names alone). */
export function isLangfuseObservationTable(columns: ReadonlySet<string>): boolean {
  return (
    columns.has('id') &&
    (columns.has('trace_id') || columns.has('traceId')) &&
    columns.has('type') &&
    (columns.has('input') || columns.has('output')) &&
    (columns.has('start_time') || columns.has('startTime') || columns.has('provided_model_name') || columns.has('parent_observation_id'))
  );
}

export function isLangfuseObservationShape(value: UnknownObject): boolean {
  return (
    'id' in value &&
    ('trace_id' in value || 'traceId' in value) &&
    typeof value.type === 'string' &&
    ('input' in value || 'output' in value) &&
    ('start_time' in value || 'startTime' in value || 'provided_model_name' in value || 'parent_observation_id' in value)
  );
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The observation types Langfuse writes (its ObservationType enum: the three of v2 and the agent types added in 2025).
 * Any other is an error on its line, never a silent skip: a GENERATION whose type was mangled is a lost call.
 */
const OBSERVATION_TYPES = new Set([
  'GENERATION',
  'SPAN',
  'EVENT',
  'AGENT',
  'TOOL',
  'CHAIN',
  'RETRIEVER',
  'EVALUATOR',
  'EMBEDDING',
  'GUARDRAIL',
]);

/** One exported observation (a JSONL line, a CSV or Parquet row): a record for a GENERATION, nothing for the others. */
export function importLangfuseObservation(row: UnknownObject, line: number): ReadResult {
  const type = String(row.type).toUpperCase();
  if (!OBSERVATION_TYPES.has(type))
    return {
      records: [],
      errors: [{ line, message: `line ${line}: Langfuse observation of type ${JSON.stringify(row.type)}, none Langfuse writes` }],
    };
  if (type !== 'GENERATION') return { records: [], errors: [] };
  const id = text(row.id) ?? `line-${line}`;
  try {
    const record = observationRecord(row, id);
    const loaded: LoadedRecord = { record, line, lastLine: line, source: 'langfuse' };
    return { records: [loaded], errors: [] };
  } catch (err) {
    if (!(err instanceof ExportShapeProblem)) throw err;
    return { records: [], errors: [{ line, message: `line ${line}: Langfuse observation ${id}: ${err.message}` }] };
  }
}

function observationRecord(row: UnknownObject, id: string): TraceRecord {
  const model = text(field(row, 'provided_model_name', 'model'));
  const meta: RecordMeta = { source: 'langfuse', observation_id: id };
  const traceId = text(field(row, 'trace_id', 'traceId'));
  if (traceId) meta.trace_id = traceId;
  if (model) meta.model = model;
  const name = text(row.name);
  if (name) meta.observation_name = name;
  const started = text(field(row, 'start_time', 'startTime'));
  if (started) meta.created = started;

  const input = langfuseInputValue(row.input);
  const request: ChatRequest = {};
  if (model) request.model = model;
  if (input !== undefined && input !== null && input !== '') {
    if (isObject(input) && 'messages' in input) {
      request.messages = chatMessages(input.messages, 'input.messages');
      const tools = chatTools(input.tools ?? input.functions, 'input.tools');
      if (tools) request.tools = tools;
      if (input.tool_choice !== undefined) request.tool_choice = input.tool_choice as ChatRequest['tool_choice'];
    } else if (Array.isArray(input) || typeof input === 'string') {
      request.messages = chatMessages(input, 'input');
    } else {
      throw new ExportShapeProblem('input is neither a message list nor {messages, tools}');
    }
  }
  if (!request.tools) {
    const tools = chatTools(field(row, 'tool_definitions', 'toolDefinitions'), 'tool_definitions');
    if (tools) request.tools = tools;
  }
  const parameters = jsonColumn(field(row, 'model_parameters', 'modelParameters'));
  if (isObject(parameters)) for (const [k, v] of Object.entries(parameters)) if (!(k in request)) request[k] = v;

  const record: TraceRecord = { toolscope: 1, id, meta };
  if (request.messages || request.tools) record.request = request;
  const output = jsonColumn(row.output);
  const raw = rawCompletion(output, 'output');
  if (raw) record.response = raw;
  else if (output !== undefined && output !== null && output !== '') {
    const message =
      isObject(output) || typeof output === 'string'
        ? chatMessage(isObject(output) ? { role: 'assistant', ...output } : output, 'output')
        : null;
    if (!message) throw new ExportShapeProblem('output is neither a completion nor an assistant message');
    record.response = parsedCompletion(id, typeof output === 'string' ? { role: 'assistant', content: output } : message, null, model);
    meta.unchecked = PARSED_ONLY_NOTE;
  }
  if (String(row.level).toUpperCase() === 'ERROR')
    record.error = text(field(row, 'status_message', 'statusMessage')) ?? 'Langfuse level ERROR';
  return record;
}
