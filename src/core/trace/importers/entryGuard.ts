/**
 * The last line of defence of every entry's import: an importer that throws (a value no check foresaw) costs that
 * entry, as a line-numbered error naming the reason, never the rest of the file. Both readers (the file index and
 * `importText`) import each entry through it.
 */
import type { ReadResult } from './importResult.ts';

export function guardedEntry(line: number, importEntry: () => ReadResult): ReadResult {
  try {
    return importEntry();
  } catch (err) {
    const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { records: [], errors: [{ line, message: `line ${line}: could not be imported (${reason})` }] };
  }
}
