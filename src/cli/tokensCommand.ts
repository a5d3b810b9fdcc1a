/**
 * `toolscope tokens FILE [--json] [--tokenizer PATH]`: the tokens of each record's completion, with where their
 * ids come from (`recorded`, `re-encoded` by the model's tokenizer, or `approximate`), as a table or one JSON
 * object per record.
 */
import { Analyzer, type AnalysisOptions } from '../core/analysis.ts';
import { readTraceItems } from '../io/trace/traceIndex.ts';
import type { TokenizedCompletion } from '../core/tokens/token.ts';
import { tokenSourceLabel } from '../core/tokens/tokenSourceLabel.ts';
import { expandInputs, InputError } from './analyzeCommand.ts';
import { nodeServices } from '../io/nodeServices.ts';
import { escapedJson, terminalText } from '../host/report/terminalText.ts';

export interface TokensJson {
  id: string;
  line: number;
  tokenizer: string;
  source: TokenizedCompletion['source'];
  exact: boolean;
  note?: string;
  tokens: Array<{ text: string; id: number | null; bytes?: string }>;
}

/** Exact: ids from recorded tokens or the model's own tokenizer (false for the approximate splitter). */
export function tokensJson(id: string, line: number, completion: TokenizedCompletion): TokensJson {
  const out: TokensJson = {
    id,
    line,
    tokenizer: completion.tokenizer,
    source: completion.source,
    exact: completion.source !== 'approximate',
    tokens: completion.tokens.map((t) =>
      t.bytes !== undefined ? { text: t.text, id: t.id ?? null, bytes: t.bytes } : { text: t.text, id: t.id ?? null },
    ),
  };
  const note = completion.tokenizerNote ?? completion.warning;
  if (note) out.note = note;
  return out;
}

export async function tokensCommand(
  inputs: string[],
  options: { json?: boolean } & Pick<AnalysisOptions, 'format' | 'tokenizers'>,
  out: NodeJS.WritableStream,
): Promise<number> {
  const files = await expandInputs(inputs);
  const analyzer = new Analyzer({ format: options.format, tokenizers: options.tokenizers }, nodeServices());
  // Ids, names and messages come from the trace: escaped (terminalText.ts; --json lines have nothing left to escape).
  const write = (line: string) => out.write(terminalText(line) + '\n');
  for (const file of files) {
    try {
      for await (const item of readTraceItems(file)) {
        if (item.kind === 'error') {
          if (options.json) write(escapedJson({ file, line: item.error.line, error: item.error.message }));
          else write(`${file}:${item.error.line}: ${item.error.message}`);
          continue;
        }
        // One record's unexpected failure is an error on its line, not the end of the file.
        const outcome = await analyzer.analyzeGuarded(item.loaded, false);
        if (outcome.kind === 'error') {
          if (options.json) write(escapedJson({ file, line: outcome.error.line, error: outcome.error.message }));
          else write(`${file}:${outcome.error.line}: ${outcome.error.message}`);
          continue;
        }
        const analysed = outcome.analysed;
        const completion = analysed.completion;
        if (!completion) {
          if (!options.json) write(`${file}:${analysed.line} ${analysed.id}: no raw completion, no tokens`);
          continue;
        }
        if (options.json) {
          write(escapedJson(tokensJson(analysed.id, analysed.line, completion)));
          continue;
        }
        write(
          `${file}:${analysed.line} ${analysed.id} · ${analysed.format} · ${completion.tokens.length} tokens · ${tokenSourceLabel(completion)}`,
        );
        for (const t of completion.tokens)
          write(
            `  ${String(t.index + 1).padStart(6)}  ${String(t.id ?? '—').padStart(7)}  ${t.bytes ?? JSON.stringify(t.text)}${t.special ? '  (special)' : ''}`,
          );
      }
    } catch (err) {
      throw new InputError(`cannot read ${file}: ${(err as Error).message}`);
    }
  }
  return 0;
}
