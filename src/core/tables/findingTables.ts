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

/** A string column: each distinct string once, and per row the index of its string (-1: null). */
export interface StringColumn {
  strings: string[];
  codes: Int32Array<ArrayBuffer>;
}

/** An int32 column: per row its value, NaN for null. */
export interface NumberColumn {
  numbers: Float64Array<ArrayBuffer>;
}

/**
 * A table's rows, column by column in the schema's order, packed to cross threads cheaply: numbers and string
 * indexes in typed arrays, moved (not copied) from thread to thread, and each distinct string sent once (file names,
 * kinds, codes, formats and messages repeat from row to row). Structured-cloning an array of cells per column cost a
 * string or a number per cell on each side of each hop (file worker, main thread, encoding thread).
 */
export interface PackedTable {
  rows: number;
  columns: (StringColumn | NumberColumn)[];
}

/** Rows for both tables, as a worker sends them (transferList: the buffers to move with them). */
export interface TableChunk {
  records: PackedTable;
  findings: PackedTable;
}

const col = <N extends string>(name: N, type: ColumnType, nullable: boolean, doc: string) => ({ name, type, nullable, doc });

const RECORD_SPECS = [
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
] as const;
export const RECORD_COLUMNS: readonly ColumnSpec[] = RECORD_SPECS;

const FINDING_SPECS = [
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
] as const;
export const FINDING_COLUMNS: readonly ColumnSpec[] = FINDING_SPECS;

/** The buffers of a chunk's typed arrays: postMessage's transfer list, so they move instead of being copied. */
export function transferList(chunk: TableChunk): ArrayBuffer[] {
  return [chunk.records, chunk.findings].flatMap((t) => t.columns.map((c) => ('codes' in c ? c.codes.buffer : c.numbers.buffer)));
}

/** A table's rows given as plain columns (by name, in any order), packed as the builder packs them. */
export function packTable(specs: readonly ColumnSpec[], columns: Columns): PackedTable {
  const cells = specs.map((c) => cellsFor(c.type));
  const rows = columns[specs[0]?.name ?? '']?.length ?? 0;
  specs.forEach((c, i) => {
    for (const v of columns[c.name] ?? []) cells[i]?.push(v);
  });
  return { rows, columns: cells.map((c) => c.pack()) };
}

/** Both tables given as plain columns (records, and findings or none). */
export function packChunk(records: Columns, findings: Columns = {}): TableChunk {
  return { records: packTable(RECORD_COLUMNS, records), findings: packTable(FINDING_COLUMNS, findings) };
}

/** Rows `from` to `to` of a packed column as cells, into `out` from `at`. */
export function unpackInto(column: StringColumn | NumberColumn, from: number, to: number, out: Cell[], at: number): void {
  if ('codes' in column) {
    const { strings, codes } = column;
    for (let i = from; i < to; i++) {
      const code = codes[i] as number;
      out[at++] = code < 0 ? null : (strings[code] as string);
    }
  } else {
    const { numbers } = column;
    for (let i = from; i < to; i++) {
      const v = numbers[i] as number;
      out[at++] = v === v ? v : null;
    }
  }
}

/** A column's cells as they come: strings looked up once per distinct value (a Map per column), numbers as they are. */
interface CellColumn {
  push(v: Cell): void;
  pack(): StringColumn | NumberColumn;
}

class StringCells implements CellColumn {
  private readonly index = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly codes: number[] = [];

  push(v: Cell): void {
    if (v === null) {
      this.codes.push(-1);
      return;
    }
    const s = String(v);
    let code = this.index.get(s);
    if (code === undefined) {
      code = this.strings.length;
      this.strings.push(s);
      this.index.set(s, code);
    }
    this.codes.push(code);
  }

  pack(): StringColumn {
    return { strings: this.strings, codes: Int32Array.from(this.codes) };
  }
}

class NumberCells implements CellColumn {
  private readonly numbers: number[] = [];

  push(v: Cell): void {
    this.numbers.push(typeof v === 'number' ? v : NaN);
  }

  pack(): NumberColumn {
    return { numbers: Float64Array.from(this.numbers) };
  }
}

