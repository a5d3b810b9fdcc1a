/**
 * One line's text to a record: JSON first; a line that is not JSON may be a Python printout (an SDK object's
 * repr, a dict with single quotes), read by pythonPrintout.ts. Kept apart from importLine.ts, which the printout
 * reader itself calls once it has a value.
 */
import { importLine } from './importLine.ts';
import { importError, incompleteLineError, type ImportResult, type ReadResult } from './importResult.ts';
import { importOtlpExport, isOtlpExportShape } from './otlpSpans.ts';
import { importPrintout } from './pythonPrintout.ts';
import { looksLikePythonLiteral, mayBePythonLiteral } from './pythonLiteral.ts';

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

/** Like importLineText, for a shape that holds several records in one value (an OTLP export: one per LLM span). */
export function readLineText(text: string, line: number, incomplete: boolean): ReadResult {
  if (text.includes('"resourceSpans"')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (isOtlpExportShape(value)) return importOtlpExport(value, line, line);
  }
  const result = importLineText(text, line, incomplete);
  return result.kind === 'record' ? { records: [result.loaded], errors: [] } : { records: [], errors: [result.error] };
}
