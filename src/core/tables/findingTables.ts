/**
 * Analysed records as two tables, the shape any engine can load (DuckDB, ClickHouse, Spark, BigQuery): one row per
 * record and one row per finding, in columns (docs/findings-tables.md is the schema users query, versioned by
 * TABLES_SCHEMA_VERSION). Pure: the CLI's writer (src/io/tables/parquetTables.ts) puts them in Parquet files, and a
 * worker thread hands the main thread its rows as a `TableChunk`. Rows come in the order records are analysed, so
 * the tables of a run are the same whatever threads analysed it.
 */
import type { AnalyzedRecord } from '../analysis.ts';
import type { LoadedRecord } from '../trace/record.ts';

/**
 * The schema's version, written in each file's metadata (`toolscope.tables.version`). Columns are added at the end
 * within a version; a column renamed, removed or given another meaning makes the next version.
 */
export const TABLES_SCHEMA_VERSION = 1;

export type ColumnType = 'STRING' | 'INT32';

/** One column of a table: its name, type, whether it may be null, and what it holds (the docs list these). */
export interface ColumnSpec {
  name: string;
  type: ColumnType;
  nullable: boolean;
  doc: string;
}

export type Cell = string | number | null;
/** A table's rows, column by column (each array as long as the others). */
export type Columns = Record<string, Cell[]>;

/** Rows for both tables, as a worker sends them (structured-clone friendly). */
export interface TableChunk {
  records: Columns;
  findings: Columns;
}

const col = (name: string, type: ColumnType, nullable: boolean, doc: string): ColumnSpec => ({ name, type, nullable, doc });

export const RECORD_COLUMNS: readonly ColumnSpec[] = [
  col('file', 'STRING', false, 'the trace file as named on the command line (directories expanded); `-` for standard input'),
  col('line', 'INT32', false, "the record's first line in the file (1-based)"),
  col('last_line', 'INT32', false, 'its last line (streams, pretty-printed objects and printouts span several)'),
  col('record_id', 'STRING', false, "the record's id (the trace's own where it has one, else the line number)"),
  col('trace_id', 'STRING', true, "the trace's own trace id (OpenTelemetry and OpenInference spans, Langfuse, LangSmith)"),
  col('span_id', 'STRING', true, "the trace's own span id (OpenTelemetry and OpenInference spans: Phoenix annotates spans by it)"),
  col('response_id', 'STRING', true, "the response's own id (OpenAI Responses, Anthropic message, chat completion)"),
  col('request_id', 'STRING', true, 'the request id the server sent (Anthropic errors)'),
  col('model', 'STRING', true, 'the model as recorded (meta, response, then request)'),
  col('format', 'STRING', false, 'the tool-call format the record was parsed as'),
  col('importer', 'STRING', false, 'which trace shape the line was read as (native, sse, otel, openai-responses, …)'),
  col('meta_source', 'STRING', true, '`meta.source`: what wrote the record (toolscope-proxy, otel, k2vv, …)'),
  col('parser', 'STRING', true, "`meta.parser`: the serving engine's parser that produced the recorded response"),
  col('calls', 'INT32', false, 'tool calls in the reference parse (or the recorded response)'),
  col('errors', 'INT32', false, 'findings of severity error'),
  col('warnings', 'INT32', false, 'findings of severity warning'),
  col('infos', 'INT32', false, 'findings of severity info'),
  col('ignored', 'INT32', false, 'findings silenced by `--ignore` (counted here, not in findings.parquet)'),
  // Added within version 1 (columns are added at the end): the ids an observability tool files feedback under.
  col('observation_id', 'STRING', true, "Langfuse's observation id (a score is posted to trace_id + observation_id)"),
  col('run_id', 'STRING', true, "LangSmith's run id (feedback is posted to it); Phoenix's span is span_id"),
];

