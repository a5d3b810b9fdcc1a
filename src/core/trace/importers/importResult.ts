/**
 * What importing one line (or one SSE block) gives: a record, or an error that names the line.
 */
import type { LineError, LoadedRecord } from '../record.ts';

export type ImportResult = { kind: 'record'; loaded: LoadedRecord } | { kind: 'error'; error: LineError };

export function importError(line: number, message: string): ImportResult {
  return { kind: 'error', error: { line, message: `line ${line}: ${message}` } };
}

export function importedRecord(loaded: LoadedRecord): ImportResult {
  return { kind: 'record', loaded };
}

/** One line of an entry, with its 1-based line number in the file. */
export interface TextLine {
  line: number;
  text: string;
}

/** Records and errors of an entry or a whole file, each list in line order. */
export interface ReadResult {
  records: LoadedRecord[];
  errors: LineError[];
}

/** One item of a trace in file order (for the CLI's streaming pass). */
export type TraceItem = { kind: 'record'; loaded: LoadedRecord } | { kind: 'error'; error: LineError };

/** A read result's records and errors merged in line order (records first on a tie: a stream starts its block). */
export function itemsInLineOrder(result: ReadResult): TraceItem[] {
  const items: TraceItem[] = [];
  let r = 0;
  let e = 0;
  while (r < result.records.length || e < result.errors.length) {
    const rec = result.records[r];
    const err = result.errors[e];
    if (rec !== undefined && (err === undefined || rec.line <= err.line)) {
      items.push({ kind: 'record', loaded: rec });
      r++;
    } else if (err !== undefined) {
      items.push({ kind: 'error', error: err });
      e++;
    }
  }
  return items;
}

/** The last line of a file that has no newline yet and does not parse: most likely still being written. */
export function incompleteLineError(line: number): LineError {
  return { line, message: `line ${line} is incomplete (the file may still be being written)` };
}
