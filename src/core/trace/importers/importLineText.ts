/**
 * One line's text to a record: JSON first; a line that is not JSON may be a Python printout (an SDK object's
 * repr, a dict with single quotes), read by pythonPrintout.ts. Kept apart from importLine.ts, which the printout
 * reader itself calls once it has a value.
 */
import { importLine } from './importLine.ts';
import { importError, incompleteLineError, type ImportResult, type ReadResult } from './importResult.ts';
import { importOtlpExport, isOtlpExportShape } from './otlpSpans.ts';
import { importExportRow } from './exportRow.ts';
import { isObject } from './jsonGuards.ts';
import { importPrintout } from './pythonPrintout.ts';
import { looksLikePythonLiteral, mayBePythonLiteral } from './pythonLiteral.ts';
import { learnToolSet, parseWithKeptTools } from './sharedToolSets.ts';

/** Parses one line's text and imports it; `incomplete` marks a last line without its newline. */
export function importLineText(text: string, line: number, incomplete: boolean): ImportResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (incomplete) return { kind: 'error', error: incompleteLineError(line) };
    // Not JSON: maybe a Python printout (an SDK object's repr, a dict with single quotes).
    if (mayBePythonLiteral(text)) {
      const printout = importPrintout(text, line, line);
      if (printout.kind === 'record' || looksLikePythonLiteral(text)) return printout;
    }
    return importError(line, `invalid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  return importLine(value, line);
}

/**
 * Like importLineText, for every shape: those that hold several records in one value (an OTLP export: one per LLM
 * span) or none (an exported row that is no model call: exportRow.ts) as well as one record a line.
 */
export function readLineText(text: string, line: number, incomplete: boolean): ReadResult {
  // A tool set seen before is not parsed again where the reader opted in (sharedToolSets.ts).
  let value: unknown = parseWithKeptTools(text);
  if (value === undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: an incomplete last line, a Python printout, or an error (importLineText says which).
      return asRead(importLineText(text, line, incomplete));
    }
    learnToolSet(text, value);
  }
  if (isOtlpExportShape(value)) return importOtlpExport(value, line, line);
  if (isObject(value)) {
    const row = importExportRow(value, line, text);
    if (row !== null) return row;
  }
  return asRead(importLine(value, line));
}

function asRead(result: ImportResult): ReadResult {
  return result.kind === 'record' ? { records: [result.loaded], errors: [] } : { records: [], errors: [result.error] };
}
