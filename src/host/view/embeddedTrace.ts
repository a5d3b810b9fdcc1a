/** Everything the trace editor can show for one file, analysed up front: the data of a standalone report. */
import type { AnalysisOptions } from '../../core/analysis.ts';
import { DIAGNOSTIC_KINDS } from '../../core/diagnostics/registry.ts';
import type { RecordView } from '../../shared/protocol.ts';
import type { TraceRange } from '../../io/trace/traceRanges.ts';
import { scriptSafeJson, type EmbeddedTrace, type PageData } from './pageHtml.ts';
import { TraceSession } from './traceSession.ts';

/** Several files in one view: keys get the file's position as a prefix, rows name their file. */
export async function embeddedTraces(
  paths: Array<{ path: string; label: string }>,
  title: string,
  host: 'report' | 'harness',
  options: AnalysisOptions = {},
): Promise<EmbeddedTrace> {
  if (paths.length === 1 && paths[0]) return embeddedTrace(paths[0].path, paths[0].label, host, options);
  const out = new EmbeddedTraces(title, host, options);
  for (const p of paths) out.add(await embeddedTrace(p.path, p.label, host, options), p.label);
  return out.trace;
}

/** A view of no file yet, which files' traces are joined into (`EmbeddedTraces`, the report's worker threads). */
export function emptyTrace(title: string, host: 'report' | 'harness', options: AnalysisOptions = {}): EmbeddedTrace {
  return {
    info: { fileName: title, entries: 0, analysing: false, host, format: options.format || null, diagnosticKinds: DIAGNOSTIC_KINDS },
    summaries: [],
    lineErrors: [],
    records: {},
  };
}

/**
 * The files of one view gathered in order (`add` each file's trace as `embeddedTrace` made it). The report's worker
 * threads label their files themselves (`asFileOfMany`) and send their views serialized (`serializedViews`).
 */
export class EmbeddedTraces {
  readonly trace: EmbeddedTrace;
  /** Files added so far: the next one's key prefix. */
  private files = 0;

  constructor(title: string, host: 'report' | 'harness', options: AnalysisOptions = {}) {
    this.trace = emptyTrace(title, host, options);
  }

  add(one: EmbeddedTrace, label: string): void {
    joinRange(this.trace, asFileOfMany(one, this.files++, label));
  }
}

/**
 * A file's trace as the `index`-th of several in one view: its keys prefixed with the file's position, its rows and
 * line errors naming the file (`label`).
 */
export function asFileOfMany(one: EmbeddedTrace, index: number, label: string): EmbeddedTrace {
  const records: Record<string, RecordView> = {};
  const summaries = one.summaries.map((s) => {
    const key = `${index}/${s.key}`;
    const view = one.records[s.key];
    if (view) records[key] = { ...view, key };
    return { ...s, key, file: label };
  });
  return { info: one.info, summaries, lineErrors: one.lineErrors.map((e) => ({ ...e, file: label })), records };
}

/** The trace with each record view as the script-safe JSON the page embeds: what a worker thread sends back. */
export function serializedViews(trace: EmbeddedTrace): PageData {
  const records: Record<string, string> = {};
  for (const [key, view] of Object.entries(trace.records)) records[key] = scriptSafeJson(view);
  return { ...trace, records };
}

export async function embeddedTrace(
  path: string,
  fileName: string,
  host: 'report' | 'harness',
  options: AnalysisOptions = {},
): Promise<EmbeddedTrace> {
  // Every entry is read in order, twice (its row, then its view): read ahead.
  return sessionTrace(await TraceSession.open(path, fileName, options, { readAhead: true }), host);
}

/**
 * One range of a big file's entries (traceRanges.ts) as `embeddedTrace` makes the whole file, keys and line numbers
 * included: the ranges' traces, joined in order (`joinRange`), are the file's. `first`: the file's first range,
 * which carries the file's eval panel.
 */
export async function embeddedRange(
  range: TraceRange,
  fileName: string,
  host: 'report' | 'harness',
  options: AnalysisOptions,
  first: boolean,
): Promise<EmbeddedTrace> {
  return sessionTrace(await TraceSession.openRange(range, fileName, options, first), host);
}

/**
 * Appends the trace of a file's next range to what its ranges before gave (`embeddedRange`), or the next file of a
 * view, labelled (`asFileOfMany`), to the files before. Every line of a range comes after every line of the ranges
 * before it, so the line errors, each range's sorted, stay sorted.
 */
export function joinRange<T extends PageData>(file: T, next: T): void {
  file.info.entries += next.info.entries;
  // One at a time: a range's tens of thousands of rows would overflow the stack as arguments of one push.
  for (const s of next.summaries) file.summaries.push(s);
  for (const e of next.lineErrors) file.lineErrors.push(e);
  Object.assign(file.records, next.records);
}

/** Everything the session's entries give, analysed and each record's view built; the session is closed at the end. */
async function sessionTrace(session: TraceSession, host: 'report' | 'harness'): Promise<EmbeddedTrace> {
  try {
    const { summaries, lineErrors } = await session.analyseAll();
    const records: Record<string, RecordView> = {};
    const shown: typeof summaries = [];
    for (const s of summaries) {
      // A record whose view cannot be built is listed as an error on its line; the report still gets written.
      try {
        records[s.key] = await session.completeRecord(s.key);
        shown.push(s);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        lineErrors.push({
          line: s.line,
          message: message.startsWith(`line ${s.line}`) ? message : `line ${s.line}: record "${s.id}" could not be shown (${message})`,
        });
      }
    }
    lineErrors.sort((a, b) => a.line - b.line);
    return { info: session.info(host), summaries: shown, lineErrors, records };
  } finally {
    await session.close();
  }
}