export const FINDING_COLUMNS: readonly ColumnSpec[] = [
  col('file', 'STRING', false, 'the trace file, as in records.parquet'),
  col('line', 'INT32', false, "the record's first line: joins records.parquet on (file, line)"),
  col('record_id', 'STRING', false, "the record's id"),
  col('kind', 'STRING', false, 'the diagnostic kind (docs/diagnostics.md)'),
  col('code', 'STRING', false, 'its stable code (TSnnn)'),
  col('severity', 'STRING', false, 'error, warning or info'),
  col('where', 'STRING', false, 'which text the character range indexes: completion, response, reasoning or request'),
  col('token_start', 'INT32', true, 'first token of the completion it is about (inclusive)'),
  col('token_end', 'INT32', true, 'token end (exclusive)'),
  col('char_start', 'INT32', true, 'first character in `where` (inclusive)'),
  col('char_end', 'INT32', true, 'character end (exclusive)'),
  col('call_index', 'INT32', true, 'the tool call it is about (index in the parse)'),
  col('path', 'STRING', true, 'JSON path inside the arguments (schema findings)'),
  col('detail', 'STRING', true, 'which variant of the kind (vllm-divergence: call-dropped, id-changed, …)'),
  col('message', 'STRING', false, 'the finding in words'),
];

function emptyColumns(specs: readonly ColumnSpec[]): Columns {
  return Object.fromEntries(specs.map((c) => [c.name, []]));
}

/** An empty chunk: no rows in either table. */
export function emptyChunk(): TableChunk {
  return { records: emptyColumns(RECORD_COLUMNS), findings: emptyColumns(FINDING_COLUMNS) };
}

/** Rows in a table's columns. */
export function rowCount(columns: Columns): number {
  return Object.values(columns)[0]?.length ?? 0;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The response's own id and model, from a whole completion or a stream's first chunk that has them. */
function recordedResponse(loaded: LoadedRecord): { id: string | null; model: string | null } {
  const response = loaded.record.response;
  if (!response) return { id: null, model: null };
  const parts = Array.isArray(response) ? response : [response];
  return { id: text(parts.find((p) => text(p?.id))?.id), model: text(parts.find((p) => text(p?.model))?.model) };
}

/** Collects rows record by record, and hands them over in chunks. */
export class TableBuilder {
  private chunk = emptyChunk();

  get records(): number {
    return rowCount(this.chunk.records);
  }

  get findings(): number {
    return rowCount(this.chunk.findings);
  }

  /** One analysed record of `file`: its row, and a row per finding. */
  add(file: string, loaded: LoadedRecord, r: AnalyzedRecord): void {
    const meta = loaded.record.meta ?? {};
    const response = recordedResponse(loaded);
    const count = (s: string) => r.diagnostics.filter((d) => d.severity === s).length;
    const row: Record<string, Cell> = {
      file,
      line: r.line,
      last_line: r.lastLine,
      record_id: r.id,
      trace_id: text(meta.trace_id),
      span_id: text(meta.span_id),
      response_id: text(meta.response_id) ?? text(meta.message_id) ?? response.id,
      request_id: text(meta.request_id),
      model: text(meta.model) ?? response.model ?? text(loaded.record.request?.model),
      format: r.format,
      importer: loaded.source,
      meta_source: text(meta.source),
      parser: text(meta.parser),
      calls: r.calls.length,
      errors: count('error'),
      warnings: count('warning'),
      infos: count('info'),
      ignored: Object.values(r.ignored).reduce((a, b) => a + b, 0),
      observation_id: text(meta.observation_id),
      run_id: text(meta.run_id),
    };
    push(this.chunk.records, RECORD_COLUMNS, row);
    for (const d of r.diagnostics) {
      push(this.chunk.findings, FINDING_COLUMNS, {
        file,
        line: r.line,
        record_id: r.id,
        kind: d.kind,
        code: d.code,
        severity: d.severity,
        where: d.where,
        token_start: d.tokenStart,
        token_end: d.tokenEnd,
        char_start: d.charStart,
        char_end: d.charEnd,
        call_index: d.callIndex ?? null,
        path: d.path ?? null,
        detail: d.detail ?? null,
        message: d.message,
      });
    }
  }

  /** The rows so far; the builder starts again empty. */
  take(): TableChunk {
    const out = this.chunk;
    this.chunk = emptyChunk();
    return out;
  }
}

function push(columns: Columns, specs: readonly ColumnSpec[], row: Record<string, Cell>): void {
  for (const c of specs) (columns[c.name] as Cell[]).push(row[c.name] ?? null);
}
