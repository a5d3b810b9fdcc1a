/**
 * One entry's non-SSE lines: a line that starts a record and the continuation lines after it (see lineKind.ts).
 * Most entries are one line. Several lines are first read as one value (pretty-printed JSON, a multi-line
 * printout); when they are not one, every line is imported on its own, as if it stood alone — an indented JSONL
 * line stays a record of its own, and a bad line is an error for that line only. Only when every line fails and
 * the first opens a value (`{`, `[`, `(` at its end) is the whole span one error: a pretty-printed object that
 * does not parse is one mistake, not fifty.
 */
import type { LineError, LoadedRecord } from '../record.ts';
import { importLine } from './importLine.ts';
import { readLineText } from './importLineText.ts';
import { importOtlpExport, isOtlpExportShape } from './otlpSpans.ts';
import { importExportRow } from './exportRow.ts';
import { isObject } from './jsonGuards.ts';
import { importPrintout } from './pythonPrintout.ts';
import { looksLikePythonLiteral, mayBePythonLiteral } from './pythonLiteral.ts';
import { incompleteLineError, type ImportResult, type ReadResult, type TextLine } from './importResult.ts';

export type { TextLine } from './importResult.ts';

/** V8's longest string on 64-bit platforms (String::kMaxLength, UTF-16 units): no entry longer can be one value. */
const MAX_STRING_LENGTH = 2 ** 29 - 24;

function asRead(result: ImportResult): ReadResult {
  return result.kind === 'record' ? { records: [result.loaded], errors: [] } : { records: [], errors: [result.error] };
}

function spanning(loaded: LoadedRecord, lastLine: number): LoadedRecord {
  return { ...loaded, lastLine: Math.max(loaded.lastLine, lastLine) };
}

/** `incompleteLine`: the number of a last line still missing its newline. */
export function importLineGroup(lines: readonly TextLine[], incompleteLine?: number): ReadResult {
  const first = lines[0];
  if (first === undefined) return { records: [], errors: [] };
  if (lines.length === 1) return readLineText(first.text, first.line, first.line === incompleteLine);
  const last = lines[lines.length - 1] ?? first;
  // Lines that cannot be joined into one string are read only one by one (joining them threw "Invalid string length").
  const joinedLength = lines.reduce((n, l) => n + l.text.length + 1, -1);
  const joinable = joinedLength <= MAX_STRING_LENGTH;

  if (joinable && !parses(first.text)) {
    const joined = lines.map((l) => l.text).join('\n');
    let value: unknown;
    let parsed = true;
    try {
      value = JSON.parse(joined);
    } catch {
      parsed = false;
    }
    if (parsed) {
      // An OTLP export holds many spans: one record per LLM span, all starting on the export's first line.
      if (isOtlpExportShape(value)) return importOtlpExport(value, first.line, last.line);
      // A pretty-printed exported row (a Phoenix span as its docs print one): its record spans the lines.
      const row = isObject(value) ? importExportRow(value, first.line) : null;
      if (row !== null) return { records: row.records.map((r) => spanning(r, last.line)), errors: row.errors };
      const result = importLine(value, first.line);
      return result.kind === 'record' ? { records: [spanning(result.loaded, last.line)], errors: [] } : asRead(result);
    }
    // A multi-line Python printout (pprint, rich): read as one value when it is one.
    if (mayBePythonLiteral(joined) && last.line !== incompleteLine) {
      const printout = importPrintout(joined, first.line, last.line);
      if (printout.kind === 'record') return asRead(printout);
      if (looksLikePythonLiteral(joined) && !parses(first.text)) return asRead(printout);
    }
    // A value that closes before the last line (a stray `]` after a pretty-printed record): the value is one entry
    // and the lines after it are read on their own, each a record or an error of its own.
    const end = firstValueEnd(lines);
    if (
      end > 0 &&
      end < lines.length - 1 &&
      parses(
        lines
          .slice(0, end + 1)
          .map((l) => l.text)
          .join('\n'),
      )
    ) {
      const head = importLineGroup(lines.slice(0, end + 1));
      const rest = importLineGroup(lines.slice(end + 1), incompleteLine);
      return { records: [...head.records, ...rest.records], errors: [...head.errors, ...rest.errors] };
    }
  }

  const out: ReadResult = { records: [], errors: [] };
  for (const l of lines) {
    const r = readLineText(l.text, l.line, l.line === incompleteLine);
    out.records.push(...r.records);
    out.errors.push(...r.errors);
  }
  if (out.records.length === 0 && /[{[(]\s*$/.test(first.text)) {
    const error: LineError =
      last.line === incompleteLine
        ? incompleteLineError(first.line)
        : {
            line: first.line,
            message: joinable
              ? `line ${first.line}: lines ${first.line}–${last.line} do not make one JSON value (${jsonError(lines.map((l) => l.text).join('\n'))})`
              : `line ${first.line}: lines ${first.line}–${last.line} make one entry of ${joinedLength} characters, more than a JavaScript string holds (${MAX_STRING_LENGTH}): it is not read as one value`,
          };
    return { records: [], errors: [error] };
  }
  return out;
}

/**
 * The index of the line on which the JSON value opened by the first line closes (brackets counted outside strings),
 * or -1 when the first line opens none or it does not close. Linear in the text, without parsing it.
 */
function firstValueEnd(lines: readonly TextLine[]): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] as TextLine).text;
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (inString) {
        if (c === 0x5c)
          k++; // a backslash escapes the next character
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth <= 0) return depth === 0 && k === text.trimEnd().length - 1 ? i : -1;
      }
    }
    if (i === 0 && depth === 0) return -1;
  }
  return -1;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return 'no error';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
