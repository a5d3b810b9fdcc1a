/**
 * LangSmith runs as its bulk export (Parquet) and its API write them (the Run data format:
 * https://docs.langchain.com/langsmith/run-data-format): `id`, `trace_id`, `run_type`, `inputs`, `outputs`, `extra`,
 * `error` (`inputs`/`outputs`/`extra` as JSON, or as JSON text in Parquet). One record per `llm` run; chains, tools,
 * retrievers and the rest are not model calls and are skipped. `wrap_openai` keeps the request's keyword arguments
 * (`messages`, `tools`, `model`, …) and the provider's whole response (`choices`): the raw exchange. LangChain's chat
 * models keep serialised messages and `generations` (the parsed AIMessage, the provider's tool calls in its
 * `additional_kwargs`): such a record says so in `meta.unchecked`.
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
import type { ReadResult } from './importResult.ts';

export function isLangSmithRunShape(value: UnknownObject): boolean {
  return typeof value.run_type === 'string' && 'id' in value && ('inputs' in value || 'outputs' in value);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** LangSmith's run types (its RunTypeEnum); any other is an error on its line, never a silent skip. */
const RUN_TYPES = new Set(['llm', 'chain', 'tool', 'retriever', 'embedding', 'prompt', 'parser']);

export function importLangSmithRun(row: UnknownObject, line: number): ReadResult {
  if (typeof row.run_type !== 'string' || !RUN_TYPES.has(row.run_type))
    return {
      records: [],
      errors: [{ line, message: `line ${line}: LangSmith run of type ${JSON.stringify(row.run_type)}, none LangSmith writes` }],
    };
  if (row.run_type !== 'llm') return { records: [], errors: [] };
  const id = text(row.id) ?? `line-${line}`;
  try {
    const loaded: LoadedRecord = { record: runRecord(row, id), line, lastLine: line, source: 'langsmith' };
    return { records: [loaded], errors: [] };
  } catch (err) {
    if (!(err instanceof ExportShapeProblem)) throw err;
    return { records: [], errors: [{ line, message: `line ${line}: LangSmith run ${id}: ${err.message}` }] };
  }
}

function runRecord(row: UnknownObject, id: string): TraceRecord {
  const inputs = jsonColumn(row.inputs);
  const outputs = jsonColumn(row.outputs);
  const extra = jsonColumn(row.extra);
  const params = isObject(extra) && isObject(extra.invocation_params) ? extra.invocation_params : {};
  const metadata = isObject(extra) && isObject(extra.metadata) ? extra.metadata : {};
  const model =
    text(isObject(inputs) ? inputs.model : undefined) ?? text(params.model) ?? text(params.model_name) ?? text(metadata.ls_model_name);

  const meta: RecordMeta = { source: 'langsmith', run_id: id };
  const traceId = text(row.trace_id);
  if (traceId) meta.trace_id = traceId;
  if (model) meta.model = model;
  if (text(row.name)) meta.run_name = row.name;
  const started = text(row.start_time);
  if (started) meta.created = started;

  const record: TraceRecord = { toolscope: 1, id, meta };
  if (isObject(inputs) && 'messages' in inputs) {
    const request: ChatRequest = { ...inputs, messages: chatMessages(inputs.messages, 'inputs.messages') };
    const tools = chatTools(inputs.tools ?? params.tools ?? inputs.functions ?? params.functions, 'inputs.tools');
    if (tools) request.tools = tools;
    else delete request.tools;
    if (model) request.model = model;
    record.request = request;
  } else if (inputs !== undefined && inputs !== null) {
    throw new ExportShapeProblem('inputs hold no "messages" (not a chat model call)');
  }

  const raw = rawCompletion(outputs, 'outputs');
  if (raw) record.response = raw;
  else if (isObject(outputs) && Array.isArray(outputs.generations)) {
    // [[generation]] for a batch of one prompt, or [generation].
    const first: unknown = Array.isArray(outputs.generations[0]) ? (outputs.generations[0] as unknown[])[0] : outputs.generations[0];
    if (isObject(first)) {
      const message =
        first.message !== undefined
          ? chatMessage(first.message, 'outputs.generations[0].message')
          : { role: 'assistant', content: text(first.text) ?? null };
      const info = isObject(first.generation_info) ? first.generation_info : {};
      record.response = parsedCompletion(id, message, text(info.finish_reason) ?? null, model);
      meta.unchecked = PARSED_ONLY_NOTE;
    }
  }
  if (text(row.error)) record.error = row.error as string;
  return record;
}
