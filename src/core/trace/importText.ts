/**
 * Synchronous import of a small in-memory trace (tests, pasted text, the browser later). Same line rules as
 * the file index: a BOM at the start, CRLF, blank lines skipped, consecutive SSE lines grouped into one block,
 * continuation lines joined to the record above them.
 * The last line needs no newline here: the text is complete by definition.
 */
import type { ReadResult } from './importers/importResult.ts';
import { importLineGroup, type TextLine } from './importers/importGroup.ts';
import { importSseBlock } from './importers/sseImporter.ts';
import { importOllamaLines } from './importers/ollamaImporter.ts';
import { importPrintedChunks } from './importers/printedChunks.ts';
import { guardedEntry } from './importers/entryGuard.ts';
import { classifyText, type LineKind } from './lineKind.ts';

/** Every record and error of one file (or text), each list in line order. */
export interface LoadResult extends ReadResult {
  /** The path or label the trace was read from. */
  file: string;
}

export function importText(text: string, fileLabel = '<text>'): LoadResult {
  const out: LoadResult = { file: fileLabel, records: [], errors: [] };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let block: TextLine[] = [];
  let blockKind: LineKind = 'json';
  const flush = (): void => {
    if (block.length === 0) return;
    const lines = block;
    const result = guardedEntry(lines[0]?.line ?? 0, () =>
      blockKind === 'sse'
        ? importSseBlock(lines)
        : blockKind === 'ollama'
          ? importOllamaLines(lines)
          : blockKind === 'pychunk'
            ? importPrintedChunks(lines)
            : importLineGroup(lines),
    );
    out.records.push(...result.records);
    out.errors.push(...result.errors);
    block = [];
  };
  // LF, CRLF or a lone CR end a line, as in the index.
  const lines = body.split(/\r\n|\r|\n/u);
  for (let i = 0; i < lines.length; i++) {
    const lineText = lines[i] ?? '';
    const kind = classifyText(lineText);
    if (kind === 'blank') continue; // blank lines separate SSE events; they do not end a block
    // The same rules as the index: SSE lines extend an SSE block, Ollama lines an Ollama run, continuation lines a record.
    const extends_ =
      block.length > 0 &&
      (kind === 'sse' || kind === 'ollama' || kind === 'pychunk' ? blockKind === kind : kind === 'continuation' && blockKind === 'json');
    if (!extends_) {
      flush();
      blockKind = kind === 'continuation' ? 'json' : kind;
    }
    block.push({ line: i + 1, text: lineText });
  }
  flush();
  return out;
}
