/**
 * `print(chunk)` in a streaming loop: one `ChatCompletionChunk(…)` repr a line. Each line is read as a Python
 * printout (pythonLiteral.ts) and the chunks are grouped exactly as an SSE dump's (`sseImporter.ts`: by chunk `id`,
 * error events included), so a pasted printout loop is one record per stream.
 */
import type { LineError } from '../record.ts';
import { incompleteLineError, type ReadResult, type TextLine } from './importResult.ts';
import { readPrintout } from './pythonPrintout.ts';
import { importSseBlock } from './sseImporter.ts';

export function importPrintedChunks(lines: readonly TextLine[], incompleteLine?: number): ReadResult {
  const data: TextLine[] = [];
  const errors: LineError[] = [];
  for (const { line, text } of lines) {
    const read = readPrintout(text);
    if ('error' in read)
      errors.push(
        line === incompleteLine
          ? incompleteLineError(line)
          : { line, message: `line ${line}: a ChatCompletionChunk printout Toolscope cannot read: ${read.error}` },
      );
    else data.push({ line, text: `data: ${JSON.stringify(read.value)}` });
  }
  const result = importSseBlock(data);
  for (const r of result.records) r.record.meta = { ...r.record.meta, printout: 'python' };
  result.errors.push(...errors);
  result.errors.sort((a, b) => a.line - b.line);
  return result;
}
