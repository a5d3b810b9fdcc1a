/**
 * The rows of a CSV file with a header line (RFC 4180: quoted fields may hold commas, quotes doubled, and line
 * breaks), read 1 MB at a time: Langfuse's CSV export. Each row is an object keyed by the header; `line` is the
 * line the row starts on (the header is line 1), so an error names the line an editor shows. A value that is JSON
 * text stays text here: the importers read JSON columns themselves (exportMessages.ts `jsonColumn`).
 */
import { open } from 'node:fs/promises';
import type { TableRow } from './parquetRows.ts';

const CHUNK = 1 << 20;

/** The most a single row may hold: a row that never ends (an unclosed quote) stops the file there, with an error. */
export const MAX_CSV_ROW_CHARS = 64 * 1024 * 1024;

export class CsvRowTooLong extends Error {}

export async function* csvRows(path: string): AsyncGenerator<TableRow> {
  const handle = await open(path, 'r');
  const decoder = new TextDecoder('utf-8');
  let header: string[] | null = null;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let rowLine = 1;
  let rowChars = 0;
  let pendingCr = false;
  let first = true;
  const buffer = new Uint8Array(CHUNK);
  const endRow = function* (): Generator<TableRow> {
    fields.push(field);
    const values = fields;
    fields = [];
    field = '';
    rowChars = 0;
    if (header === null) header = values.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/u, '') : h));
    else if (!(values.length === 1 && values[0] === '')) {
      const row: Record<string, unknown> = {};
      (header as string[]).forEach((name, i) => {
        const v = values[i];
        // An empty field is a null (Langfuse's CSV notes); quoted empties are rare enough to read alike.
        row[name] = v === undefined || v === '' ? null : v;
      });
      yield { line: rowLine, row };
    }
  };
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      const text = bytesRead === 0 ? decoder.decode() : decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      for (let i = 0; i < text.length; i++) {
        const c = text[i] as string;
        if (first) {
          first = false;
          rowLine = line;
        }
        if (pendingCr) {
          pendingCr = false;
          if (c === '\n') continue;
        }
        if (++rowChars > MAX_CSV_ROW_CHARS)
          throw new CsvRowTooLong(`line ${rowLine}: a CSV row longer than ${MAX_CSV_ROW_CHARS} characters (an unclosed quote?)`);
        if (quoted) {
          if (c === '"') {
            quoted = false;
            afterQuote = true;
          } else {
            if (c === '\n' || c === '\r') line++;
            if (c === '\r' && text[i + 1] === '\n') {
              field += '\r\n';
              i++;
              continue;
            }
            field += c;
          }
          continue;
        }
        if (c === '"') {
          if (afterQuote) field += '"'; // a doubled quote inside a quoted field
          quoted = true;
          afterQuote = false;
          continue;
        }
        afterQuote = false;
        if (c === ',') {
          fields.push(field);
          field = '';
        } else if (c === '\n' || c === '\r') {
          yield* endRow();
          line++;
          rowLine = line;
          pendingCr = c === '\r';
        } else field += c;
      }
      if (bytesRead === 0) break;
    }
    if (field !== '' || fields.length > 0) yield* endRow();
  } finally {
    await handle.close();
  }
}