const cellsFor = (type: ColumnType): CellColumn => (type === 'STRING' ? new StringCells() : new NumberCells());

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The response's own id and model, from a whole completion or a stream's first chunk that has them. */
function recordedResponse(loaded: LoadedRecord): { id: string | null; model: string | null } {
  const response = loaded.record.response;
  if (!response) return { id: null, model: null };
  const parts = Array.isArray(response) ? response : [response];
  return { id: text(parts.find((p) => text(p?.id))?.id), model: text(parts.find((p) => text(p?.model))?.model) };
}

/** A table's columns by name, typed so that each column is there (the builder pushes into them directly). */
type Cells<S extends readonly { name: string; type: ColumnType }[]> = Record<S[number]['name'], CellColumn>;
const cells = <S extends readonly { name: string; type: ColumnType }[]>(specs: S) =>
  Object.fromEntries(specs.map((c) => [c.name, cellsFor(c.type)])) as unknown as Cells<S>;

/** A table's columns, packed in the schema's order. */
const packed = <S extends readonly { name: string; type: ColumnType }[]>(specs: S, c: Cells<S>, rows: number): PackedTable => ({
  rows,
  columns: specs.map((s) => (c as Record<string, CellColumn>)[s.name]!.pack()),
});

/**
 * Collects rows record by record, and hands them over in chunks. It runs once per analysed record on the analysing
 * thread, so it pushes each cell straight into its column (no row object, no lookup by name per cell) and counts
 * severities in one pass: `--parquet` must cost little beside the analysis (npm run bench -- --parquet).
 */
export class TableBuilder {
  private recordCells = cells(RECORD_SPECS);
  private findingCells = cells(FINDING_SPECS);
  private recordRows = 0;
  private findingRows = 0;

  get records(): number {
    return this.recordRows;
  }

  get findings(): number {
    return this.findingRows;
  }

  /** One analysed record of `file`: its row, and a row per finding. */
  add(file: string, loaded: LoadedRecord, r: AnalyzedRecord): void {
    const meta = loaded.record.meta ?? {};
    const response = recordedResponse(loaded);
    let errors = 0;
    let warnings = 0;
    let infos = 0;
    for (const d of r.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      else if (d.severity === 'info') infos++;
    }
    let ignored = 0;
    for (const n of Object.values(r.ignored)) ignored += n;
    const c = this.recordCells;
    c.file.push(file);
    c.line.push(r.line);
    c.last_line.push(r.lastLine);
    c.record_id.push(r.id);
    c.trace_id.push(text(meta.trace_id));
    c.span_id.push(text(meta.span_id));
    c.response_id.push(text(meta.response_id) ?? text(meta.message_id) ?? response.id);
    c.request_id.push(text(meta.request_id));
    c.model.push(text(meta.model) ?? response.model ?? text(loaded.record.request?.model));
    c.format.push(r.format);
    c.importer.push(loaded.source);
    c.meta_source.push(text(meta.source));
    c.parser.push(text(meta.parser));
    c.calls.push(r.calls.length);
    c.errors.push(errors);
    c.warnings.push(warnings);
    c.infos.push(infos);
    c.ignored.push(ignored);
    c.observation_id.push(text(meta.observation_id));
    c.run_id.push(text(meta.run_id));
    this.recordRows++;
    const f = this.findingCells;
    for (const d of r.diagnostics) {
      f.file.push(file);
      f.line.push(r.line);
      f.record_id.push(r.id);
      f.kind.push(d.kind);
      f.code.push(d.code);
      f.severity.push(d.severity);
      f.where.push(d.where);
      f.token_start.push(d.tokenStart);
      f.token_end.push(d.tokenEnd);
      f.char_start.push(d.charStart);
      f.char_end.push(d.charEnd);
      f.call_index.push(d.callIndex ?? null);
      f.path.push(d.path ?? null);
      f.detail.push(d.detail ?? null);
      f.message.push(d.message);
      this.findingRows++;
    }
  }

  /** The rows so far; the builder starts again empty. */
  take(): TableChunk {
    const out: TableChunk = {
      records: packed(RECORD_SPECS, this.recordCells, this.recordRows),
      findings: packed(FINDING_SPECS, this.findingCells, this.findingRows),
    };
    this.recordCells = cells(RECORD_SPECS);
    this.findingCells = cells(FINDING_SPECS);
    this.recordRows = 0;
    this.findingRows = 0;
    return out;
  }
}
